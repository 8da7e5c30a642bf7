/** Small SVG pieces for the report: the index gauge and the link graph. Pure strings, escaped. */
import { maskSecrets } from '../rules/security/secret.js';
import type { Vault } from '../vault/model.js';

/** Escaped for HTML, with every credential masked (a report is read by people and shared). */
export const esc = (s: unknown): string =>
  maskSecrets(String(s)).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A horizontal gauge: the used share, the headroom mark and the cut line at the limit. */
export function gauge(label: string, used: number, limit: number, headroom: number, unit: string): string {
  const max = Math.max(limit * 1.25, used * 1.05);
  const w = 560;
  const x = (v: number): number => Math.round((v / max) * w);
  const over = used > limit;
  const color = over ? '#c62828' : used > limit * headroom ? '#ef8f00' : '#2e7d32';
  return `<svg class="gauge" role="img" aria-label="${esc(`${label}: ${used} of ${limit} ${unit}`)}" width="${w + 20}" height="54" viewBox="0 0 ${w + 20} 54">
<rect x="10" y="14" width="${w}" height="18" fill="#eee" rx="3"/>
<rect x="10" y="14" width="${x(Math.min(used, max))}" height="18" fill="${color}" rx="3"/>
<line x1="${10 + x(limit * headroom)}" y1="10" x2="${10 + x(limit * headroom)}" y2="36" stroke="#ef8f00" stroke-dasharray="3 2"/>
<line class="cut" x1="${10 + x(limit)}" y1="6" x2="${10 + x(limit)}" y2="40" stroke="#c62828" stroke-width="2"/>
<text x="${10 + x(limit)}" y="52" font-size="11" text-anchor="middle" fill="#c62828">cut: ${limit.toLocaleString('en')} ${esc(unit)}</text>
<text x="12" y="10" font-size="11">${esc(label)}: ${used.toLocaleString('en')} ${esc(unit)}${over ? ' — over budget' : ''}</text>
</svg>`;
}

/** Notes on a circle, links as lines; orphans and dangling targets in red. */
export function linkGraph(vault: Vault, orphans: ReadonlySet<string>, limit = 300): string {
  const notes = vault.notes.slice(0, limit);
  const roots = [vault.index, vault.catalog, ...vault.secondaryIndexes].filter((f) => f !== null);
  const nodes = [...roots.map((f) => f!.path), ...notes.map((n) => n.path)];
  const dangling = new Set<string>();
  for (const f of [...roots, ...notes])
    for (const l of f!.links) if (l.resolution === 'missing') dangling.add(l.target);
  const all = [...nodes, ...[...dangling].slice(0, 50).map((t) => `missing:${t}`)];
  const size = 620;
  const r = size / 2 - 70;
  const pos = new Map(
    all.map((p, i) => {
      const a = (2 * Math.PI * i) / Math.max(1, all.length);
      return [p, { x: size / 2 + r * Math.cos(a), y: size / 2 + r * Math.sin(a) }] as const;
    }),
  );
  pos.set(vault.index?.path ?? '', { x: size / 2, y: size / 2 });
  const edges: string[] = [];
  for (const f of [...roots, ...notes]) {
    const from = pos.get(f!.path);
    if (!from) continue;
    for (const l of f!.links) {
      const key = l.resolved ?? (l.resolution === 'missing' ? `missing:${l.target}` : null);
      const to = key ? pos.get(key) : undefined;
      if (!to || key === f!.path) continue;
      const bad = l.resolution === 'missing';
      edges.push(
        `<line x1="${from.x.toFixed(1)}" y1="${from.y.toFixed(1)}" x2="${to.x.toFixed(1)}" y2="${to.y.toFixed(1)}" stroke="${bad ? '#c62828' : '#9aa5b1'}" stroke-width="${bad ? 1.5 : 0.6}"${bad ? ' stroke-dasharray="4 2" class="dangling"' : ''}/>`,
      );
    }
  }
  const dots = all.map((p) => {
    const { x, y } = pos.get(p)!;
    const isRoot = roots.some((f) => f!.path === p);
    const missing = p.startsWith('missing:');
    const orphan = orphans.has(p);
    const fill = missing ? '#fff' : isRoot ? '#1565c0' : orphan ? '#c62828' : '#607d8b';
    const label =
      all.length <= 60
        ? `<text x="${(x + 6).toFixed(1)}" y="${(y + 3).toFixed(1)}" font-size="9" fill="#52606d">${esc((missing ? p.slice(8) : p).replace(/\.md$/, '').slice(0, 28))}</text>`
        : '';
    return `${label}<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${isRoot ? 7 : 4}" fill="${fill}" stroke="${missing ? '#c62828' : 'none'}" class="${orphan ? 'orphan' : missing ? 'missing' : 'node'}"><title>${esc(missing ? `missing: ${p.slice(8)}` : p)}${orphan ? ' (orphan)' : ''}</title></circle>`;
  });
  const legend = `<text x="8" y="16" font-size="11"><tspan fill="#1565c0">● index and catalog</tspan>  <tspan fill="#607d8b">● note</tspan>  <tspan fill="#c62828">● orphan  ○ missing (dangling link)</tspan></text>`;
  return `<svg id="graph" role="img" aria-label="link graph" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">${legend}${edges.join('')}${dots.join('')}</svg>${vault.notes.length > limit ? `<p class="muted">Showing ${limit} of ${vault.notes.length} notes.</p>` : ''}`;
}
