/**
 * What the two Node handles on a Deno KV file (`_denokv_napi.ts` over
 * `@deno/kv`'s add-on, `_denokv_sqlite.ts` over `node:sqlite`) share
 * (private to `server/kv/`): a value's stored bytes and encoding, and a
 * listing read range by range.
 *
 * @module
 */

import { deserialize, serialize } from "node:v8";
import type { KvEntryMaybe, KvKey } from "./_denokv.ts";
import { deserializeEnvelope, isEnvelope, serializeEnvelope } from "./_denokv_v8.ts";
import { packKey, type ReadRange, unpackKey } from "./_denokv_wire.ts";

/** Deno KV's value encodings this store writes: V8's serialisation, and bytes as they are. */
export const V8 = 1;
export const BYTES = 3;

/**
 * A stored value from its encoding and bytes. The store's envelopes are read by hand: also
 * those Deno wrote, in a format Node's V8 refuses.
 *
 * @example
 * ```ts
 * storedValue(BYTES, new Uint8Array([1])); // Uint8Array [1]
 * ```
 */
export function storedValue(encoding: number, bytes: Uint8Array): unknown {
  if (encoding === V8) return deserializeEnvelope(bytes) ?? deserialize(bytes);
  if (encoding === BYTES) return bytes;
  throw new Error(`Deno KV holds a value of encoding ${encoding}, which this store never writes.`);
}

/**
 * A value's bytes and encoding as Deno KV stores it.
 *
 * @example
 * ```ts
 * valueToStore({ j: "1" }).encoding; // V8
 * ```
 */
export function valueToStore(v: unknown): { data: Uint8Array; encoding: number } {
  if (v instanceof Uint8Array) return { data: v, encoding: BYTES };
  // The store's envelopes, nearly every value, skip v8.serialize's serializer object.
  return { data: isEnvelope(v) ? serializeEnvelope(v) : serialize(v), encoding: V8 };
}

/**
 * `bytes` with one more byte `b` at the end.
 *
 * @example
 * ```ts
 * withByte(new Uint8Array([2]), 0); // Uint8Array [2, 0]
 * ```
 */
export function withByte(bytes: Uint8Array, b: number): Uint8Array {
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  out[bytes.length] = b;
  return out;
}

/** One stored entry, its key still packed. */
export interface Row {
  key: Uint8Array;
  value: unknown;
  versionstamp: string;
}

/**
 * `Kv.list()` over a handle that reads one range at a time: batches of at most 500 keys,
 * each from where the last ended.
 *
 * @example
 * ```ts
 * for await (const e of pagedList({ prefix: ["a"] }, {}, (range) => readRange(range))) e.key;
 * ```
 */
export async function* pagedList(
  selector: { prefix: KvKey; start?: KvKey; end?: KvKey },
  options: { reverse?: boolean; batchSize?: number; limit?: number },
  read: (range: ReadRange) => Row[] | Promise<Row[]>,
): AsyncIterable<KvEntryMaybe> {
  const { reverse = false, batchSize = 100, limit = Infinity } = options;
  const prefix = packKey(selector.prefix);
  // Keys under the prefix have at least one more part, and every part starts above 00.
  let start = selector.start ? packKey(selector.start) : withByte(prefix, 0);
  let end = selector.end ? packKey(selector.end) : withByte(prefix, 0xff);
  let given = 0;
  while (given < limit) {
    const batch = Math.min(batchSize, 500, limit - given);
    const rows = await read({ start, end, limit: batch, reverse });
    for (const row of rows) {
      given++;
      yield { key: unpackKey(row.key), value: row.value, versionstamp: row.versionstamp };
    }
    if (rows.length < batch) return;
    const last = rows[rows.length - 1].key;
    if (reverse) end = last;
    else start = withByte(last, 0);
  }
}
