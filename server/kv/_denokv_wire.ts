/**
 * Deno KV's wire formats, for the lean Node path of `denoKvStore()`
 * (private to `server/kv/`): keys in Deno KV's tuple encoding (strings,
 * booleans and numbers, the parts this store writes, as `ext/kv/codec.rs` packs them) and the
 * protobuf messages its SQLite backend takes (`SnapshotRead`, `AtomicWrite`)
 * and gives (`SnapshotReadOutput`, `AtomicWriteOutput`), only the fields
 * this store uses. The bytes equal those `@deno/kv` produces, so a file
 * written either way reads the same (`_denokv_wire.test.ts` holds them to it).
 *
 * @module
 */

import type { KvKey, KvPart } from "./_denokv.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Bytes a varint of `n` takes. */
function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 0x80);
    size++;
  }
  return size;
}

/** Bytes a length-delimited field of `n` bytes takes (field numbers below 16). */
const fieldSize = (n: number) => 1 + varintSize(n) + n;
/** Bytes a varint field takes, nothing at its default 0 (as proto3 writes it). */
const uintSize = (n: number) => (n === 0 ? 0 : 1 + varintSize(n));

/** A byte buffer of known size with protobuf field writers (field numbers below 16). */
class Out {
  bytes: Uint8Array;
  at = 0;

  constructor(size: number) {
    this.bytes = new Uint8Array(size);
  }

  varint(n: number): void {
    while (n >= 0x80) {
      this.bytes[this.at++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.bytes[this.at++] = n;
  }

  /** A varint field, skipped at its default 0. */
  uint(field: number, n: number): void {
    if (n === 0) return;
    this.bytes[this.at++] = field << 3;
    this.varint(n);
  }

  /** The head of a length-delimited field of `n` bytes (the caller writes them next). */
  head(field: number, n: number): void {
    this.bytes[this.at++] = (field << 3) | 2;
    this.varint(n);
  }

  /** A length-delimited field. */
  field(field: number, b: Uint8Array): void {
    this.head(field, b.length);
    this.bytes.set(b, this.at);
    this.at += b.length;
  }
}

/**
 * Packs a key the way Deno KV does.
 *
 * @example
 * ```ts
 * packKey(["session", "s1"]); // 02 73 65 ... 00 02 73 31 00
 * ```
 */
export function packKey(key: KvKey): Uint8Array {
  return packAscii(key) ?? packAny(key);
}

/**
 * The runtime's keys are strings of ASCII without NUL (names, ids, padded numbers): their
 * packed form is each byte as it is between a 02 and a 00, written here without the UTF-8
 * encoder or a view per part. Null for any other key.
 */
function packAscii(key: KvKey): Uint8Array | null {
  let size = 0;
  for (const part of key) {
    if (typeof part !== "string") return null;
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i);
      if (c === 0 || c > 0x7f) return null;
    }
    size += part.length + 2;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of key as string[]) {
    out[at++] = 0x02;
    for (let i = 0; i < part.length; i++) out[at++] = part.charCodeAt(i);
    out[at++] = 0;
  }
  return out;
}

function packAny(key: KvKey): Uint8Array {
  let size = 0;
  // UTF-8 takes at most 3 bytes per UTF-16 unit; an escaped NUL takes 2.
  for (const part of key) size += typeof part === "string" ? part.length * 3 + 2 : 9;
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of key) {
    if (typeof part === "string") {
      out[at++] = 0x02;
      if (part.includes("\0")) {
        for (const b of encoder.encode(part)) {
          out[at++] = b;
          if (b === 0) out[at++] = 0xff;
        }
      } else at += encoder.encodeInto(part, out.subarray(at)).written;
      out[at++] = 0;
    } else if (part === false) out[at++] = 0x26;
    else if (part === true) out[at++] = 0x27;
    else if (typeof part === "number") {
      out[at++] = 0x21;
      const sub = out.subarray(at, at += 8);
      new DataView(sub.buffer, sub.byteOffset, 8).setFloat64(0, -Math.abs(part), false);
      if (part < 0) { for (let i = 0; i < 8; i++) sub[i] = 0xff - sub[i]; }
    } else throw new TypeError(`Deno KV key part of type ${typeof part} is not supported here.`);
  }
  return out.subarray(0, at);
}

/**
 * Unpacks a key packed by `packKey()` (or by Deno KV, for the part types above).
 *
 * @example
 * ```ts
 * unpackKey(packKey(["a", true, 1])); // ["a", true, 1]
 * ```
 */
