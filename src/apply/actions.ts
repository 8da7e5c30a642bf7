/**
 * What each proposal action does to the vault, as an overlay of new texts, index line edits and store edits
 * (compose.ts puts the overlays of a run together). One function per action type; `describe` says it in a line.
 * Every byte an action writes that it did not copy passes `newSecurityFinding` (scan-written.ts).
 */
import { parseEntryPath } from '../proposal/refs.js';
import type { ProposalItem } from '../proposal/schema.js';
import { maskSecrets, unmaskSecrets } from '../rules/security/secret.js';
import { storeChunks } from '../vault/hermes.js';
import type { Link, Vault, VaultFile } from '../vault/model.js';
import { HOLDING, type Overlay, type StoreEdits } from './compose.js';
import { emptyLineEdits, fileLinesNoCr, replaceBody, retargetLines, retargetLinks, type LineEdits } from './edits.js';
import { newSecurityFinding } from './scan-written.js';
import { currentEntry, Refusal, wholeText } from './validate.js';

type Action<T extends ProposalItem['action']['type']> = Extract<ProposalItem['action'], { type: T }>;

export function runAction(vault: Vault, item: ProposalItem, overlay: Overlay): void {
  const a = item.action;
  switch (a.type) {
    case 'keep':
      return;
    case 'merge':
      return merge(vault, a, overlay);
    case 'retire':
      return retire(vault, a, overlay);
    case 'relink':
      return relink(vault, a, overlay);
    case 'fix-index':
      return fixIndex(vault, a, overlay);
    case 'split-index':
      return splitIndex(vault, a, overlay);
  }
}

function merge(vault: Vault, a: Action<'merge'>, overlay: Overlay): void {
  if (a.retire.includes(a.into)) throw new Refusal(`merge into ${a.into} also retires it`);
  if (parseEntryPath(a.into)) {
    mergeEntries(vault, a.into, a.retire, a.body, overlay);
    return;
  }
  const into = note(vault, a.into);
  if (a.body !== undefined) {
    const sources = [a.into, ...a.retire].map((p) => note(vault, p).text);
    overlay.texts.set(
      a.into,
      mergedText(vault, a.body, sources, (body) => replaceBody(into, body)),
    );
  }
  const retired = new Set(a.retire);
  for (const p of a.retire) overlay.texts.set(p, null);
  editIndexLines(vault, overlay, retired, a.into);
  for (const other of vault.notes) {
    if (retired.has(other.path) || other.path === a.into) continue;
    const text = retargetLinks(other, (l) => l.resolved !== null && retired.has(l.resolved), a.into);
    if (text !== null) overlay.texts.set(other.path, text);
  }
}

function retire(vault: Vault, a: Action<'retire'>, overlay: Overlay): void {
  if (a.retire.every((p) => parseEntryPath(p))) {
    mergeEntries(vault, null, a.retire, undefined, overlay);
    if (a.to !== undefined) overlay.texts.set(a.to, archiveText(vault, a.to, a.retire));
    return;
  }
  if (a.to !== undefined) throw new Refusal('`to` (a store archive) is for retiring Hermes entries only');
  const retired = new Set(a.retire);
  for (const p of a.retire) overlay.texts.set(p, null);
  editIndexLines(vault, overlay, retired, null);
  for (const other of vault.notes) {
    if (retired.has(other.path)) continue;
    const still = other.links.filter((l) => l.resolved && retired.has(l.resolved));
    if (still.length)
      overlay.warnings.push(
        `${other.path} still links ${[...new Set(still.map((l) => l.resolved))].join(', ')} (line ${still[0]!.line})`,
      );
  }
}

