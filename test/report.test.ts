/** The HTML report in a real browser: Debian's Chromium through playwright-core (never downloaded). */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { copyToTemp, runBin, tempDir } from './helpers/run.js';
import { approveAll, proposeInto } from './helpers/proposal.js';
import { missing } from './helpers/ci.js';

const DEMO = join(process.cwd(), 'fixtures', 'demo-vault');
const CHROMIUM = '/usr/bin/chromium';

describe('report --html', () => {
  it('writes one self-contained file that loads nothing from the network and escapes note text', () => {
    const vault = copyToTemp(DEMO);
    // A note that tries to inject markup into the report.
    writeFileSync(
      join(vault, 'MEMORY.md'),
      `${readFileSync(join(vault, 'MEMORY.md'), 'utf8')}- <script>alert(1)</script> [x](x.md)\n`,
    );
    // Into the note the merge keeps: a retired note must be the smaller side, or the merge would drop its text.
    const dup = join(vault, 'feedback_use-pnpm.md');
    writeFileSync(dup, `${readFileSync(dup, 'utf8')}\n<img src=x onerror=alert(2)>\n`);
    const out = join(tempDir(), 'report.html');
    const r = runBin(['report', vault, '--html', out]);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('Content-Security-Policy" content="default-src \'none\'');
    expect(html).not.toMatch(/<script|<img|src="http|href="http/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;'); // the index line past the cut
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;'); // the duplicate's body in the diff
  });

  it("labels the index's size gauge in the unit it is measured in (UTF-16 units by default, bytes with index.measure: utf8)", () => {
    const vault = copyToTemp(DEMO);
    const out = join(tempDir(), 'report.html');
    expect(runBin(['report', vault, '--html', out]).code).toBe(0);
    const utf16 = readFileSync(out, 'utf8');
    expect(utf16).toMatch(/aria-label="size: [\d,]+ of 25000 UTF-16 units"/);
    expect(utf16).not.toMatch(/aria-label="bytes:/);
    writeFileSync(join(vault, '.memlintrc.json'), JSON.stringify({ index: { measure: 'utf8' } }));
    expect(runBin(['report', vault, '--html', out]).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/aria-label="size: [\d,]+ of 25000 bytes"/);
  });

  it.skipIf(missing(existsSync(CHROMIUM), `Chromium (${CHROMIUM}; .ci/run installs Debian's)`))(
    'renders in headless Chromium without console errors: gauge, diff, graph; screenshot saved',
    async () => {
      const vault = copyToTemp(DEMO);
      const proposal = proposeInto(vault, join(vault, '..', 'p.yaml'));
      approveAll(proposal);
      const out = join(tempDir(), 'report.html');
      expect(runBin(['report', proposal, '--html', out]).code).toBe(0);
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
        const errors: string[] = [];
        const requests: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(m.text());
        });
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('request', (req) => {
          if (!req.url().startsWith('file:')) requests.push(req.url());
        });
        await page.goto(pathToFileURL(out).href);
        expect(await page.locator('#gauge svg.gauge').count()).toBe(2);
        expect(await page.locator('#gauge line.cut').count()).toBe(2);
        expect(await page.locator('#lost tr').count()).toBeGreaterThan(0);
        expect(await page.locator('.diff del, .diff ins').count()).toBeGreaterThan(0);
        expect(await page.locator('.contra mark').count()).toBeGreaterThanOrEqual(2);
        expect(await page.locator('#graph circle.orphan').count()).toBeGreaterThan(0);
        expect(await page.locator('#graph line.dangling').count()).toBeGreaterThan(0);
        expect(await page.locator('.pill.approve').count()).toBeGreaterThan(0);
        mkdirSync('test-artifacts', { recursive: true });
        await page.screenshot({ path: join('test-artifacts', 'report.png'), fullPage: true });
        expect(errors).toEqual([]);
        expect(requests).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
