/**
 * index-overflow: an index over (or near) its budget. Inline index text is memory, so nothing is
 * dropped: whole sections move, byte for byte, into topic notes the item creates (front matter in
 * the vault's own shape), each replaced by one pointer line. Rules and warnings stay above the cut;
 * the sections the agent needs least move first. The cut is measured by the index-budget code.
 */
import type { Action } from '../../proposal/schema.js';
import { notesUnderRules } from '../../rules/reachability.js';
import { harnessCut, measureText } from '../../vault/index-file.js';
import { decodeBytes } from '../../vault/decode.js';
import { maskSecrets } from '../../rules/security/secret.js';
import type { IndexInfo, Vault, VaultFile } from '../../vault/model.js';
import { defineStage, type ItemDraft } from '../stage.js';
import { count } from '../../util/counters.js';

export type Move = Extract<Action, { type: 'split-index' }>['moves'][number];

interface Block {
  /** 1-based first and last line. */
  readonly from: number;
  readonly to: number;
  readonly heading: string | null;
  /** The heading path above this block when its section was too large to move whole (`A › B`), else null. */
  readonly parent: string | null;
  /** A split section's heading line and intro: stays in the index, so the subsections kept under it keep their context. */
  readonly anchor?: boolean;
  /** Most of its lines are links (a "Quick Links" list): moved only after every prose section. */
  readonly links: boolean;
  readonly score: number;
}

type RawBlock = Omit<Block, 'score' | 'links'>;

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;
const RULE_HEADING =
  /rule|critical|warning|never|always|must|important|gotcha|avoid|anti-?pattern|lesson|don'?t|do not|security|safety|feedback|caution|pitfall|constraint|policy|principle|mandatory|non-negotiable|locked|규칙|주의|금지|필수|원칙|规则|注意|禁止|必须|ルール|注意|禁止/i;
export const RULE_LINE =
  /\b(NEVER|ALWAYS|MUST|CRITICAL|IMPORTANT|WARNING|DO NOT|DON'T)\b|\bnever\b|\balways\b|\bmust\b|⚠|❗|🚨|절대|금지|必须|禁止|不要/;
const LINK = /\[[^\]]*\]\([^)\s]+[^)]*\)|\[\[[^\]]+\]\]/;
const LINK_HEADING = /\b(?:quick ?links?|links?|see also|navigation|related|index)\b/i;
/** A section larger than this share of the line budget is split at its sub-headings or paragraphs. */
const LARGEST_SHARE = 0.4;
/** A moved section this long gets a topic note of its own; shorter ones share one. */
const OWN_NOTE_LINES = 8;
/**
 * An index past the warning headroom but under both limits loads whole today: a split is proposed
 * only past this share of a limit (a reader labelled a split of a 117-line, 92%-of-bytes index noise).
 */
export const PROPOSE_SHARE = 0.98;

/**
 * Line ranges of the index: sections under headings; a heading-less run splits at blank lines. A
 * section too large to move whole is split at its sub-headings, but its heading line (and the
 * intro above the first sub-heading) stays as an anchor: what is kept under it still reads as part
 * of it, and what moves goes to a note named after it.
 */
