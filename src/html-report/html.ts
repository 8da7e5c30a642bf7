/**
 * `memlint report --html`: one self-contained file (inline CSS and SVG, a Content-Security-Policy
 * that forbids every network load) a person would rather look at than read. Notes are untrusted:
 * every piece of their text is escaped.
 */
import { diffLines } from 'diff';
import { maskSecrets } from '../rules/security/secret.js';
import type { CheckResult } from '../check.js';
import type { InfoItem, Proposal, ProposalItem } from '../proposal/schema.js';
import { unitName } from '../rules/index/over-budget.js';
import { notesUnderRules, reachability } from '../rules/reachability.js';
import type { Vault } from '../vault/model.js';
import { VERSION } from '../version.js';
import { esc, gauge, linkGraph } from './svg.js';

const CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:24px;color:#1f2933}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d9dee3;padding-bottom:4px}
.muted{color:#616e7c}.pill{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;margin-right:4px}
.error{background:#fde8e8;color:#9b1c1c}.warning{background:#fdf6b2;color:#723b13}.info{background:#e1effe;color:#1e429f}
.approve{background:#def7ec;color:#03543f}.reject{background:#fde8e8;color:#9b1c1c}.pending{background:#f3f4f6;color:#374151}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #eef0f2;padding:4px 6px;text-align:left;vertical-align:top}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
.diff{display:grid;grid-template-columns:1fr 1fr;gap:8px}.diff pre{background:#f8fafc;border:1px solid #e5e7eb;padding:8px;white-space:pre-wrap;margin:0}
.diff del{background:#fde8e8;text-decoration:none}.diff ins{background:#def7ec;text-decoration:none}
.item{border:1px solid #e5e7eb;border-radius:6px;padding:10px 12px;margin:10px 0;break-inside:avoid}
mark{background:#fff3bf}
@media print{body{max-width:none;padding:0}.item{page-break-inside:avoid}a{color:inherit}}
`;

function findingsByRule(result: CheckResult): string {
  const by = new Map<string, CheckResult['findings'][number][]>();
  for (const f of result.findings) by.set(f.ruleId, [...(by.get(f.ruleId) ?? []), f]);
  if (by.size === 0) return '<p>No findings.</p>';
  const rows = [...by]
    .sort((a, b) => b[1].length - a[1].length)
    .map(
      ([rule, fs]) =>
        `<tr><td><code>${esc(rule)}</code></td><td><span class="pill ${esc(fs[0]!.severity)}">${esc(fs[0]!.severity)}</span></td><td>${fs.length}</td><td>${fs
          .slice(0, 8)
          .map((f) => `<div><code>${esc(f.file)}:${f.line}:${f.column}</code> ${esc(f.message)}</div>`)
          .join('')}${fs.length > 8 ? `<div class="muted">… and ${fs.length - 8} more</div>` : ''}</td></tr>`,
    );
  return `<table id="findings"><thead><tr><th>rule</th><th>severity</th><th>count</th><th>where</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function indexSection(vault: Vault): string {
  const info = vault.indexInfo;
  if (!info)
    return vault.kind === 'hermes'
      ? vault.stores
          .map((s) => gauge(`${s.file} characters`, s.chars, s.maxChars, vault.config.hermes.nearBudget, 'characters'))
          .join('')
      : '<p>No index file.</p>';
  const lost = info.lostEntries.length
    ? `<p><strong>${info.lostEntries.length} entries past the cut are never loaded:</strong></p><table id="lost">${info.lostEntries.map((e) => `<tr><td>line ${e.line}</td><td>${esc(e.text)}</td><td><code>${esc(e.target ?? '—')}</code></td></tr>`).join('')}</table>`
    : '<p>Every index entry is loaded.</p>';
  return `<div id="gauge">${gauge('lines', info.lines, info.maxLines, vault.config.index.headroom, 'lines')}${gauge('size', info.bytes, info.maxBytes, vault.config.index.headroom, unitName(info.measure))}</div><p class="muted">The harness loads ${info.loadedLines} of ${info.lines} lines.</p>${lost}`;
}

function bodyOf(vault: Vault, path: string): string {
  const f = vault.byPath.get(path);
  return f ? f.text.slice(f.bodyOffset).trim() : '(missing)';
}

function sideBySide(left: string, right: string): string {
  // Masked before the diff: a secret split across changed and unchanged parts is still masked whole.
  const parts = diffLines(maskSecrets(left), maskSecrets(right));
  const l = parts
    .filter((p) => !p.added)
    .map((p) => (p.removed ? `<del>${esc(p.value)}</del>` : esc(p.value)))
    .join('');
  const r = parts
    .filter((p) => !p.removed)
    .map((p) => (p.added ? `<ins>${esc(p.value)}</ins>` : esc(p.value)))
    .join('');
  return `<div class="diff"><pre>${l}</pre><pre>${r}</pre></div>`;
}

type Shown = ProposalItem | InfoItem;
const isInfo = (i: Shown): i is InfoItem => 'why' in i;

function decisionPill(item: Shown): string {
  if (isInfo(item)) return `<span class="pill info" title="${esc(item.why)}">info, not proposed</span>`;
  const judge = item.judge
    ? ` <span class="pill info">model: ${esc(item.judge.verdict)}</span> <span class="muted">${esc(item.judge.reason)}</span>`
    : '';
  return `<span class="pill ${esc(item.decision)}">${esc(item.decision)}</span>${judge}`;
}

function itemsSection(vault: Vault, proposal: Proposal): string {
  const out: string[] = [];
  // Info items (kinds below the precision a proposal needs) are shown with their kind, marked "info".
  const all: Shown[] = [...proposal.items, ...(proposal.info ?? [])];
  const dups = all.filter((i) => i.kind === 'near-duplicate');
  out.push(`<h2>Near-duplicates (${dups.length})</h2>`);
  for (const i of dups) {
    const [keep, ...others] = i.notes.map((n) => n.path);
    out.push(
      `<div class="item dup"><div><strong>${esc(i.id)}</strong> ${decisionPill(i)} similarity ${esc((i.evidence as { similarity?: number }).similarity ?? '')}</div>`,
    );
    for (const o of others)
      out.push(
        `<p><code>${esc(keep!)}</code> ↔ <code>${esc(o)}</code></p>${sideBySide(bodyOf(vault, keep!), bodyOf(vault, o))}`,
      );
    out.push('</div>');
  }
  const contra = all.filter((i) => i.kind === 'contradiction');
  out.push(`<h2>Contradictions (${contra.length})</h2>`);
  for (const i of contra) {
    const conflicts =
      (
        i.evidence as {
          conflicts?: {
            kind: string;
            detail: string;
            a: { text: string; line: number };
            b: { text: string; line: number };
          }[];
        }
      ).conflicts ?? [];
    out.push(
      `<div class="item contra"><div><strong>${esc(i.id)}</strong> ${decisionPill(i)}</div>${conflicts.map((c) => `<p class="muted">${esc(c.kind)}: ${esc(c.detail)}</p><table><tr><td><code>${esc(i.notes[0]!.path)}:${c.a.line}</code></td><td><mark>${esc(c.a.text)}</mark></td></tr><tr><td><code>${esc(i.notes[1]?.path ?? '')}:${c.b.line}</code></td><td><mark>${esc(c.b.text)}</mark></td></tr></table>`).join('')}</div>`,
    );
  }
  const rest = proposal.items.filter((i) => i.kind !== 'near-duplicate' && i.kind !== 'contradiction');
  const restInfo = (proposal.info ?? []).filter((i) => i.kind !== 'near-duplicate' && i.kind !== 'contradiction');
  out.push(
    `<h2>Other proposed changes (${rest.length})</h2><table id="items">${rest.map((i) => `<tr><td><strong>${esc(i.id)}</strong></td><td>${esc(i.kind)}</td><td>${i.notes.map((n) => `<code>${esc(n.path)}</code>`).join(' ')}</td><td>${esc(i.suggestion)} → ${esc(i.action.type)}</td><td>${decisionPill(i)}</td></tr>`).join('')}</table>`,
  );
  if (restInfo.length)
    out.push(
      `<h2>Shown for information, not proposed (${restInfo.length})</h2><p class="muted">These cannot be approved as they stand: their kind measured below the precision a proposal needs, or a person must decide (the reason is on each row).</p><table id="info">${restInfo.map((i) => `<tr><td><strong>${esc(i.id)}</strong></td><td>${esc(i.kind)}</td><td>${i.notes.map((n) => `<code>${esc(n.path)}</code>`).join(' ')}</td><td>${esc(i.suggestion)}</td><td class="muted">${esc(i.why)}</td></tr>`).join('')}</table>`,
    );
  return out.join('\n');
}

export function renderReport(result: CheckResult, proposal: Proposal, source: string): string {
  const { vault, summary } = result;
  // The same notes note/orphan reports (files without front matter among notes are not notes).
  const orphans = new Set(
    notesUnderRules(vault)
      .map((n) => n.path)
      .filter((p) => !reachability(vault).mentioned.has(p)),
  );
  const decided = proposal.items.filter((i) => i.decision !== 'pending').length;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>memlint report — ${esc(vault.root)}</title><style>${CSS}</style></head>
<body>
<h1>memlint report</h1>
<p class="muted">${esc(vault.kind)} vault <code>${esc(vault.root)}</code> · ${summary.notes} notes · from ${esc(source)} · memlint ${esc(VERSION)}</p>
<p><span class="pill error">${summary.errors} errors</span><span class="pill warning">${summary.warnings} warnings</span><span class="pill info">${summary.infos} info</span> · ${proposal.items.length} proposed changes, ${decided} decided${proposal.info?.length ? `, ${proposal.info.length} shown for information` : ''}</p>
<h2>Index budget</h2>${indexSection(vault)}
<h2>Findings by rule</h2>${findingsByRule(result)}
${itemsSection(vault, proposal)}
<h2>Link graph</h2><p class="muted">${orphans.size} orphans (red); dashed red lines are links to notes that do not exist.</p>${linkGraph(vault, orphans)}
</body></html>
`;
}
