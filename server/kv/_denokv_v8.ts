/**
 * The V8 serialisation of the Deno KV store's envelope (private to
 * `server/kv/`), written by hand. Every value the store writes is an envelope
 * `{ j: <JSON text> }` or `{ j, x: <expiry, epoch ms> }` (`_denokv.ts`), and
 * Deno KV keeps values in V8's serialisation format. `v8.serialize()` builds
 * a serializer object per call and took about 5 µs for a 200-byte envelope;
 * a turn writes nine. This writes the same bytes in about 0.4 µs, and a
 * four-key commit under load cost 40 µs of CPU instead of 68.
 *
 * The bytes are those `v8.serialize()` writes for the envelope (format
 * version 15): a header, an object of one or two properties, the text as a
 * one-byte string when every character is Latin-1 and as a two-byte string
 * otherwise, and the expiry as a double. V8 chooses between the two string
 * forms by how it holds the string in memory rather than by its characters,
 * so for a Latin-1 text held two bytes wide its bytes differ; any V8 (Deno's,
 * `@deno/kv`'s, Node's) reads both forms as the same string.
 *
 * @module
 */

import { Buffer } from "node:buffer";

// deno-lint-ignore no-control-regex -- Latin-1 is exactly what V8 stores one byte per character
const WIDE = /[^\x00-\xff]/;
const HEADER = [0xff, 0x0f]; // kVersion, 15
const OBJECT = 0x6f; // 'o'
const END_OBJECT = 0x7b; // '{'
const ONE_BYTE = 0x22; // '"'
const TWO_BYTE = 0x63; // 'c'
const PADDING = 0x00;
const DOUBLE = 0x4e; // 'N'
const KEY_J = [ONE_BYTE, 1, 0x6a];
const KEY_X = [ONE_BYTE, 1, 0x78];

/** An envelope as the store writes it. */
export interface Envelope {
  j: string;
  x?: number;
}

/**
 * Whether `v` is exactly an envelope: a plain object whose own enumerable
 * properties are `j` (a string) and, optionally, `x` (a number).
 *
 * @example
 * ```ts
 * isEnvelope({ j: "1" }); // true
 * isEnvelope({ j: "1", y: 2 }); // false
 * ```
 */
export function isEnvelope(v: unknown): v is Envelope {
  if (typeof v !== "object" || v === null || Object.getPrototypeOf(v) !== Object.prototype) {
    return false;
  }
  let count = 0;
  for (const k in v) {
    if (k !== "j" && k !== "x") return false;
    count++;
  }
  const { j, x } = v as Envelope;
  return typeof j === "string" &&
    (x === undefined ? count === 1 : typeof x === "number" && count === 2);
}

/**
 * The V8 serialisation of an envelope, as `v8.serialize()` writes it.
 *
 * @example
 * ```ts
 * import { deserialize } from "node:v8";
 * deserialize(serializeEnvelope({ j: '{"a":1}', x: 1_700_000_000_000 })); // { j: '{"a":1}', x: 1700000000000 }
 * ```
 */
export function serializeEnvelope(envelope: Envelope): Uint8Array {
  const { j, x } = envelope;
  const wide = WIDE.test(j);
  const length = wide ? j.length * 2 : j.length;
  // Header, 'o', key, padding, tag, a varint of at most 5 bytes, the text, key and double, '{' and a count.
  const out = Buffer.allocUnsafe(2 + 1 + 3 + 1 + 1 + 5 + length + 3 + 9 + 2);
  let at = 0;
  const put = (bytes: readonly number[]) => {
    for (const b of bytes) out[at++] = b;
  };
  put(HEADER);
  out[at++] = OBJECT;
  put(KEY_J);
  if (wide) {
    // V8 aligns two-byte strings: a padding byte when the text would start at an odd offset.
    if ((at + 1 + varintSize(length)) & 1) out[at++] = PADDING;
    out[at++] = TWO_BYTE;
    at = varint(out, at, length);
    at += out.write(j, at, "utf16le"); // UTF-16 code units, little-endian, as V8 holds them
  } else {
    out[at++] = ONE_BYTE;
    at = varint(out, at, length);
    at += out.write(j, at, "latin1");
  }
  if (x !== undefined) {
    put(KEY_X);
    out[at++] = DOUBLE;
    at = out.writeDoubleLE(x, at);
  }
  out[at++] = END_OBJECT;
  out[at++] = x === undefined ? 1 : 2;
  return out.subarray(0, at);
}

function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n >>>= 7;
    size++;
  }
  return size;
}

function varint(out: Uint8Array, at: number, n: number): number {
  while (n >= 0x80) {
    out[at++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  out[at++] = n;
  return at;
}

const ZIGZAG_INT = 0x49; // 'I'

/**
 * Reads an envelope back from V8's serialisation, written by Node (format version 15) or by
 * Deno (16, which Node's `v8.deserialize()` refuses as an unknown version; an envelope's bytes
 * are the same in both). Undefined for anything that is not exactly an envelope: the caller
 * then deserialises it as V8 would.
 *
 * @example
 * ```ts
 * deserializeEnvelope(serializeEnvelope({ j: "{}" })); // { j: "{}" }
 * ```
 */
export function deserializeEnvelope(bytes: Uint8Array): Envelope | undefined {
  let at = 0;
  const n = bytes.length;
  const byte = () => (at < n ? bytes[at++] : -1);
  const readVarint = () => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const b = byte();
      if (b < 0 || shift > 28) return -1;
      value += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return value;
      shift += 7;
    }
  };
  /** A string at `at` (padding first, as V8 aligns two-byte strings), or undefined. */
  const readString = (): string | undefined => {
    let tag = byte();
    while (tag === PADDING) tag = byte();
    const length = readVarint();
    if (length < 0 || at + length > n) return undefined;
    const start = at;
    at += length;
    if (tag === ONE_BYTE) {
      return Buffer.from(bytes.buffer, bytes.byteOffset + start, length).toString("latin1");
    }
    if (tag === TWO_BYTE && length % 2 === 0) {
      return Buffer.from(bytes.buffer, bytes.byteOffset + start, length).toString("utf16le");
    }
    return undefined;
  };
  if (byte() !== HEADER[0]) return undefined;
  const version = byte();
  if (version < 13 || version > 16 || byte() !== OBJECT) return undefined;
  let j: string | undefined;
  let x: number | undefined;
  let count = 0;
  for (;;) {
    if (at < n && bytes[at] === END_OBJECT) {
      at++;
      if (readVarint() !== count || at !== n || j === undefined) return undefined;
      return x === undefined ? { j } : { j, x };
    }
    const key = readString();
    if (key === "j" && j === undefined) {
      j = readString();
      if (j === undefined) return undefined;
    } else if (key === "x" && x === undefined) {
      const tag = byte();
      if (tag === DOUBLE) {
        if (at + 8 > n) return undefined;
        x = Buffer.from(bytes.buffer, bytes.byteOffset + at, 8).readDoubleLE(0);
        at += 8;
      } else if (tag === ZIGZAG_INT) {
        const z = readVarint();
        if (z < 0) return undefined;
        x = z % 2 ? -(z + 1) / 2 : z / 2;
      } else return undefined;
    } else return undefined;
    count++;
  }
}
