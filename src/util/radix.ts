/**
 * A stable LSD radix sort of 32-bit keys carrying an item each (8 bits a pass, four passes): items with equal
 * keys keep their order. Returns the sorted keys and items (new arrays; the inputs are used as scratch).
 */
export function radixSortByKey(keys: Uint32Array, items: Int32Array): { keys: Uint32Array; items: Int32Array } {
  const total = keys.length;
  let k1: Uint32Array = keys,
    i1: Int32Array = items;
  let k2: Uint32Array = new Uint32Array(total),
    i2: Int32Array = new Int32Array(total);
  const counts = new Int32Array(256);
  for (let shift = 0; shift < 32; shift += 8) {
    counts.fill(0);
    for (let j = 0; j < total; j++) counts[(k1[j]! >>> shift) & 255]!++;
    for (let b = 0, sum = 0; b < 256; b++) {
      const c = counts[b]!;
      counts[b] = sum;
      sum += c;
    }
    for (let j = 0; j < total; j++) {
      const at = counts[(k1[j]! >>> shift) & 255]!++;
      k2[at] = k1[j]!;
      i2[at] = i1[j]!;
    }
    [k1, k2] = [k2, k1];
    [i1, i2] = [i2, i1];
  }
  return { keys: k1, items: i1 };
}

/** Sorts a prefix of a Float64Array of whole numbers and drops repeats; returns the new length. */
export function sortUniquePrefix(values: Float64Array, length: number): number {
  const part = values.subarray(0, length);
  part.sort();
  let w = 0;
  for (let r = 0; r < length; r++) if (r === 0 || part[r] !== part[w - 1]) part[w++] = part[r]!;
  return w;
}