function blocks(
  lines: readonly string[],
  from: number,
  to: number,
  level: number,
  maxLines: number,
  parent: string | null,
  out: RawBlock[],
): void {
  if (from > to) return;
  const inFence = fenceMap(lines);
  const heads: number[] = [];
  let minLevel = 7;
  for (let i = from; i <= to; i++) {
    const m = inFence[i - 1] ? null : HEADING.exec(lines[i - 1]!);
    if (m && m[1]!.length > level) minLevel = Math.min(minLevel, m[1]!.length);
  }
  if (minLevel < 7)
    for (let i = from; i <= to; i++)
      if (!inFence[i - 1] && HEADING.exec(lines[i - 1]!)?.[1]!.length === minLevel) heads.push(i);
  const ranges: [number, number, string | null][] = [];
  if (heads.length > 0) {
    if (heads[0]! > from) ranges.push([from, heads[0]! - 1, null]);
    heads.forEach((h, k) => ranges.push([h, (heads[k + 1] ?? to + 1) - 1, HEADING.exec(lines[h - 1]!)![2]!]));
  } else {
    // Paragraphs: runs of lines between blank lines (a fenced block stays whole).
    let start = -1;
    for (let i = from; i <= to + 1; i++) {
      const blank = i > to || (!inFence[i - 1] && lines[i - 1]!.trim() === '');
      if (!blank && start < 0) start = i;
      if (blank && start >= 0) {
        ranges.push([start, i - 1, null]);
        start = -1;
      }
    }
  }
  for (const [a, end, heading] of ranges) {
    // Blank lines that close a section stay in the index, between what is left.
    let b = end;
    while (b > a && lines[b - 1]!.trim() === '') b--;
    const size = b - a + 1;
    const path = heading === null ? parent : parent ? `${parent} › ${heading}` : heading;
    if (size > maxLines * LARGEST_SHARE && (heads.length > 0 || ranges.length > 1)) {
      const sub: RawBlock[] = [];
      blocks(lines, heading === null ? a : a + 1, b, heading === null ? level : minLevel, maxLines, path, sub);
      if (sub.length > 1) {
        if (heading !== null) {
          // The heading line and the intro before the first sub-heading stay: the anchor.
          const firstHeaded = sub.findIndex((x) => x.heading !== null && x.parent === path);
          const anchorTo = firstHeaded > 0 ? sub[firstHeaded]!.from - 1 : a;
          out.push({ from: a, to: anchorTo, heading, parent, anchor: true });
          out.push(...sub.filter((x) => x.from > anchorTo));
        } else out.push(...sub);
        continue;
      }
    }
    if (size > maxLines * LARGEST_SHARE && heads.length === 0 && ranges.length === 1) {
      // One long list with no blank line: fixed chunks, so a part of it can move.
      const chunk = Math.max(5, Math.floor(maxLines * 0.1));
      for (let s = a; s <= b; s += chunk)
        out.push({ from: s, to: Math.min(b, s + chunk - 1), heading: null, parent: path });
      continue;
    }
    out.push({ from: a, to: b, heading, parent });
  }
}

/** Most of the block's content lines carry a link (or it is headed as a link list). */
function isLinkList(lines: readonly string[], b: RawBlock): boolean {
  let content = 0;
  let linked = 0;
  for (let i = b.from; i <= b.to; i++) {
    const l = lines[i - 1]!;
    if (l.trim() === '' || HEADING.test(l)) continue;
    content++;
    if (LINK.test(l)) linked++;
  }
  if (content === 0) return false;
  return linked / content >= 0.6 || (b.heading !== null && LINK_HEADING.test(b.heading) && linked > 0);
}

function fenceMap(lines: readonly string[]): boolean[] {
  const out: boolean[] = [];
  let open = false;
  for (const l of lines) {
    if (FENCE.test(l)) {
      out.push(true);
      open = !open;
      continue;
    }
    out.push(open);
  }
  return out;
}

/** How much the agent needs a block: rules and warnings first, then notes about feedback and the user. */
/** Per index line, how many of its resolved links go to feedback and to user notes (score() sums ranges of them). */
function linkTypesByLine(
  vault: Vault,
  index: VaultFile,
  lineCount: number,
): { feedback: Int32Array; user: Int32Array } {
  const feedback = new Int32Array(lineCount + 2);
  const user = new Int32Array(lineCount + 2);
  for (const l of index.links) {
    if (!l.resolved || l.line < 1 || l.line > lineCount + 1) continue;
    const t = vault.byPath.get(l.resolved)?.meta.type;
    if (t === 'feedback') feedback[l.line]!++;
    else if (t === 'user') user[l.line]!++;
  }
  return { feedback, user };
}

function score(
  byLine: { feedback: Int32Array; user: Int32Array },
  lines: readonly string[],
  b: RawBlock,
  total: number,
): number {
  let rules = 0;
  let feedbackLinks = 0;
  let userLinks = 0;
  for (let i = b.from; i <= b.to; i++) {
    if (RULE_LINE.test(lines[i - 1]!)) rules++;
    feedbackLinks += byLine.feedback[i] ?? 0;
    userLinks += byLine.user[i] ?? 0;
  }
  const size = b.to - b.from + 1;
  const feedback = feedbackLinks + 0.7 * userLinks;
  // A subsection of a rules section is a rule too.
  const headed = `${b.parent ?? ''} ${b.heading ?? ''}`;
  return (
    (RULE_HEADING.test(headed) ? 100 : 0) +
    60 * (rules / size) +
    30 * Math.min(1, feedback / size) -
    5 * (b.from / total)
  );
}

