/**
 * A lean Deno KV handle for Node (private to `server/kv/`): the same SQLite
 * backend `@deno/kv` opens, spoken to through its native functions
 * (`snapshotRead`, `atomicWrite`) with the encoding of `_denokv_wire.ts`.
 * `@deno/kv`'s own JavaScript layer spends several times the CPU of the
 * database itself on each call (key packing through arrays, a generic
 * protobuf runtime, hex round trips); a turn makes a dozen such calls.
 *
 * `leanKv()` uses the native handle only when the opened `@deno/kv` object
 * exposes it (`napi`, `dbId`, as 0.14 does); otherwise the store keeps the
 * library's own object, which behaves the same, only slower.
 *
 * @module
 */

import type { Kv, KvAtomic, KvEntryMaybe, KvKey } from "./_denokv.ts";
import { BYTES, pagedList, storedValue, valueToStore, withByte } from "./_denokv_rows.ts";
import {
  decodeAtomicWriteOutput,
  decodeSnapshotReadOutput,
  encodeAtomicWrite,
  encodeSnapshotRead,
  hex,
  packKey,
  type RawEntry,
  type ReadRange,
  unhex,
  type WireCheck,
  type WireMutation,
} from "./_denokv_wire.ts";

/** The native functions of `@deno/kv`'s SQLite backend that this handle calls. */
interface Napi {
  snapshotRead(db: number, request: Uint8Array, debug: boolean): Promise<Uint8Array>;
  atomicWrite(db: number, request: Uint8Array, debug: boolean): Promise<Uint8Array>;
}

/** What `@deno/kv` 0.14's `openKv()` returns for a file, as far as this module relies on it. */
interface Opened extends Kv {
  napi?: Partial<Napi>;
  dbId?: unknown;
}

function value(entry: RawEntry): unknown {
  // Bytes are copied out of the answer they were decoded from, which holds the whole read.
  return entry.encoding === BYTES
    ? new Uint8Array(entry.value)
    : storedValue(entry.encoding, entry.value);
}

/** The range holding exactly one key: [key, key + 00). */
function exactly(packed: Uint8Array): ReadRange {
  return { start: packed, end: withByte(packed, 0), limit: 1, reverse: false };
}

/**
 * Wraps an opened `@deno/kv` file handle in the lean path when it can.
 *
 * @example
 * ```ts
 * const { openKv } = await import("@deno/kv");
 * const kv = leanKv(await openKv(".tether/store.db") as unknown as Kv);
 * ```
 */
export function leanKv(opened: Kv): Kv {
  const { napi, dbId } = opened as Opened;
  if (
    typeof napi?.snapshotRead !== "function" || typeof napi.atomicWrite !== "function" ||
    typeof dbId !== "number"
  ) return opened;
  return new LeanKv(napi as Napi, dbId, opened);
}

class LeanKv implements Kv {
  #napi: Napi;
  #db: number;
  #opened: Kv;

  constructor(napi: Napi, db: number, opened: Kv) {
    this.#napi = napi;
    this.#db = db;
    this.#opened = opened;
  }

  async #read(ranges: ReadRange[]): Promise<RawEntry[][]> {
    const answer = await this.#napi.snapshotRead(this.#db, encodeSnapshotRead(ranges), false);
    return decodeSnapshotReadOutput(answer);
  }

  async get(key: KvKey): Promise<KvEntryMaybe> {
    return (await this.getMany([key]))[0];
  }

  async getMany(keys: KvKey[]): Promise<KvEntryMaybe[]> {
    const ranges = await this.#read(keys.map((k) => exactly(packKey(k))));
    return keys.map((key, i) => {
      const found = ranges[i]?.[0];
      return found === undefined
        ? { key, value: null, versionstamp: null }
        : { key, value: value(found), versionstamp: hex(found.versionstamp) };
    });
  }

  list(
    selector: { prefix: KvKey; start?: KvKey; end?: KvKey },
    options: { reverse?: boolean; batchSize?: number; limit?: number } = {},
  ): AsyncIterable<KvEntryMaybe> {
    return pagedList(selector, options, async (range) => {
      const [entries = []] = await this.#read([range]);
      return entries.map((e) => ({
        key: e.key,
        value: value(e),
        versionstamp: hex(e.versionstamp),
      }));
    });
  }

  atomic(): KvAtomic {
    const checks: WireCheck[] = [];
    const mutations: WireMutation[] = [];
    const napi = this.#napi;
    const db = this.#db;
    const op: KvAtomic = {
      check(...more) {
        for (const c of more) {
          checks.push({
            key: packKey(c.key),
            versionstamp: c.versionstamp === null ? null : unhex(c.versionstamp),
          });
        }
        return op;
      },
      set(key, v, options) {
        mutations.push({
          key: packKey(key),
          value: valueToStore(v),
          expireAtMs: options?.expireIn === undefined ? undefined : Date.now() + options.expireIn,
        });
        return op;
      },
      delete(key) {
        mutations.push({ key: packKey(key) });
        return op;
      },
      async commit() {
        const answer = await napi.atomicWrite(db, encodeAtomicWrite(checks, mutations), false);
        const versionstamp = decodeAtomicWriteOutput(answer);
        return versionstamp === null
          ? { ok: false }
          : { ok: true, versionstamp: hex(versionstamp) };
      },
    };
    return op;
  }

  close(): void {
    this.#opened.close();
  }
}
