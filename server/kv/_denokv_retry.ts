/**
 * "database is locked", retried (private to `server/kv/`). Several processes
 * (or Deno isolates) writing one Deno KV file take turns at SQLite's write
 * lock; a request that waited past SQLite's own timeout fails with
 * `SQLITE_BUSY`, and the commit it carried was not applied. Every read and
 * commit of a Deno KV handle goes through `retryingKv()`, which runs such a
 * request again after a short, growing, jittered pause, so a busy file slows
 * a request down instead of failing it with a 500.
 *
 * @module
 */

import type { Kv, KvAtomic, KvEntryMaybe, KvKey } from "./_denokv.ts";

/** How long a request keeps retrying a locked database before the error is let through. */
export const LOCKED_RETRY_MS = 15_000;

const LOCKED = /database is locked|database table is locked|SQLITE_BUSY|SQLITE_LOCKED/i;

/**
 * Whether an error is SQLite's busy or locked answer (nothing was applied).
 *
 * @example
 * ```ts
 * isLocked(new Error("database is locked")); // true
 * ```
 */
export function isLocked(error: unknown): boolean {
  return LOCKED.test(String((error as Error)?.message ?? error));
}

/**
 * Runs `request` until it does not fail with a locked database, for at most
 * {@linkcode LOCKED_RETRY_MS}; any other error, or the last locked one, is thrown.
 *
 * @example
 * ```ts
 * const entry = await retryLocked(() => kv.get(["session", "s1"]));
 * ```
 */
export async function retryLocked<T>(request: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCKED_RETRY_MS;
  let pause = 4;
  for (;;) {
    try {
      return await request();
    } catch (error) {
      if (!isLocked(error) || Date.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, pause / 2 + Math.random() * pause));
    pause = Math.min(250, pause * 2);
  }
}

/**
 * `kv` with every read and commit retried while the database is locked.
 *
 * @example
 * ```ts
 * const kv = retryingKv(await Deno.openKv(path));
 * ```
 */
export function retryingKv(kv: Kv): Kv {
  return {
    get: (key) => retryLocked(() => kv.get(key)),
    getMany: (keys) => retryLocked(() => kv.getMany(keys)),
    list: (selector, options) => list(kv, selector, options),
    atomic: () => new RetriedAtomic(kv),
    close: () => kv.close(),
    ...(kv.synchronous ? { synchronous: true } : {}),
  };
}

async function* list(
  kv: Kv,
  selector: Parameters<Kv["list"]>[0],
  options: Parameters<Kv["list"]>[1],
): AsyncIterable<KvEntryMaybe> {
  const deadline = Date.now() + LOCKED_RETRY_MS;
  for (;;) {
    let yielded = false;
    try {
      for await (const entry of kv.list(selector, options)) {
        yielded = true;
        yield entry;
      }
      return;
    } catch (error) {
      // Past the first entry a retry would repeat entries; the caller sees the error instead.
      if (yielded || !isLocked(error) || Date.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
  }
}

/** Records an atomic operation so a locked commit can be built again and retried. */
class RetriedAtomic implements KvAtomic {
  #kv: Kv;
  #steps: ((op: KvAtomic) => void)[] = [];

  constructor(kv: Kv) {
    this.#kv = kv;
  }

  check(...checks: { key: KvKey; versionstamp: string | null }[]): KvAtomic {
    this.#steps.push((op) => op.check(...checks));
    return this;
  }

  set(key: KvKey, value: unknown, options?: { expireIn?: number }): KvAtomic {
    this.#steps.push((op) => op.set(key, value, options));
    return this;
  }

  delete(key: KvKey): KvAtomic {
    this.#steps.push((op) => op.delete(key));
    return this;
  }

  commit(): Promise<{ ok: boolean; versionstamp?: string }> {
    return retryLocked(() => {
      const op = this.#kv.atomic();
      for (const step of this.#steps) step(op);
      return op.commit();
    });
  }
}
