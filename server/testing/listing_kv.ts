/**
 * Deno KV handles that watch their listings, for tests of the Deno KV store's
 * pollers (the relay's heads and messages, the holder's watch of presences).
 *
 * @module
 */
import type { Kv, KvKey } from "../kv/_denokv.ts";

/**
 * `kv` with its `list()` replaced by `list` (which may call `kv.list()`); every other call
 * passes through.
 *
 * @example
 * ```ts
 * const quiet = withList(kv, async function* () {});
 * ```
 */
export function withList(kv: Kv, list: Kv["list"]): Kv {
  return {
    get: (key) => kv.get(key),
    getMany: (keys) => kv.getMany(keys),
    atomic: () => kv.atomic(),
    close: () => kv.close(),
    list,
  };
}

/**
 * Wraps `kv`, counting each `list()` whose prefix starts with `prefix`.
 *
 * @example
 * ```ts
 * const heads = listingKv(kv, [false, "h"]);
 * await heads.kv.get(["a"]);
 * heads.listings(); // 0
 * ```
 */
export function listingKv(kv: Kv, prefix: KvKey): { kv: Kv; listings: () => number } {
  let listings = 0;
  return {
    kv: withList(kv, (selector, options) => {
      if (prefix.every((part, i) => selector.prefix[i] === part)) listings++;
      return kv.list(selector, options);
    }),
    listings: () => listings,
  };
}
