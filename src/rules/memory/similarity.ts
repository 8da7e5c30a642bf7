/**
 * The one place the memory/… rules take the similarity code from (branch h12 moves it to
 * src/similarity/: re-point these lines, nothing else changes).
 */
export { jaccard, sentences, shingleHashes, tokens, STOPWORDS, type Sentence } from '../../similarity/text.js';
