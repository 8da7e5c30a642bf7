import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sentences } from '../src/similarity/text.js';
import { readMarkdownFile } from '../src/vault/file.js';
import { corpusVaults, hasCorpus, markdownFilesUnder } from './helpers/corpus.js';

type Note = Parameters<typeof sentences>[0];

/** The blanking sentences() did before issue 14 (the whole text rebuilt per code block): the reference. */
function reference(note: Note): ReturnType<typeof sentences> {
  let text = note.text;
  for (const [s, e] of note.codeRanges) {
    if (s >= note.bodyOffset && text.slice(s, e).includes('\n'))
      text = text.slice(0, s) + text.slice(s, e).replace(/[^\n]/g, ' ') + text.slice(e);
  }
  return sentences({ ...note, text, codeRanges: [] });
}

const noteOf = (path: string): Note => {
  const p = readMarkdownFile(path, path, 'note', 10_000_000);
  return { text: p.text, bodyOffset: p.bodyOffset, codeRanges: p.scan.codeRanges, position: p.position };
};

describe('sentences: code blocks blanked in one pass', () => {
  it.skipIf(!hasCorpus)('gives what the per-block rebuild gave, on every corpus file', () => {
    let files = 0;
    for (const vault of [...corpusVaults('claude'), ...corpusVaults('hermes')]) {
      for (const path of markdownFilesUnder(vault)) {
        const note = noteOf(path);
        expect(sentences(note), path).toEqual(reference(note));
        files++;
      }
    }
    expect(files).toBeGreaterThan(1000);
  });

  it('handles ranges out of order, overlapping, nested, and before the body', () => {
    const text =
      readFileSync('fixtures/demo-vault/feedback_use-pnpm.md', 'utf8') +
      '\n```\nnever run npm install. ever.\n```\nAfter the block. Another line here.\n\n```js\nx = 1;\ny = 2.\n```\n';
    const open1 = text.indexOf('```\nnever'),
      close1 = text.indexOf('```\nAfter') + 3;
    const open2 = text.indexOf('```js'),
      close2 = text.lastIndexOf('```') + 3;
    const base = {
      text,
      bodyOffset: text.indexOf('\n---\n') + 5,
      position: (o: number) => ({ line: text.slice(0, o).split('\n').length, column: 1 }),
    };
    for (const codeRanges of [
      [
        [open2, close2],
        [open1, close1],
      ],
      [
        [open1, close1],
        [open1 + 2, close1 - 1],
        [open2, close2],
      ],
      [
        [open1, close2],
        [open2, close2],
      ],
      [
        [0, 10],
        [open1, close1],
      ],
    ] as [number, number][][]) {
      const note = { ...base, codeRanges };
      expect(sentences(note)).toEqual(reference(note));
    }
  });
});
