/**
 * Line-for-line transcription of Claude Code's `truncateEntrypointContent` (src/memdir/memdir.ts of
 * the published source, read from github.com/Jayleonc/claude-code-source-code at commit
 * 83fba929f14ad08f743591c19e945afe5130ab13, lines 57-103), kept as the reference for the
 * differential tests. Only the warning text appended after the cut is left out (it names the cap
 * with `formatFileSize`; the loaded part is what memlint must agree on).
 */
export const MAX_ENTRYPOINT_LINES = 200;
export const MAX_ENTRYPOINT_BYTES = 25_000;

export interface EntrypointTruncation {
  content: string;
  lineCount: number;
  byteCount: number;
  wasLineTruncated: boolean;
  wasByteTruncated: boolean;
}

export function truncateEntrypointContent(raw: string): EntrypointTruncation {
  const trimmed = raw.trim();
  const contentLines = trimmed.split('\n');
  const lineCount = contentLines.length;
  const byteCount = trimmed.length;

  const wasLineTruncated = lineCount > MAX_ENTRYPOINT_LINES;
  // Check original byte count — long lines are the failure mode the byte cap
  // targets, so post-line-truncation size would understate the warning.
  const wasByteTruncated = byteCount > MAX_ENTRYPOINT_BYTES;

  if (!wasLineTruncated && !wasByteTruncated) {
    return { content: trimmed, lineCount, byteCount, wasLineTruncated, wasByteTruncated };
  }

  let truncated = wasLineTruncated
    ? contentLines.slice(0, MAX_ENTRYPOINT_LINES).join('\n')
    : trimmed;

  if (truncated.length > MAX_ENTRYPOINT_BYTES) {
    const cutAt = truncated.lastIndexOf('\n', MAX_ENTRYPOINT_BYTES);
    truncated = truncated.slice(0, cutAt > 0 ? cutAt : MAX_ENTRYPOINT_BYTES);
  }

  // (The reference appends `\n\n> WARNING: MEMORY.md is … Only part of it was loaded. …` here.)
  return { content: truncated, lineCount, byteCount, wasLineTruncated, wasByteTruncated };
}
