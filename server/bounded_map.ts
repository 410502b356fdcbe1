/**
 * A map that keeps only its most recently set keys, at O(1) per operation.
 *
 * The usual bounded map, a `Map` that deletes its first key whenever it grows
 * past its limit, is slow on V8 at scale: a deleted entry stays in place as a
 * hole until the table is rebuilt, and `keys().next()` walks over every hole
 * to the first live key. With twenty thousand keys each eviction cost 4 to
 * 16 µs and grew with use (`bench/load.ts` found it in the Deno KV store).
 *
 * This one keeps two generations instead: keys are set in the young one;
 * when it holds half the limit and a new key comes, it becomes the old one
 * and the old one is dropped whole, except the keys `pinned` holds on to,
 * which move along. It holds at most `limit` keys plus the pinned ones, and
 * a key set is kept through at least `limit / 2` (rounded down) sets of
 * other keys.
 *
 * @module
 */

/**
 * Options of a {@linkcode BoundedMap}.
 *
 * @example
 * ```ts
 * const options: BoundedMapOptions<string> = { pinned: (id) => id.startsWith("live:") };
 * ```
 */
export interface BoundedMapOptions<K> {
  /** Keys that must not be dropped yet (checked when their generation goes). */
  pinned?: (key: K) => boolean;
  /** Called for each key dropped for room (not for `delete()`). */
  dropped?: (key: K) => void;
}

/**
 * A bounded map of the most recently set keys; values must not be `undefined`.
 *
 * @example
 * ```ts
 * const recent = new BoundedMap<string, number>(2);
 * recent.set("a", 1).set("b", 2).set("c", 3);
 * recent.get("c"); // 3
 * recent.size <= 2; // true
 * ```
 */
export class BoundedMap<K, V> {
  #young = new Map<K, V>();
  #old = new Map<K, V>();
  #half: number;
  #options: BoundedMapOptions<K>;

  constructor(limit: number, options: BoundedMapOptions<K> = {}) {
    if (!(limit >= 1)) {
      throw new RangeError(`A bounded map needs a limit of 1 or more; got ${limit}.`);
    }
    this.#half = Math.max(1, Math.floor(limit / 2));
    this.#options = options;
  }

  /** How many keys it holds now. */
  get size(): number {
    return this.#young.size + this.#old.size;
  }

  /** The value of `key`, or undefined. */
  get(key: K): V | undefined {
    const young = this.#young.get(key);
    return young !== undefined ? young : this.#old.get(key);
  }

  /** Whether it holds `key`. */
  has(key: K): boolean {
    return this.#young.has(key) || this.#old.has(key);
  }

  /** Sets `key` as the most recent; may drop the oldest generation. */
  set(key: K, value: V): this {
    if (!this.#young.has(key)) {
      this.#old.delete(key);
      if (this.#young.size >= this.#half) this.#rotate();
    }
    this.#young.set(key, value);
    return this;
  }

  /**
   * Sets a key the caller knows it does not hold (one never set before), without the two looks
   * `set()` takes to move a key it holds: on a map of tens of thousands of keys each look is a
   * miss in the processor's caches. Were the key held after all, its older value stays shadowed
   * by this one (`get()` looks in the young generation first) until its generation goes, and
   * until then `size` and `keys()` count the key twice.
   */
  add(key: K, value: V): this {
    if (this.#young.size >= this.#half) this.#rotate();
    this.#young.set(key, value);
    return this;
  }

  /** Removes `key`; whether it was there. */
  delete(key: K): boolean {
    const young = this.#young.delete(key);
    return this.#old.delete(key) || young;
  }

  /** Removes every key (`dropped` is not called: nothing was pushed out for room). */
  clear(): void {
    this.#young = new Map();
    this.#old = new Map();
  }

  /** Every key, oldest generation first. */
  *keys(): IterableIterator<K> {
    yield* this.#old.keys();
    yield* this.#young.keys();
  }

  #rotate(): void {
    const next = this.#young;
    const { pinned, dropped } = this.#options;
    for (const [key, value] of this.#old) {
      // A key `add()` set again is in both generations: the young one's value is the newer.
      if (pinned?.(key)) {
        if (!next.has(key)) next.set(key, value);
      } else dropped?.(key);
    }
    this.#old = next;
    this.#young = new Map();
  }
}
