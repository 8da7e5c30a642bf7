/**
 * `decodeMany` (src/vault/decode.ts): many files' texts decoded in groups, each a slice of its group's text. Each
 * text it gives is exactly `decodeBytes`' text of the same bytes, and it gives one for every file that decodes
 * without a problem and holds no BOM and no NUL; `loadVault` reads a vault so.
 */
import fc from 'fast-check';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECODE_GROUP, decodeBytes, decodeMany } from '../src/vault/decode.js';
import { loadVault } from '../src/vault/load.js';
import { parseMarkdown } from '../src/vault/file.js';
import { defaultConfig } from '../src/config/schema.js';
import type { Vault } from '../src/vault/model.js';
import v8 from 'node:v8';
import vm from 'node:vm';

const enc = new TextEncoder();
const eligible = (b: Uint8Array): boolean => {
  const d = decodeBytes(b);
  return d.problem === null && !d.bom && !b.includes(0) && !b.includes(1) && b.length <= DECODE_GROUP >> 2;
};

describe('decodeMany', () => {
  const piece = fc.oneof(
    fc.constantFrom('a', 'line\n', '\r\n', '語', 'é', '—', '😀', '\uFEFF', ' '),
    fc.constantFrom(
      new Uint8Array([0xef, 0xbb, 0xbf]), // a BOM
      new Uint8Array([0]), // a NUL
      new Uint8Array([1]), // the separator
      new Uint8Array([0xff]), // invalid
      new Uint8Array([0xe8, 0xaa]), // a cut sequence
      new Uint8Array([0xed, 0xa0, 0x80]), // a surrogate
      new Uint8Array([0xc0, 0xaf]), // overlong
    ),
  );
  const file = fc
    .array(piece, { maxLength: 30 })
    .map((ps) => Buffer.concat(ps.map((p) => (typeof p === 'string' ? enc.encode(p) : p))));

  it('gives decodeBytes’ text for every file without a problem, BOM, NUL or U+0001, and nothing for the others', () => {
    fc.assert(
      fc.property(fc.array(file, { maxLength: 40 }), (files) => {
        const texts = decodeMany(files);
        files.forEach((b, k) => {
          if (eligible(b)) expect(texts[k]).toBe(decodeBytes(b).text);
          else expect(texts[k]).toBeUndefined();
        });
      }),
      { numRuns: 2000 },
    );
  });

  it('groups past one group’s bytes, a large file alone', () => {
    const files: Uint8Array[] = [];
    for (let k = 0; k < 1200; k++) {
      const line = k % 2 === 0 ? `note ${k} 語 — ` : `note ${k} plain `;
      files.push(enc.encode(line.repeat(1 + ((k * 37) % 400))));
    }
    files.splice(5, 0, enc.encode('x'.repeat(DECODE_GROUP >> 1)), new Uint8Array(0));
    expect(files.reduce((s, b) => s + b.length, 0)).toBeGreaterThan(4 * DECODE_GROUP);
    const texts = decodeMany(files);
    files.forEach((b, k) => {
      if (b.length > DECODE_GROUP >> 2) expect(texts[k]).toBeUndefined();
      else expect(texts[k]).toBe(decodeBytes(b).text);
    });
  });
});

describe('loadVault reads texts decoded in groups as parseMarkdown reads each file', () => {
  it('the same text, BOM, problem and CRLF for every file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'memlint-decode-many-'));
    mkdirSync(join(dir, 'notes'));
    const bodies: [string, Uint8Array][] = [
      ['MEMORY.md', enc.encode('# Memory\n- [a](notes/a.md) — 語\n')],
      ['notes/a.md', enc.encode('---\nname: a\n---\nplain [[b]]\n')],
      ['notes/b.md', enc.encode('---\nname: b\n---\r\nwith crlf\r\n語 [[a]]\r\n')],
      ['notes/bom.md', Buffer.concat([new Uint8Array([0xef, 0xbb, 0xbf]), enc.encode('bom [[a]]\n')])],
      ['notes/bad.md', Buffer.concat([enc.encode('bad '), new Uint8Array([0xff]), enc.encode(' [[a]]\n')])],
      ['notes/nul.md', Buffer.concat([enc.encode('nul '), new Uint8Array([0]), enc.encode('\n')])],
      ['notes/empty.md', new Uint8Array(0)],
    ];
    for (let k = 0; k < 300; k++)
      bodies.push([`notes/n${k}.md`, enc.encode(`note ${k} ${k % 2 ? '語' : ''}\n`.repeat(k * 20))]);
    for (const [p, b] of bodies) writeFileSync(join(dir, p), b);
    const vault = loadVault(dir, { config: defaultConfig() });
    expect(vault.files.length).toBe(bodies.length);
    for (const f of vault.files) {
      const alone = parseMarkdown(
        f.path,
        f.absPath,
        f.role,
        f.bytes,
        { size: f.size, mtimeMs: f.mtimeMs, mode: f.mode },
        1 << 30,
      );
      expect([f.path, f.text, f.bom, f.problem, f.crlf]).toEqual([
        f.path,
        alone.text,
        alone.bom,
        alone.problem,
        alone.crlf,
      ]);
    }
  });
});

describe('loadVault with keepBytes false (check) keeps a file’s text, not its bytes', () => {
  it('bytes read later are the file’s bytes; the bytes read from disk are not held', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const dir = mkdtempSync(join(tmpdir(), 'memlint-keep-bytes-'));
    mkdirSync(join(dir, 'notes'));
    const bodies: [string, Uint8Array][] = [
      ['MEMORY.md', enc.encode('# Memory\n- [a](notes/a.md) — 語\n')],
      ['notes/a.md', enc.encode('---\nname: a\n---\nplain [[b]] 語\r\n')],
      ['notes/bom.md', Buffer.concat([new Uint8Array([0xef, 0xbb, 0xbf]), enc.encode('bom [[a]]\n')])],
      ['notes/bad.md', Buffer.concat([enc.encode('bad '), new Uint8Array([0xff]), enc.encode(' [[a]]\n')])],
    ];
    for (let k = 0; k < 50; k++) bodies.push([`notes/n${k}.md`, enc.encode(`note ${k} 語\n`.repeat(400))]);
    for (const [p, b] of bodies) writeFileSync(join(dir, p), b);
    const load = (keepBytes: boolean): { held: number; vault: Vault } => {
      const read: WeakRef<Uint8Array>[] = [];
      const vault = loadVault(dir, {
        config: defaultConfig(),
        keepBytes,
        onParsed: (p) => read.push(new WeakRef(p.bytes)),
      });
      return {
        vault,
        get held() {
          return read.filter((r) => r.deref() !== undefined).length;
        },
      } as never;
    };
    const kept = load(true);
    const dropped = load(false);
    await new Promise((r) => setTimeout(r, 0));
    gc();
    expect(kept.held).toBe(bodies.length);
    // Only the BOM and invalid files keep theirs (their text is not their bytes decoded).
    expect(dropped.held).toBe(2);
    for (const [p, b] of bodies) expect(Buffer.from(dropped.vault.byPath.get(p)!.bytes).equals(b)).toBe(true);
    const f = dropped.vault.byPath.get('notes/a.md')!;
    expect(f.bytes).toBe(f.bytes);
  });
});
