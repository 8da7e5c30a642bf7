/**
 * For the orphans stage: which unreachable notes say, in their own text, that they are not standing
 * memory (finished, a hand-off for the next session, a working log, a verbatim dialogue, a temporary
 * directive, an undecided idea), and the index line for the others, written the way the vault's
 * index already writes its lines. Measured against an independent reader's labels of the corpus
 * (docs/proposal-precision.md): the index lines that reader rejected were for such notes.
 */
import { escapeText, linkTarget } from '../../catalog/build.js';
import type { Vault, VaultFile } from '../../vault/model.js';
import { cutAtWord } from './index-overflow.js';

/** Words a done item carries (a queue whose every item carries one is finished). */
const DONE = /\b(?:DONE|COMPLETED?|CLOSED|SHIPPED|FIXED|RESOLVED|HISTORICAL|MERGED)\b|✅|✔|\[[xX]\]|^~~.*~~$/;
const ITEM = /^\s*(?:#{2,6}\s+\d+[a-z-]*[.)]?\s|(?:[-*+]|\d{1,3}[.)])\s+\[[ xX]\]\s)/;
const STATUS =
  /^\s*(?:[-*>]\s*)?(?:#{1,6}\s*)?(?:\*\*)?status(?:\*\*)?\s*[:：]\s*(?:\*\*)?\s*(done|complete[d]?|closed|finished|shipped|resolved|merged|archived|superseded|obsolete|deprecated|abandoned|cancell?ed)\b/im;
/** In the note's name, description or first lines only: a body may well mention these words in passing. */
const HEAD_SIGNALS: readonly [RegExp, (m: RegExpExecArray) => string][] = [
  [
    /\b(next session|start here|resume (?:from )?here|pick up (?:from )?here)\b/i,
    (m) => `it is a hand-off for a next session ("${m[1]}"), not standing memory`,
  ],
  [
    /\b(auto-?updated? progress|progress log|working log|work log|scratch ?pad)\b/i,
    (m) => `it is a working log ("${m[1]}")`,
  ],
  [
    /\bverbatim\b[^.\n]{0,40}\b(dialogue|dialog|conversation|transcript)\b|\b(?:dialogue|transcript) dump\b/i,
    () => 'it is a verbatim dialogue kept for a report, not a fact to load',
  ],
  [/\b(one-?off|one-?time|throwaway|temporary)\b/i, (m) => `it calls itself ${m[1]!.toLowerCase()}`],
  [
    /\b(superseded|obsolete|deprecated|no longer (?:used|valid|applies|relevant|true))\b/i,
    (m) => `it says it is ${m[1]!.toLowerCase()}`,
  ],
  [/\b(not (?:yet )?decided|undecided)\b/i, () => 'it records an idea not yet decided'],
];
/** A directive that lasts "until" something: a person checks the condition before the index loads it. */
const UNTIL = /(?:^|[.!?]\s+)(until\b[^,.;\n]{3,80})[,;]/i;
const HEAD_LINES = 25;

/** Why the note's own text says it is not standing memory, or null. */
export function notStanding(note: VaultFile): string | null {
  const body = note.text.slice(note.bodyOffset);
  const lines = body.split('\n').map((l) => l.replace(/\r$/, ''));
  const head = [
    note.meta.name ?? '',
    note.meta.description ?? '',
    ...lines.filter((l) => l.trim() !== '').slice(0, HEAD_LINES),
  ].join('\n');
  const status =
    STATUS.exec(head) ?? STATUS.exec(String(note.frontmatter?.data?.status ?? '').replace(/^/, 'status: '));
  if (status) return `its status says "${status[1]}"`;
  const items = lines.filter((l) => ITEM.test(l));
  if (items.length >= 2 && items.every((l) => DONE.test(l)))
    return `every item of its list (${items.length}) is marked done`;
  for (const [re, why] of HEAD_SIGNALS) {
    const m = re.exec(head);
    if (m) return why(m);
  }
  const until =
    UNTIL.exec(note.meta.description ?? '') ??
    UNTIL.exec(
      lines
        .filter((l) => l.trim() !== '' && !l.startsWith('#'))
        .slice(0, 3)
        .join(' '),
    );
  if (until)
    return `it is a directive that lasts "${cutAtWord(until[1]!, 60, ' ', '…')}": check that still holds before the index loads it`;
  return null;
}

interface Style {
  readonly bullet: string;
  readonly label: 'file' | 'stem' | 'name' | 'title';
  readonly dotSlash: boolean;
  readonly sep: string;
  /** Descriptions longer than this are cut at a word (the longest of the index's own, at most a few hundred). */
  readonly maxDescription: number;
}

const DEFAULT_STYLE: Style = { bullet: '- ', label: 'name', dotSlash: false, sep: ' — ', maxDescription: 200 };
const MD_LINK = /^\[((?:\\.|[^\]\\])*)\]\((<[^>]*>|[^)\s]*)(?:\s+"[^"]*")?\)/;
const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();
const top = <T>(counts: Map<T, number>, dflt: T): T => [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? dflt;
const bump = <T>(m: Map<T, number>, k: T): void => {
  m.set(k, (m.get(k) ?? 0) + 1);
};

/** How the index writes a line for one note: bullet, link label, `./`, separator, description length. */
function indexStyle(vault: Vault): Style {
  const index = vault.index;
  if (!index) return DEFAULT_STYLE;
  const lines = index.text.split('\n');
  const perLine = new Map<number, number>();
  for (const l of index.links)
    if (l.kind === 'markdown' && l.resolved && vault.byPath.get(l.resolved)?.role === 'note') bump(perLine, l.line);
  const bullets = new Map<string, number>();
  const labels = new Map<Style['label'], number>();
  const dot = new Map<boolean, number>();
  const seps = new Map<string, number>();
  const lengths: number[] = [];
  for (const l of index.links) {
    if (l.kind !== 'markdown' || !l.resolved || perLine.get(l.line) !== 1) continue;
    const note = vault.byPath.get(l.resolved);
    if (note?.role !== 'note') continue;
    const text = (lines[l.line - 1] ?? '').replace(/\r$/, '');
    const at = l.column - 1;
    const m = MD_LINK.exec(text.slice(at));
    if (!m) continue;
    const prefix = text.slice(0, at);
    const bullet = /^\s*([-*+])\s+$/.exec(prefix);
    bump(bullets, bullet ? `${bullet[1]} ` : prefix === '' ? '' : '?');
    const label = m[1]!.replace(/\\(.)/g, '$1');
    const base = note.path.slice(note.path.lastIndexOf('/') + 1);
    bump(
      labels,
      label === base || label === note.path
        ? 'file'
        : label === note.meta.name
          ? 'name'
          : label === note.stem
            ? 'stem'
            : 'title',
    );
    bump(dot, m[2]!.replace(/^</, '').startsWith('./'));
    const rest = text.slice(at + m[0].length);
    const sep = /^\s*([—–-]+|[:：])\s*(?=\S)/.exec(rest);
    if (sep) {
      bump(seps, /[:：]/.test(sep[1]!) ? `${sep[1]} ` : ` ${sep[1]} `);
      lengths.push(rest.length - sep[0].length);
    }
  }
  if (labels.size === 0) return DEFAULT_STYLE;
  lengths.sort((a, b) => a - b);
  const p90 = lengths.length
    ? lengths[Math.min(lengths.length - 1, Math.floor(lengths.length * 0.9))]!
    : DEFAULT_STYLE.maxDescription;
  const bullet = top(bullets, '- ');
  return {
    bullet: bullet === '?' ? '- ' : bullet,
    label: top(labels, 'name'),
    dotSlash: top(dot, false),
    sep: top(seps, ' — '),
    maxDescription: Math.max(80, Math.min(300, p90)),
  };
}

/** A title for a note: its name when that reads as words, else its first `#` heading, else its name or file stem in words. */
function noteTitle(note: VaultFile): string {
  const name = oneLine(note.meta.name ?? '');
  if (name && /\s/.test(name)) return name;
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(note.text.slice(note.bodyOffset))?.[1];
  if (heading) return oneLine(heading);
  const words = (name || note.stem).replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The note's hook: its description, else the first line of its body that is prose. */
function hook(note: VaultFile): string {
  const d = oneLine(note.meta.description ?? '');
  if (d) return d;
  for (const raw of note.text.slice(note.bodyOffset).split('\n')) {
    const l = raw.trim();
    if (!l || /^(#|```|~~~|\||---|<!--)/.test(l)) continue;
    return oneLine(l.replace(/^(?:[-*+]|\d{1,3}[.)])\s+/, ''));
  }
  return '';
}

/** The index line for each note, in the style the vault's index uses for its own lines. */
export function indexLineWriter(vault: Vault): (note: VaultFile) => string {
  const s = indexStyle(vault);
  return (note) => {
    const base = note.path.slice(note.path.lastIndexOf('/') + 1);
    const label =
      s.label === 'file'
        ? note.path.includes('/')
          ? note.path
          : base
        : s.label === 'stem'
          ? note.stem
          : s.label === 'name'
            ? oneLine(note.meta.name ?? '') || noteTitle(note)
            : noteTitle(note);
    const target = linkTarget(s.dotSlash && !note.path.startsWith('.') ? `./${note.path}` : note.path);
    const h = cutAtWord(hook(note), s.maxDescription, ' ', '…');
    return `${s.bullet}[${escapeText(label)}](${target})${h ? `${s.sep}${h}` : ''}`;
  };
}
