/**
 * Serialises the turns of one session inside this process. Across processes
 * the session lease (server/kv/lease.ts) does the same job; the store's
 * atomic commits decide any race that slips past both.
 *
 * @module
 */

/**
 * A keyed mutex: `run(key, fn)` waits for every earlier `run` with the same key.
 *
 * @example
 * ```ts
 * const locks = new KeyedLock();
 * await locks.run("s1", async () => { ... });
 * ```
 */
export class KeyedLock {
  #tails = new Map<string, Promise<unknown>>();

  /** Runs `fn` after every earlier holder of `key` has finished. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(fn, fn);
    const tail = result.then(() => {}, () => {});
    this.#tails.set(key, tail);
    tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Whether someone holds or waits for `key`. */
  busy(key: string): boolean {
    return this.#tails.has(key);
  }
}