export function unpackKey(bytes: Uint8Array): KvPart[] {
  const key: KvPart[] = [];
  let at = 0;
  while (at < bytes.length) {
    const code = bytes[at++];
    if (code === 0x02) {
      const part: number[] = [];
      while (at < bytes.length) {
        const b = bytes[at++];
        if (b === 0 && bytes[at] === 0xff) at++;
        else if (b === 0) break;
        part.push(b);
      }
      key.push(decoder.decode(new Uint8Array(part)));
    } else if (code === 0x21) {
      // A copy, even of a Node Buffer (whose slice() is a view on a shared pool).
      const sub = new Uint8Array(bytes.subarray(at, at + 8));
      at += 8;
      const negative = sub[0] < 0x80;
      if (negative) { for (let i = 0; i < 8; i++) sub[i] = 0xff - sub[i]; }
      const n = -new DataView(sub.buffer).getFloat64(0, false);
      key.push(negative ? -n : n);
    } else if (code === 0x26 || code === 0x27) key.push(code === 0x27);
    else {throw new Error(
        `Deno KV key holds a part of type code ${code}, which this store never writes.`,
      );}
  }
  return key;
}

/** One range of a snapshot read: keys in [start, end). */
export interface ReadRange {
  start: Uint8Array;
  end: Uint8Array;
  limit: number;
  reverse: boolean;
}

/**
 * Encodes a `SnapshotRead`.
 *
 * @example
 * ```ts
 * const key = packKey(["session", "s1"]);
 * const request = encodeSnapshotRead([{ start: key, end: new Uint8Array([...key, 0]), limit: 1, reverse: false }]);
 * ```
 */
export function encodeSnapshotRead(ranges: readonly ReadRange[]): Uint8Array {
  const size = (r: ReadRange) =>
    fieldSize(r.start.length) + fieldSize(r.end.length) + uintSize(r.limit) + (r.reverse ? 2 : 0);
  const out = new Out(ranges.reduce((n, r) => n + fieldSize(size(r)), 0));
  for (const r of ranges) {
    out.head(1, size(r));
    out.field(1, r.start);
    out.field(2, r.end);
    out.uint(3, r.limit);
    out.uint(4, r.reverse ? 1 : 0);
  }
  return out.bytes;
}

/** A stored entry as the backend returns it: value bytes, encoding (1 V8, 2 LE64, 3 bytes), versionstamp. */
export interface RawEntry {
  key: Uint8Array;
  value: Uint8Array;
  encoding: number;
  versionstamp: Uint8Array;
}

/** A check of an atomic write: no versionstamp means the key must be absent. */
export interface WireCheck {
  key: Uint8Array;
  versionstamp: Uint8Array | null;
}

/** A mutation of an atomic write: a set (with value bytes and encoding) or a delete. */
export interface WireMutation {
  key: Uint8Array;
  value?: { data: Uint8Array; encoding: number };
  expireAtMs?: number;
}

/**
 * Encodes an `AtomicWrite` of checks and set/delete mutations.
 *
 * @example
 * ```ts
 * const key = packKey(["session", "s1"]);
 * encodeAtomicWrite([{ key, versionstamp: null }], [{ key, value: { data: new Uint8Array([1]), encoding: 3 } }]);
 * ```
 */
export function encodeAtomicWrite(
  checks: readonly WireCheck[],
  mutations: readonly WireMutation[],
): Uint8Array {
  const checkSize = (c: WireCheck) =>
    fieldSize(c.key.length) + (c.versionstamp === null ? 0 : fieldSize(c.versionstamp.length));
  const valueSize = (m: WireMutation) =>
    m.value ? fieldSize(m.value.data.length) + uintSize(m.value.encoding) : 0;
  const mutationSize = (m: WireMutation) =>
    fieldSize(m.key.length) + (m.value ? fieldSize(valueSize(m)) : 0) + 2 +
    uintSize(m.expireAtMs ?? 0);
  let size = 0;
  for (const c of checks) size += fieldSize(checkSize(c));
  for (const m of mutations) size += fieldSize(mutationSize(m));
  const out = new Out(size);
  for (const c of checks) {
    out.head(1, checkSize(c));
    out.field(1, c.key);
    if (c.versionstamp !== null) out.field(2, c.versionstamp);
  }
  for (const m of mutations) {
    out.head(2, mutationSize(m));
    out.field(1, m.key);
    if (m.value) {
      out.head(2, valueSize(m));
      out.field(1, m.value.data);
      out.uint(2, m.value.encoding);
    }
    out.uint(3, m.value ? 1 : 2); // M_SET, M_DELETE
    out.uint(4, m.expireAtMs ?? 0);
  }
  return out.bytes;
}

