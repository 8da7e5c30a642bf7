// Renders a real `memlint review` session to docs/review-session.png: the session runs in tmux on a
// copy of the demo vault, the pane is captured with its colours, and ImageMagick draws it.
// Needs tmux and ImageMagick (apt-get install imagemagick). Usage: node scripts/review-screenshot.mjs [KEYS]
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const keys = process.argv[2] ?? 's';
const convert = process.env.CONVERT ?? '/usr/bin/convert';
const dir = mkdtempSync(join(tmpdir(), 'memlint-shot-'));
const vault = join(dir, 'memory');
cpSync('fixtures/demo-vault', vault, { recursive: true });
const cli = resolve('dist/cli.js');
const proposal = join(dir, 'proposal.yaml');
execFileSync(process.execPath, [cli, 'consolidate', vault, '--out', proposal], { stdio: 'ignore' });
const bin = join(dir, 'bin');
mkdirSync(bin);
symlinkSync(cli, join(bin, 'memlint'));
const session = `memlint-shot-${process.pid}`;
const [cols, rows] = [112, 46];
const tmux = (...a) => execFileSync('tmux', a, { encoding: 'utf8' });
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
tmux(
  'new-session',
  '-d',
  '-s',
  session,
  '-x',
  String(cols),
  '-y',
  String(rows),
  '-e',
  'TERM=xterm-256color',
  `cd ${dir} && PATH=${bin}:$PATH PS1='$ ' sh`,
);
try {
  tmux('send-keys', '-t', session, 'memlint review proposal.yaml', 'Enter');
  sleep(2500);
  for (const k of keys) {
    tmux('send-keys', '-t', session, k);
    sleep(700);
  }
  const pane = tmux('capture-pane', '-t', session, '-p', '-e');
  writeFileSync(join(dir, 'pane.txt'), pane);
  render(pane.replaceAll(dir, '/home/u/project').split('\n').slice(0, rows), 'docs/review-session.png');
} finally {
  tmux('kill-session', '-t', session);
}

function render(lines, out) {
  const COLORS = { 31: '#f47067', 32: '#57ab5a', 33: '#c69026', 36: '#39c5cf', 90: '#768390' };
  const [cw, lh, pad] = [8.43, 18, 14];
  const mvg = [];
  // tmux writes an attribute only where it changes: the state carries over from line to line.
  let fg = '#d0d7de',
    bold = false,
    dim = false;
  lines.forEach((line, row) => {
    let col = 0;
    for (const part of line.split(/(\u001b\[[0-9;]*m)/)) {
      const sgr = /^\u001b\[([0-9;]*)m$/.exec(part);
      if (sgr) {
        for (const c of (sgr[1] || '0').split(';').map(Number)) {
          if (c === 0) {
            fg = '#d0d7de';
            bold = false;
            dim = false;
          } else if (c === 1) bold = true;
          else if (c === 2) dim = true;
          else if (c === 22) {
            bold = false;
            dim = false;
          } else if (c === 39) fg = '#d0d7de';
          else if (COLORS[c]) fg = COLORS[c];
        }
        continue;
      }
      if (!part) continue;
      const text = part.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
      mvg.push(
        `font '${bold ? 'DejaVu-Sans-Mono-Bold' : 'DejaVu-Sans-Mono'}'`,
        `fill '${dim ? '#768390' : fg}'`,
        `text ${(pad + col * cw).toFixed(1)},${pad + (row + 1) * lh - 4} '${text}'`,
      );
      col += [...part].length;
    }
  });
  const file = join(dir, 'pane.mvg');
  writeFileSync(file, mvg.join('\n'));
  execFileSync(convert, [
    '-size',
    `${Math.ceil(cols * cw + 2 * pad)}x${rows * lh + 2 * pad}`,
    'xc:#22272e',
    '-pointsize',
    '14',
    '-draw',
    `@${file}`,
    out,
  ]);
  console.log(`wrote ${out}`);
}
