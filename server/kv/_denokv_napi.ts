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

import { deserialize, serialize } from "node:v8";
import type { Kv, KvAtomic, KvEntryMaybe, KvKey } from "./_denokv.ts";
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
  unpackKey,
  type WireCheck,
  type WireMutation,
} from "./_denokv_wire.ts";
import { deserializeEnvelope, isEnvelope, serializeEnvelope } from "./_denokv_v8.ts";

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

const V8 = 1;
const BYTES = 3;

function value(entry: RawEntry): unknown {
  // The store's envelopes are read by hand: also those Deno wrote, in a format Node's V8 refuses.
  if (entry.encoding === V8) return deserializeEnvelope(entry.value) ?? deserialize(entry.value);
  if (entry.encoding === BYTES) return new Uint8Array(entry.value);
  throw new Error(
    `Deno KV holds a value of encoding ${entry.encoding}, which this store never writes.`,
  );
}

function encodeValue(v: unknown): { data: Uint8Array; encoding: number } {
  if (v instanceof Uint8Array) return { data: v, encoding: BYTES };
  // The store's envelopes, nearly every value, skip v8.serialize's serializer object.
  return { data: isEnvelope(v) ? serializeEnvelope(v) : serialize(v), encoding: V8 };
}

/** The range holding exactly one key: [key, key + 00). */
function exactly(packed: Uint8Array): ReadRange {
  return { start: packed, end: withByte(packed, 0), limit: 1, reverse: false };
}

/** `bytes` with one more byte `b` at the end. */
function withByte(bytes: Uint8Array, b: number): Uint8Array {
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  out[bytes.length] = b;
  return out;
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

  async *list(
    selector: { prefix: KvKey; start?: KvKey; end?: KvKey },
    options: { reverse?: boolean; batchSize?: number; limit?: number } = {},
  ): AsyncIterable<KvEntryMaybe> {
    const { reverse = false, batchSize = 100, limit = Infinity } = options;
    const prefix = packKey(selector.prefix);
    // Keys under the prefix have at least one more part, and every part starts above 00.
    let start = selector.start ? packKey(selector.start) : withByte(prefix, 0);
    let end = selector.end ? packKey(selector.end) : withByte(prefix, 0xff);
    let given = 0;
    while (given < limit) {
      const batch = Math.min(batchSize, 500, limit - given);
      const [entries = []] = await this.#read([{ start, end, limit: batch, reverse }]);
      for (const entry of entries) {
        given++;
        yield {
          key: unpackKey(entry.key),
          value: value(entry),
          versionstamp: hex(entry.versionstamp),
        };
      }
      if (entries.length < batch) return;
      const last = entries[entries.length - 1].key;
      if (reverse) end = last;
      else start = withByte(last, 0);
    }
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
          value: encodeValue(v),
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