/** A protobuf reader over bytes: fields are read in a loop of `tag()`, then `varint()` or `bytes()`. */
class In {
  bytes: Uint8Array;
  at: number;
  end: number;

  constructor(bytes: Uint8Array, at = 0, end = bytes.length) {
    this.bytes = bytes;
    this.at = at;
    this.end = end;
  }

  varint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      if (this.at >= this.end) throw new Error("Deno KV answered a truncated message.");
      const b = this.bytes[this.at++];
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 0x80;
    }
  }

  /** The reader of a length-delimited field's bytes (after its tag); moves past them. */
  sub(): In {
    const n = this.varint();
    const start = this.at;
    this.at += n;
    if (this.at > this.end) throw new Error("Deno KV answered a truncated message.");
    return new In(this.bytes, start, this.at);
  }

  /** Skips a field of wire type `type` (after its tag). */
  skip(type: number): void {
    if (type === 0) this.varint();
    else if (type === 2) this.sub();
    else if (type === 1) this.at += 8;
    else if (type === 5) this.at += 4;
    else throw new Error(`Deno KV answered a message with wire type ${type}.`);
  }

  take(): Uint8Array {
    const sub = this.sub();
    return this.bytes.subarray(sub.at, sub.end);
  }
}

function decodeEntry(r: In): RawEntry {
  const e: RawEntry = { key: EMPTY, value: EMPTY, encoding: 0, versionstamp: EMPTY };
  while (r.at < r.end) {
    const tag = r.varint();
    const field = tag >>> 3;
    if (field === 1 && (tag & 7) === 2) e.key = r.take();
    else if (field === 2 && (tag & 7) === 2) e.value = r.take();
    else if (field === 3 && (tag & 7) === 0) e.encoding = r.varint();
    else if (field === 4 && (tag & 7) === 2) e.versionstamp = r.take();
    else r.skip(tag & 7);
  }
  return e;
}

const EMPTY: Uint8Array = new Uint8Array();

/**
 * Decodes a `SnapshotReadOutput` into the entries of each range; throws unless its status is success.
 *
 * @example
 * ```ts
 * const [entries] = decodeSnapshotReadOutput(await napi.snapshotRead(db, request, false));
 * ```
 */
export function decodeSnapshotReadOutput(bytes: Uint8Array): RawEntry[][] {
  const ranges: RawEntry[][] = [];
  let status = 0;
  const r = new In(bytes);
  while (r.at < r.end) {
    const tag = r.varint();
    if (tag === ((8 << 3) | 0)) status = r.varint();
    else if (tag === ((1 << 3) | 2)) {
      const range = r.sub();
      const entries: RawEntry[] = [];
      while (range.at < range.end) {
        const t = range.varint();
        if (t === ((1 << 3) | 2)) entries.push(decodeEntry(range.sub()));
        else range.skip(t & 7);
      }
      ranges.push(entries);
    } else r.skip(tag & 7);
  }
  if (status !== 1) throw new Error(`Deno KV refused the read (status ${status}).`);
  return ranges;
}

/**
 * Decodes an `AtomicWriteOutput`: the versionstamp on success, null when a check failed.
 *
 * @example
 * ```ts
 * const versionstamp = decodeAtomicWriteOutput(await napi.atomicWrite(db, request, false));
 * ```
 */
export function decodeAtomicWriteOutput(bytes: Uint8Array): Uint8Array | null {
  let status = 0;
  let versionstamp = EMPTY;
  const r = new In(bytes);
  while (r.at < r.end) {
    const tag = r.varint();
    if (tag === ((1 << 3) | 0)) status = r.varint();
    else if (tag === ((2 << 3) | 2)) versionstamp = r.take();
    else r.skip(tag & 7);
  }
  if (status === 1) return versionstamp;
  if (status === 2) return null;
  throw new Error(`Deno KV refused the write (status ${status}).`);
}

/**
 * Lower-case hex of bytes (how Deno KV spells versionstamps).
 *
 * @example
 * ```ts
 * hex(new Uint8Array([0, 255])); // "00ff"
 * ```
 */
export function hex(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]];
  return s;
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/**
 * Bytes of lower-case hex.
 *
 * @example
 * ```ts
 * unhex("00ff"); // Uint8Array [0, 255]
 * ```
 */
export function unhex(text: string): Uint8Array {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}