/** A link's target without its #anchor or ?query: a link to the same file with one is a link to it too. */
const bareTarget = (l: Link): string => l.target.replace(/[?#].*$/, '');

/**
 * An index file's links (not mentions) by bare target and by resolved path, each list in file order, built once
 * per file: a relink item looks up its links instead of testing every link of the index (a proposal holds one
 * relink per broken index line, so testing them all was O(items × links)).
 */
const linksByName = new WeakMap<VaultFile, Map<string, Link[]>>();
function linksNamed(file: VaultFile, name: string): readonly Link[] {
  let m = linksByName.get(file);
  if (!m) {
    m = new Map();
    for (const l of file.links) {
      if (l.kind === 'mention') continue;
      const bare = bareTarget(l);
      for (const key of l.resolved === null || l.resolved === bare ? [bare] : [bare, l.resolved]) {
        const list = m.get(key);
        if (list) list.push(l);
        else m.set(key, [l]);
      }
    }
    linksByName.set(file, m);
  }
  return m.get(name) ?? [];
}

function relink(vault: Vault, a: Action<'relink'>, overlay: Overlay): void {
  const file = note(vault, a.file);
  const from = (l: Link): boolean => bareTarget(l) === a.from || l.resolved === a.from;
  if (file.role === 'index' || file.role === 'secondary-index') {
    const lines = retargetLines(file, from, a.to, linksNamed(file, a.from));
    if (lines.size === 0) throw new Refusal(`${a.file} has no link to ${a.from}`);
    for (const [line, text] of lines) editsFor(overlay, a.file).replace.set(line, text);
  } else {
    const text = retargetLinks(file, from, a.to);
    if (text === null) throw new Refusal(`${a.file} has no link to ${a.from}`);
    overlay.texts.set(a.file, text);
  }
}

function fixIndex(vault: Vault, a: Action<'fix-index'>, overlay: Overlay): void {
  const file = note(vault, a.file);
  const lines = fileLinesNoCr(file);
  const edits = editsFor(overlay, a.file);
  for (const r of a.remove) {
    const line = (lines[r.line - 1] ?? '').replace(/\r$/, '');
    // consolidate writes a line's credentials masked (maskSecrets): either form names the line.
    if (line !== r.text && maskSecrets(line) !== r.text)
      throw new Refusal(`${a.file} line ${r.line} no longer reads ${JSON.stringify(r.text)}`);
    edits.remove.add(r.line);
  }
  for (const l of a.add) {
    if (/\r|\n/.test(l)) throw new Refusal('a line to add holds a line break');
    const why = newSecurityFinding(l, [], vault.config, 'a line to add');
    if (why) throw new Refusal(why);
    edits.add.push(l);
  }
  for (const r of a.replace ?? []) {
    const line = (lines[r.line - 1] ?? '').replace(/\r$/, '');
    if (line !== r.text && maskSecrets(line) !== r.text)
      throw new Refusal(`${a.file} line ${r.line} no longer reads ${JSON.stringify(r.text)}`);
    if (/\r|\n/.test(r.with)) throw new Refusal('a replacement line holds a line break');
    // A masked credential in `with` is the one the line holds now: the file keeps its real bytes.
    const real = unmaskSecrets(r.with, line);
    if (real === null)
      throw new Refusal(
        `${a.file} line ${r.line}: a masked credential in the replacement stands for two different ones on the line`,
      );
    const why = newSecurityFinding(real, [line], vault.config, 'a replacement line');
    if (why) throw new Refusal(why);
    edits.replace.set(r.line, real);
  }
}

function splitIndex(vault: Vault, a: Action<'split-index'>, overlay: Overlay): void {
  // Each section moves, byte for byte, into a new note; one pointer line takes its place.
  const file = note(vault, a.file);
  const lines = fileLinesNoCr(file);
  const edits = editsFor(overlay, a.file);
  const eol = file.crlf ? '\r\n' : '\n';
  const created = new Map<string, string[]>();
  for (const m of a.moves) {
    // The lines as the file reads them: consolidate writes their credentials masked.
    const real = m.lines.map((text, i) => {
      const line = (lines[m.from - 1 + i] ?? '').replace(/\r$/, '');
      if (line !== text && maskSecrets(line) !== text)
        throw new Refusal(`${a.file} line ${m.from + i} no longer reads ${JSON.stringify(text)}`);
      return line;
    });
    // The pointer and front matter are consolidate's own words (titles masked): written as given.
    real.forEach((_, i) => {
      if (i === 0 && m.pointer) edits.replace.set(m.from, m.pointer);
      else edits.remove.add(m.from + i);
    });
    if (/\r|\n/.test(m.pointer)) throw new Refusal('a pointer line holds a line break');
    if (!a.moves.some((x) => x.note === m.note && x.pointer))
      throw new Refusal(`no pointer line names ${m.note}: it would be reachable from nowhere`);
    // Sections moved into one note follow each other there, a blank line apart.
    const parts = created.get(m.note) ?? [m.frontmatter];
    parts.push(`${parts.length > 1 ? eol : ''}${real.join(eol)}${eol}`);
    created.set(m.note, parts);
  }
  for (const [path, parts] of created) overlay.texts.set(path, parts.join(''));
}

export function describe(item: ProposalItem): string {
  const a = item.action;
  switch (a.type) {
    case 'merge':
      return parseEntryPath(a.into)
        ? `keep ${a.into}${a.body !== undefined ? ' with the merged text' : ''}; drop ${a.retire.join(', ')} (kept in ${HOLDING}/<run-id>/)`
        : `merge into ${a.into}${a.body !== undefined ? ' (with the merged body)' : ''}; retire ${a.retire.join(', ')}; links to them now point at ${a.into}`;
    case 'retire':
      return a.to !== undefined
        ? `move ${a.retire.join(', ')}, byte for byte, to the end of ${a.to} (also kept in ${HOLDING}/<run-id>/)`
        : `retire ${a.retire.join(', ')} to ${HOLDING}/<run-id>/ and drop their index lines`;
    case 'relink':
      return `${a.file}: links to ${a.from} now point at ${a.to}`;
    case 'fix-index':
      return `${a.file}: ${[
        a.remove.length ? `remove line${a.remove.length > 1 ? 's' : ''} ${a.remove.map((r) => r.line).join(', ')}` : '',
        a.replace?.length
          ? `rewrite line${a.replace.length > 1 ? 's' : ''} ${a.replace.map((r) => r.line).join(', ')}`
          : '',
        a.add.length ? `add ${a.add.length} line${a.add.length > 1 ? 's' : ''}` : '',
      ]
        .filter(Boolean)
        .join('; ')}`;
    case 'split-index': {
      const notes = [...new Set(a.moves.map((m) => m.note))];
      return `${a.file}: move ${a.moves.length} section${a.moves.length > 1 ? 's' : ''} (${a.moves.reduce((n, m) => n + m.lines.length, 0)} lines), byte for byte, into new note${notes.length > 1 ? 's' : ''} ${notes.join(', ')}; one pointer line per note`;
    }
    case 'keep':
      return 'keep as is';
  }
}

function note(vault: Vault, path: string): VaultFile {
  return wholeText(vault.byPath.get(path)!);
}

function indexFiles(vault: Vault): VaultFile[] {
  return [vault.index, ...vault.secondaryIndexes].filter((f): f is VaultFile => f !== null).map(wholeText);
}

function editsFor(overlay: Overlay, path: string): LineEdits {
  let e = overlay.index.get(path);
  if (!e) {
    e = emptyLineEdits();
    overlay.index.set(path, e);
  }
  return e;
}

/** Index lines that link any of `targets`: dropped, or pointed at `to` unless a line already links it. */
function editIndexLines(vault: Vault, overlay: Overlay, targets: ReadonlySet<string>, to: string | null): void {
  for (const index of indexFiles(vault)) {
    const hit = (l: Link): boolean => l.resolved !== null && targets.has(l.resolved);
    const lines = [...new Set(index.links.filter((l) => l.kind !== 'mention' && hit(l)).map((l) => l.line))].sort(
      (a, b) => a - b,
    );
    if (lines.length === 0) continue;
    const edits = editsFor(overlay, index.path);
    const retargeted = to === null ? new Map<number, string>() : retargetLines(index, hit, to);
    let pointed = to === null || index.links.some((l) => l.resolved === to);
    for (const line of lines) {
      if (pointed) {
        edits.remove.add(line);
        continue;
      }
      edits.replace.set(line, retargeted.get(line)!);
      pointed = true;
    }
  }
}

/** Hermes: drop the retired entries and, for a merge with a body, rewrite the kept one. */
function mergeEntries(
  vault: Vault,
  into: string | null,
  retire: readonly string[],
  body: string | undefined,
  overlay: Overlay,
): void {
  const edits = (file: string): StoreEdits => {
    let e = overlay.stores.get(file);
    if (!e) {
      e = { remove: new Set(), replace: new Map() };
      overlay.stores.set(file, e);
    }
    return e;
  };
  for (const p of retire) {
    const e = currentEntry(vault, p);
    if (!e) throw new Refusal(`${p} does not exist`);
    edits(e.file).remove.add(e.entry);
  }
  if (into && body !== undefined) {
    const target = currentEntry(vault, into)!;
    const merged = mergedText(
      vault,
      body,
      [into, ...retire].map((p) => currentEntry(vault, p)!.text),
    );
    if (merged.includes('\n§\n') || /^§$/m.test(merged)) throw new Refusal('the merged body holds a § separator line');
    edits(target.file).replace.set(target.entry, merged);
  }
}

/**
 * The text a merge writes: the merged body with each credential mask put back (the model that drafted it saw the
 * notes masked, review's judge), placed into the kept note by `place`. Refused when it carries a security finding
 * that none of the merged texts (`sources`) had.
 */
function mergedText(
  vault: Vault,
  body: string,
  sources: readonly string[],
  place: (body: string) => string = (b) => b,
): string {
  const real = unmaskSecrets(body, sources.join('\n'));
  if (real === null)
    throw new Refusal('a masked credential in the merged body stands for two different ones in the merged notes');
  const merged = place(real);
  const why = newSecurityFinding(merged, sources, vault.config, 'the merged body');
  if (why) throw new Refusal(why);
  return merged;
}

/**
 * A store's archive after entries move into it: each entry's bytes exactly as the store holds them,
 * appended after what the archive holds (every byte of which stays), `§` lines between them.
 */
function archiveText(vault: Vault, to: string, retire: readonly string[]): string {
  const existing = vault.byPath.get(to);
  if (vault.otherFiles.has(to))
    throw new Refusal(`${to} exists but is not a file memlint reads (ignored by the config?): it cannot be an archive`);
  if (existing && existing.role !== 'note' && existing.role !== 'secondary-index')
    throw new Refusal(`${to} is the ${existing.role}, not an archive`);
  if (existing) wholeText(existing);
  const entries = retire.map((p) => {
    const e = parseEntryPath(p)!;
    const store = vault.byPath.get(e.file)!;
    const chunk = storeChunks(store.text, store.bom).filter((c) => c.text !== '')[e.entry - 1]!;
    return { text: store.text.slice(chunk.entryStart, chunk.entryEnd), crlf: store.crlf };
  });
  const eol = entries[0]!.crlf ? '\r\n' : '\n';
  const body = entries.map((e) => e.text).join(`${eol}§${eol}`) + eol;
  if (!existing || existing.text === '') return body;
  return `${existing.text}${/\n$/.test(existing.text) ? '' : eol}§${eol}${body}`;
}
