/**
 * What one Deno KV handle last saw of recent keys (private to `server/kv/`):
 * the versionstamp of a key it read or wrote holding an inline value without
 * expiry, or null when it read the key absent. A commit reads a key before
 * writing it only to learn whether the value it replaces has chunks, and to
 * check it; a key known here skips that read and is checked at the known
 * versionstamp instead, so the database still decides. When another writer
 * changed the key meanwhile, the check fails, the key is forgotten and the
 * commit runs again with a fresh read: a stale entry costs one retry, never
 * a wrong answer. Bounded (`BoundedMap`): the least recently written keys go first.
 *
 * @module
 */

import { BoundedMap } from "../bounded_map.ts";
import {
  isManifest,
  type Kv,
  type KvEntryMaybe,
  type KvKey,
  type KvLimits,
  readRaw,
} from "./_denokv.ts";

/** Keys remembered per handle. */
export const KNOWN_KEYS = 20_000;
/**
 * Keys written fresh (`Mutation.fresh`) remembered per handle, apart: a log entry is deleted
 * some thousand entries after it was written, and a delete of a key known to hold an inline
 * value needs no read first (it holds no chunks to delete).
 */
export const KNOWN_FRESH_KEYS = 50_000;

/**
 * Recent inline versions of one handle's keys.
 *
 * @example
 * ```ts
 * const known = new KnownVersions();
 * known.saw(["session", "s1"], { key: ["session", "s1"], value: null, versionstamp: null });
 * known.get(["session", "s1"]); // null: known absent
 * ```
 */
export class KnownVersions {
  #map: BoundedMap<string, string | null>;
  #fresh: BoundedMap<string, string>;

  constructor(limit = KNOWN_KEYS, freshLimit = KNOWN_FRESH_KEYS) {
    this.#map = new BoundedMap(limit);
    this.#fresh = new BoundedMap(freshLimit);
  }

  /**
   * The known versionstamp (null: known absent), or undefined when unknown. `id` is the key's
   * JSON text, where the caller has it already (so in every method below).
   */
  get(key: KvKey, id = JSON.stringify(key)): string | null | undefined {
    const known = this.#map.get(id);
    return known === undefined ? this.#fresh.get(id) : known;
  }

  /** Records a raw entry just read: only absent keys and inline values without expiry count. */
  saw(key: KvKey, raw: KvEntryMaybe, id = JSON.stringify(key)): void {
    const { value, versionstamp } = raw;
    const plain = versionstamp === null ||
      (typeof value === "object" && value !== null && !isManifest(value) &&
        (value as { x?: unknown }).x === undefined);
    if (plain) this.#map.set(id, versionstamp);
    else this.forget(key, id);
  }

  /**
   * Records a committed write at `versionstamp`: an inline value without expiry is known at
   * it, a delete is known absent, anything else (chunks, expiry) is forgotten.
   */
  wrote(
    key: KvKey,
    versionstamp: string | undefined,
    kind: "inline" | "deleted" | "other",
    id = JSON.stringify(key),
  ): void {
    if (versionstamp === undefined || kind === "other") this.forget(key, id);
    else if (kind === "deleted" && this.#fresh.get(id) !== undefined) {
      // A log entry's end: forgotten, not kept as absent among the keys written again and again.
      this.forget(key, id);
    } else this.#map.set(id, kind === "deleted" ? null : versionstamp);
  }

  /**
   * Records every write of a committed commit (see `wrote()`). Fresh keys go to a map of their
   * own: a key written the first time is most often never written again (messages, events), so
   * remembering it beside the others would only push out keys that are (session records,
   * reservations); it is remembered for the delete that ends it (the event log's trim).
   */
  wroteAll(
    writes: readonly {
      key: KvKey;
      id?: string;
      text?: string;
      chunk: boolean;
      expireIn?: number;
      fresh?: boolean;
    }[],
    versionstamp: string | undefined,
  ): void {
    for (const w of writes) {
      if (w.fresh) {
        if (
          versionstamp !== undefined && w.text !== undefined && !w.chunk && w.expireIn === undefined
        ) {
          // Never written before, so not remembered yet: no look for an older entry to move.
          this.#fresh.add(w.id ?? JSON.stringify(w.key), versionstamp);
        }
        continue;
      }
      const kind = w.text === undefined
        ? "deleted"
        : !w.chunk && w.expireIn === undefined
        ? "inline"
        : "other";
      this.wrote(w.key, versionstamp, kind, w.id);
    }
  }

  /**
   * Reads the raw entries of `keys`, in order, except those known: a checked key (with its
   * expected version in `expected`) counts as known only at that version. A known key reads
   * as `{ value: null, versionstamp }`, an inline value or absence the commit checks again.
   */
  async read(
    kv: Kv,
    limits: KvLimits,
    keys: readonly KvKey[],
    expected: readonly (string | null | undefined)[] = [],
    ids: readonly string[] = keys.map((key) => JSON.stringify(key)),
  ): Promise<KvEntryMaybe[]> {
    const out: KvEntryMaybe[] = new Array(keys.length);
    const missing: number[] = [];
    keys.forEach((key, i) => {
      const version = this.get(key, ids[i]);
      const usable = version !== undefined &&
        (expected[i] === undefined || expected[i] === version);
      if (usable) out[i] = { key, value: null, versionstamp: version };
      else missing.push(i);
    });
    if (!missing.length) return out;
    const read = await readRaw(kv, limits, missing.map((i) => keys[i]));
    missing.forEach((i, j) => {
      out[i] = read[j];
      this.saw(keys[i], read[j], ids[i]);
    });
    return out;
  }

  /** Forgets every key (another process may have written any of them unseen). */
  clear(): void {
    this.#map.clear();
    this.#fresh.clear();
  }

  /** Forgets a key (its write failed, or it holds something not remembered). */
  forget(key: KvKey, id = JSON.stringify(key)): void {
    this.#map.delete(id);
    this.#fresh.delete(id);
  }
}
