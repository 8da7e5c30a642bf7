/** Arrays whose items are computed on first read (the guard's claims cache, a note's claim subjects). */
/** An array of n items, each decoded on first read (a Proxy: index reads, `length`, iteration and the array methods all go through `get`). */
export function lazyArray<T>(n: number, decode: (i: number) => T): readonly T[] {
  const target: T[] = new Array<T>(n);
  const done = new Uint8Array(n);
  const at = (i: number): T => {
    if (!done[i]) {
      target[i] = decode(i);
      done[i] = 1;
    }
    return target[i]!;
  };
  const index = (k: string | symbol): number => {
    if (typeof k !== 'string') return -1;
    const i = Number(k);
    return Number.isInteger(i) && i >= 0 && i < n && String(i) === k ? i : -1;
  };
  const fillAll = (): void => {
    for (let i = 0; i < n; i++) at(i);
  };
  return new Proxy(target, {
    get(t, k, receiver) {
      const i = index(k);
      return i >= 0 ? at(i) : Reflect.get(t, k, receiver);
    },
    has(t, k) {
      return index(k) >= 0 || Reflect.has(t, k);
    },
    ownKeys(t) {
      fillAll();
      return Reflect.ownKeys(t);
    },
    getOwnPropertyDescriptor(t, k) {
      const i = index(k);
      if (i >= 0) at(i);
      return Reflect.getOwnPropertyDescriptor(t, k);
    },
    set(t, k, v) {
      const i = index(k);
      if (i >= 0) done[i] = 1;
      return Reflect.set(t, k, v);
    },
    defineProperty(t, k, d) {
      const i = index(k);
      if (i >= 0) done[i] = 1;
      return Reflect.defineProperty(t, k, d);
    },
    deleteProperty(t, k) {
      const i = index(k);
      if (i >= 0) done[i] = 1;
      return Reflect.deleteProperty(t, k);
    },
  });
}
