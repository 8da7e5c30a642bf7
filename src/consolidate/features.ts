/** Per-note text features and the similarity pass shared by the duplicate, contradiction and incident stages. */
import type { VaultFile } from '../vault/model.js';
import { lshCandidates, signature } from './minhash.js';
import { containment, jaccard, shingles, statedText, tokens } from './text.js';

export interface NoteFeatures {
  readonly note: VaultFile;
  readonly tokens: readonly string[];
  readonly shingles: ReadonlySet<string>;
  readonly signature: Uint32Array;
}

export interface SimilarPair {
  readonly a: number;
  readonly b: number;
  readonly jaccard: number;
  readonly containment: number;
}

export function noteFeatures(notes: readonly VaultFile[]): NoteFeatures[] {
  return notes.map((note) => {
    const toks = tokens(statedText(note));
    const sh = shingles(toks);
    return { note, tokens: toks, shingles: sh, signature: signature(sh) };
  });
}

/** Candidates from LSH, confirmed with exact Jaccard and containment. Tuned for recall. */
export const SIMILAR = { jaccard: 0.4, containment: 0.7, minShingles: 6 } as const;

export function similarPairs(features: readonly NoteFeatures[]): SimilarPair[] {
  const out: SimilarPair[] = [];
  for (const [a, b] of lshCandidates(features.map((f) => f.signature))) {
    const fa = features[a]!, fb = features[b]!;
    const j = jaccard(fa.shingles, fb.shingles);
    const c = Math.min(fa.shingles.size, fb.shingles.size) >= SIMILAR.minShingles ? containment(fa.shingles, fb.shingles) : j;
    out.push({ a, b, jaccard: round(j), containment: round(c) });
  }
  return out.sort((x, y) => x.a - y.a || x.b - y.b);
}

export const isSimilar = (p: SimilarPair): boolean => p.jaccard >= SIMILAR.jaccard || p.containment >= SIMILAR.containment;

const round = (x: number): number => Math.round(x * 1000) / 1000;