/**
 * A heading or first line as a title: links read as their text, emphasis and code marks go (an
 * underscore inside a word stays), and a long title ends at a whole word with an ellipsis.
 */
export function titleText(s: string, max = 70): string {
  const t = s
    .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]/g, (_m, a: string, b: string | undefined) => b ?? a)
    .replace(/\*\*|`|(?<![\p{L}\p{N}])__|__(?![\p{L}\p{N}])/gu, '')
    .replace(/[[\]]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return cutAtWord(t, max, ' ', '…');
}

/** The text cut to at most `max` characters at a `sep`, with `mark` added when cut. */
export function cutAtWord(t: string, max: number, sep: string, mark: string): string {
  const chars = [...t];
  if (chars.length <= max) return t;
  const head = chars.slice(0, max + 1).join('');
  const at = head.lastIndexOf(sep);
  const cut = at > head.length / 2 ? head.slice(0, at) : chars.slice(0, max).join('');
  return `${cut.replace(/[\s,;:.\-–—(]+$/u, '')}${mark}`;
}

/** A file-name stem from a title: letters and digits of any script, accents dropped, ending at a whole word. */
const slug = (s: string, max = 48): string => {
  const full = s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return cutAtWord(full, max, '-', '');
};
const yamlString = (s: string): string => JSON.stringify(s);

/** The shape most of the vault's notes use for front matter, written the same way. */
function frontmatterWriter(vault: Vault): (name: string, description: string, type: string) => string {
  const counts = new Map<string, number>();
  for (const n of notesUnderRules(vault)) counts.set(n.meta.shape, (counts.get(n.meta.shape) ?? 0) + 1);
  const shape = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'flat';
  if (shape === 'none') return () => '';
  if (shape === 'nested-metadata')
    return (name, description, type) =>
      `---\nname: ${yamlString(name)}\ndescription: ${yamlString(description)}\nmetadata:\n  type: ${type}\n---\n`;
  return (name, description, type) =>
    `---\nname: ${yamlString(name)}\ndescription: ${yamlString(description)}\ntype: ${type}\n---\n`;
}

const encoder = new TextEncoder();

/**
 * A lower bound of `measure` for the index with some sections moved, in O(sections moved): every
 * line with a non-space character is a line of the trimmed text, and its trimmed content is part of
 * it. The bound may only say "does not fit yet" (then the exact measure is skipped); it returns null
 * where the exact measure reads no text (a NUL byte; a file that may exceed the size limit).
 */
export function lowerBound(
  vault: Vault,
  index: VaultFile,
  lines: readonly string[],
  extra: readonly string[],
): (moves: readonly Move[]) => Pick<IndexInfo, 'lines' | 'bytes' | 'maxLines' | 'maxBytes'> | null {
  const measureKind = vault.config.index.measure;
  const nonBlank = (t: string): number => (t.trim() === '' ? 0 : 1);
  const core = (t: string): number => measureText(t.trim(), measureKind);
  const nb = new Int32Array(lines.length + 1);
  const size = new Float64Array(lines.length + 1);
  let fileBytes = index.bom ? 3 : 0;
  const sep = index.crlf ? 2 : 1;
  let nul = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    nb[i + 1] = nb[i]! + nonBlank(l);
    size[i + 1] = size[i]! + core(l);
    fileBytes += Buffer.byteLength(l, 'utf8') + sep;
    if (l.includes('\0')) nul = true;
  }
  let baseNb = nb[lines.length]!;
  let baseSize = size[lines.length]!;
  for (const l of extra) {
    baseNb += nonBlank(l);
    baseSize += core(l);
    fileBytes += Buffer.byteLength(l, 'utf8') + sep;
    if (l.includes('\0')) nul = true;
  }
  // A section's own move is the same object from one render to the next: its pointer is measured once.
  const pointers = new WeakMap<Move, { nb: number; size: number; file: number; nul: boolean }>();
  return (moves) => {
    if (nul) return null;
    let n = baseNb,
      bytes = baseSize,
      file = fileBytes;
    for (const m of moves) {
      const from = m.from - 1,
        to = m.from - 1 + m.lines.length;
      n -= nb[to]! - nb[from]!;
      bytes -= size[to]! - size[from]!;
      if (m.pointer) {
        let p = pointers.get(m);
        if (!p) {
          p = {
            nb: nonBlank(m.pointer),
            size: core(m.pointer),
            file: Buffer.byteLength(m.pointer, 'utf8') + sep,
            nul: m.pointer.includes('\0'),
          };
          pointers.set(m, p);
        }
        if (p.nul) return null;
        n += p.nb;
        bytes += p.size;
        file += p.file;
      }
    }
    if (file > vault.config.maxFileBytes) return null;
    return { lines: n, bytes, maxLines: vault.config.index.maxLines, maxBytes: vault.config.index.maxBytes };
  };
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The index's size as the index-budget code measures it (`readIndex` of the file these lines make:
 * the same bytes, decoded and cut the same way), without parsing the file or resolving its links:
 * this runs once per section moved, so a full parse here made the stage O(sections × index).
 */
export function measure(
  vault: Vault,
  index: VaultFile,
  lines: readonly string[],
): Pick<IndexInfo, 'lines' | 'bytes' | 'maxLines' | 'maxBytes'> {
  count('consolidate.indexMeasures');
  const text = `${lines.join(index.crlf ? '\r\n' : '\n')}${lines.length ? (index.crlf ? '\r\n' : '\n') : ''}`;
  const full = `${index.bom ? '\uFEFF' : ''}${text}`;
  // Text that UTF-8 round-trips unchanged (no lone surrogate, no NUL, no BOM of its own) decodes to
  // itself: the encode/decode pair is skipped. Anything else takes the long way.
  const plain = !text.startsWith('\uFEFF') && !text.includes('\0') && !LONE_SURROGATE.test(text);
  // parseMarkdown keeps the text of a file over the size limit too (for the security rules), and the
  // index budget is measured on it: the same text here.
  const decoded = plain ? text : decodeBytes(encoder.encode(full)).text;
  const cut = harnessCut(decoded, vault.config.index);
  return {
    lines: cut.lines,
    bytes: cut.size,
    maxLines: vault.config.index.maxLines,
    maxBytes: vault.config.index.maxBytes,
  };
}

export const indexOverflow = defineStage({
  id: 'index-overflow',
  description:
    'Whole sections of an over-budget index move, byte for byte, into topic notes the item creates, one pointer line each; rules and warnings stay above the cut.',
  run({ vault }) {
    return planSplit(vault).items;
  },
});

const planCache = new WeakMap<Vault, { items: ItemDraft[]; linesAfter: string[] | null }>();

/**
 * The index-overflow item (none when the index fits) and the index's lines once its moves are made
 * (null when nothing moves): the orphans stage measures the room it has left against these.
 */
export function planSplit(vault: Vault): { items: ItemDraft[]; linesAfter: string[] | null } {
  let cached = planCache.get(vault);
  if (!cached) {
    cached = computeSplit(vault);
    planCache.set(vault, cached);
  }
  return cached;
}

function computeSplit(vault: Vault): { items: ItemDraft[]; linesAfter: string[] | null } {
  const none = { items: [], linesAfter: null };
  const info = vault.indexInfo;
  const index = vault.index;
  if (!info || !index) return none;
  const headroom = vault.config.index.headroom;
  const fits = (i: Pick<IndexInfo, 'lines' | 'maxLines' | 'bytes' | 'maxBytes'>): boolean =>
    i.lines <= Math.floor(i.maxLines * headroom) && i.bytes <= Math.floor(i.maxBytes * headroom);
  // Under both limits and not at the cut: the whole index loads today (check's near-budget warns).
  if (info.lines < info.maxLines * PROPOSE_SHARE && info.bytes < info.maxBytes * PROPOSE_SHARE) return none;
  const lines = index.text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  // The title (a first-line `#` heading) always stays.
  const first = HEADING.exec(lines[0] ?? '')?.[1] === '#' ? 2 : 1;
  const raw: RawBlock[] = [];
  blocks(lines, first, lines.length, first === 2 ? 1 : 0, Math.floor(info.maxLines * headroom), null, raw);
  const byLine = linkTypesByLine(vault, index, lines.length);
  const all: Block[] = raw.map((b) => ({
    ...b,
    links: isLinkList(lines, b),
    score: score(byLine, lines, b, lines.length),
  }));
  // Orphans' index lines are not counted here: the orphans stage measures its room after these moves.
  const orphans: string[] = [];
  const taken = new Set(
    [...vault.files.map((f) => f.path.toLowerCase()), ...vault.otherFiles].map((p) => p.toLowerCase()),
  );
  const write = frontmatterWriter(vault);
  const type = (b: Block): string => {
    const t = b.score >= 60 ? 'feedback' : 'reference';
    return vault.config.types.includes(t) ? t : (vault.config.types[0] ?? t);
  };
  const titles = new Map<Block, string>();
  // A heading's credential never reaches a title, pointer line or file name (the lines move as they are).
  const titleOf = (b: Block): string => {
    let t = titles.get(b);
    if (t === undefined) {
      t = titleText(maskSecrets(b.heading ?? lines[b.from - 1]!)) || `lines ${b.from}-${b.to}`;
      titles.set(b, t);
    }
    return t;
  };
  /** The last heading of a parent path, as a title. */
  const parentTitle = (p: string): string => titleText(maskSecrets(p.split(' › ').pop()!));
  const escape = (t: string): string => t.replace(/[[\]\\]/g, (c) => `\\${c}`);
  /**
   * A new note's name from its title: the short stem, else the longer one (titles that differ only
   * late), else the stem with the index's line numbers: never a bare `-2` beside an existing note.
   */
  const fresh = (title: string, b: Block): string => {
    const short = slug(title);
    const tries = short ? [short, slug(title, 100), `${short}-lines-${b.from}-${b.to}`] : [`lines-${b.from}-${b.to}`];
    for (const t of tries)
      if (!taken.has(`memory-${t}.md`)) {
        taken.add(`memory-${t}.md`);
        return `memory-${t}.md`;
      }
    let n = 2;
    while (taken.has(`memory-${tries[0]}-${n}.md`)) n++;
    taken.add(`memory-${tries[0]}-${n}.md`);
    return `memory-${tries[0]}-${n}.md`;
  };
  /** A list of titles for a pointer or description, cut at a title with how many more there are. */
  const listOf = (ts: readonly string[], max: number): string => {
    let list = '';
    for (let k = 0; k < ts.length; k++) {
      const next = (list ? `${list}; ` : '') + ts[k]!;
      if (next.length > max && list) return `${list}; and ${ts.length - k} more`;
      list = next;
    }
    return list;
  };
  const noteFor = new Map<string, string>();
  const moved = new Set<Block>();
  // A section's own move depends on nothing else: made once (render runs once per section moved).
  const ownMoves = new Map<Block, Move>();
  const slices = new Map<Block, string[]>();
  const linesOf = (b: Block): string[] => {
    let l = slices.get(b);
    if (!l) {
      l = lines.slice(b.from - 1, b.to);
      slices.set(b, l);
    }
    return l;
  };
  /**
   * Where a moved block goes: the subsections of one split section go to one note named after it
   * (so they still say what they are about); a large top-level section gets a note of its own; the
   * small top-level ones share one.
   */
  const groupNames = new Map<Block, string>();
  const groupOf = (b: Block): string => {
    let g = groupNames.get(b);
    if (g === undefined) {
      g = b.parent !== null ? `parent:${b.parent}` : b.to - b.from + 1 >= OWN_NOTE_LINES ? `own:${b.from}` : 'more';
      groupNames.set(b, g);
    }
    return g;
  };
  // A section that is not the first of its group moves as it is to its group's note (named once): made once.
  const memberMoves = new Map<Block, Move>();
  /** The first move of a group that is not a section's own (`more`, a split section's parts): names its members. */
  const groupMoves = new Map<string, { readonly size: number; readonly move: Move }>();
  const groupMove = (g: string, members: readonly Block[], note: string): Move => {
    count('consolidate.indexGroupMoves');
    const head = members[0]!;
    const total = members.reduce((n, x) => n + x.to - x.from + 1, 0);
    const ts = members.map(titleOf);
    const kind = members.some((x) => type(x) === 'feedback') ? 'feedback' : 'reference';
    const sections = `${members.length} section${members.length > 1 ? 's' : ''}, ${total} lines`;
    if (g === 'more') {
      const description = `Sections moved from ${index.path} (${sections}) to keep the index within its budget: ${listOf(ts, 240)}`;
      return {
        from: head.from,
        lines: linesOf(head),
        note,
        frontmatter: write(`More from ${index.path}`, description, kind),
        pointer: `- [More from ${index.path}: ${escape(listOf(ts, 500))}](${note}) — ${sections} moved here`,
      };
    }
    // The subsections of one section: the note says, by its name and first heading, what they are part of.
    const path = titleText(maskSecrets(head.parent!), 200);
    const parent = parentTitle(head.parent!);
    const description = `Part of "${path}" in ${index.path}, moved to keep the index within its budget (${sections}): ${listOf(ts, 240)}`;
    const fm = write(parent, description, kind);
    return {
      from: head.from,
      lines: linesOf(head),
      note,
      frontmatter: `${fm}# ${path}\n\n`,
      pointer: `- [${escape(parent)}: ${escape(listOf(ts, 240))}](${note}) — ${sections} moved here`,
    };
  };
  const render = (): Move[] => {
    count('consolidate.indexRenders');
    const blocks = [...moved].sort((a, b) => a.from - b.from);
    const groups = new Map<string, Block[]>();
    for (const b of blocks) {
      const g = groupOf(b);
      const members = groups.get(g);
      if (members) members.push(b);
      else groups.set(g, [b]);
    }
    const moves: Move[] = [];
    for (const b of blocks) {
      const g = groupOf(b);
      const members = groups.get(g)!;
      if (g.startsWith('own:')) {
        let move = ownMoves.get(b);
        if (!move) {
          const size = b.to - b.from + 1;
          const title = titleOf(b);
          let note = noteFor.get(g);
          if (!note) {
            note = fresh(title, b);
            noteFor.set(g, note);
          }
          const description = `Moved from ${index.path} lines ${b.from}-${b.to} (${size} lines) to keep the index within its budget`;
          move = {
            from: b.from,
            lines: linesOf(b),
            note,
            frontmatter: write(title, description, type(b)),
            pointer: `- [${escape(title)}](${note}) — ${size} lines moved here from ${index.path}`,
          };
          ownMoves.set(b, move);
        }
        moves.push(move);
        continue;
      }
      const head = members[0]!;
      let note = noteFor.get(g);
      if (!note) {
        note = g === 'more' ? fresh('more', head) : fresh(parentTitle(head.parent!), head);
        noteFor.set(g, note);
      }
      if (b !== head) {
        let move = memberMoves.get(b);
        if (!move) memberMoves.set(b, (move = { from: b.from, lines: linesOf(b), note, frontmatter: '', pointer: '' }));
        moves.push(move);
        continue;
      }
      // A group's first move names its sections: made again only when the group has gained one since the last
      // render (sections only join groups, so the same count is the same sections).
      const known = groupMoves.get(g);
      if (known && known.size === members.length) {
        moves.push(known.move);
        continue;
      }
      const move = groupMove(g, members, note);
      groupMoves.set(g, { size: members.length, move });
      moves.push(move);
    }
    return joinAdjacent(moves);
  };
  /** Sections bound for one note with only blank lines between them move as one: no run of blank lines is left behind. */
  // render runs once per section moved: a run of joined sections is sliced once, at its end, not once per section
  // joined (the run's lines again each time).
  const joinAdjacent = (moves: Move[]): Move[] => {
    const out: Move[] = [];
    /** Where the last move of `out` ends (one past its last line), when it is a joined run; else -1. */
    let runEnd = -1;
    const closeRun = (): void => {
      if (runEnd < 0) return;
      const prev = out[out.length - 1]!;
      out[out.length - 1] = { ...prev, lines: lines.slice(prev.from - 1, runEnd - 1) };
      runEnd = -1;
    };
    for (const m of moves) {
      const prev = out[out.length - 1];
      const end = runEnd >= 0 ? runEnd : prev ? prev.from + prev.lines.length : 0;
      if (prev && prev.note === m.note && end <= m.from && allBlank(end - 1, m.from - 1)) {
        runEnd = m.from + m.lines.length;
        continue;
      }
      closeRun();
      out.push(m);
    }
    closeRun();
    return out;
  };
  const allBlank = (from: number, to: number): boolean => {
    for (let i = from; i < to; i++) if (lines[i]!.trim() !== '') return false;
    return true;
  };
  const candidate = (moves: readonly Move[]): string[] => {
    const at = new Map(moves.map((m) => [m.from, m]));
    const out: string[] = [];
    for (let i = 1; i <= lines.length; i++) {
      const m = at.get(i);
      if (m) {
        if (m.pointer) out.push(m.pointer);
        i += m.lines.length - 1;
        continue;
      }
      out.push(lines[i - 1]!);
    }
    return [...out, ...orphans];
  };
  // Prose before link lists (links keep notes reachable from the index); then least needed first,
  // in bands, so that a larger section of equal need moves first (fewer notes).
  const band = (b: Block): number => Math.floor(b.score / 20);
  const order = all
    .filter((b) => !b.anchor && (b.to > b.from || Buffer.byteLength(lines[b.from - 1]!) > 200))
    .sort(
      (a, b) =>
        Number(a.links) - Number(b.links) || band(a) - band(b) || b.to - b.from - (a.to - a.from) || b.from - a.from,
    );
  let after = measure(vault, index, candidate([]));
  const bound = lowerBound(vault, index, lines, orphans);
  for (const b of order) {
    if (fits(after)) break;
    moved.add(b);
    const moves = render();
    // The exact measure reads the whole index: it runs only once the index may fit.
    const low = bound(moves);
    after = low && !fits(low) ? low : measure(vault, index, candidate(moves));
  }
  if (!fits(after) && moved.size > 0) after = measure(vault, index, candidate(render()));
  if (moved.size === 0) return none;
  const moves = render();
  const kept = all.filter((b) => !moved.has(b) && b.heading).map((b) => b.heading);
  const overLines = Math.max(0, info.lines - info.maxLines);
  const overBytes = Math.max(0, info.bytes - info.maxBytes);
  const unit = info.measure === 'utf16' ? 'UTF-16 units' : 'bytes';
  const over = [
    overLines > 0
      ? `${overLines} lines over the ${info.maxLines}-line limit (the last ${overLines} lines never load)`
      : '',
    overBytes > 0 ? `${overBytes} ${unit} over the ${info.maxBytes}-${unit} limit (the text past it never loads)` : '',
  ].filter(Boolean);
  const why = `${index.path} reads ${info.lines} lines and ${info.bytes} ${unit}: ${over.length ? over.join('; ') : `under both limits but at ${Math.round(100 * Math.max(info.lines / info.maxLines, info.bytes / info.maxBytes))}% of one`}. After the moves: ${after.lines} lines, ${after.bytes} ${unit}.`;
  return {
    linesAfter: candidate(moves),
    items: [
      {
        kind: 'index-overflow',
        paths: [index.path],
        evidence: {
          why,
          lines: info.lines,
          bytes: info.bytes,
          maxLines: info.maxLines,
          maxBytes: info.maxBytes,
          overLines,
          overBytes,
          headroom,
          linesAfter: after.lines,
          bytesAfter: after.bytes,
          fits: fits(after),
          lostEntries: info.lostEntries.length,
          moved: moves.map((m) => ({ lines: `${m.from}-${m.from + m.lines.length - 1}`, note: m.note })),
          kept: kept.slice(0, 20),
        },
        suggestion: 'split-index',
        action: { type: 'split-index', file: index.path, moves },
        dependsOnManifest: true,
      },
    ],
  };
}
