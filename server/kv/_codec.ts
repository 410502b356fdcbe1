/**
 * Key and value codecs shared by the adapters (private to `server/kv/`).
 *
 * `encodeKey()` turns a key into one string whose byte order (UTF-8, as
 * Redis ZRANGEBYLEX and Postgres `COLLATE "C"` compare) equals the order of
 * the keys compared part by part, and in which `["a"]` is not a prefix of
 * `["ab"]`: every part ends with `\x01`, and the three smallest characters
 * inside a part are escaped as `\x02` followed by the character plus one.
 * No NUL is ever produced, so the result fits a Postgres `text` column.
 *
 * @module
 */

import type { Key } from "./store.ts";

const END = "\x01";
const ESCAPE = "\x02";
// deno-lint-ignore no-control-regex -- these control characters are what the encoding escapes
const SPECIAL = /[\x00-\x02]/;
// deno-lint-ignore no-control-regex -- as above
const SPECIAL_ALL = /[\x00-\x02]/g;

/** Throws a TypeError unless `key` is an array of one or more non-empty strings. */
export function assertKey(key: Key, what = "key"): void {
  if (!Array.isArray(key) || key.length === 0) {
    throw new TypeError(`Store ${what} must be a non-empty array of strings; got ${show(key)}.`);
  }
  for (const part of key) {
    if (typeof part !== "string" || part.length === 0) {
      throw new TypeError(`Store ${what} parts must be non-empty strings; got ${show(key)}.`);
    }
  }
}

/** Encodes a key as an order-preserving, prefix-free string. */
export function encodeKey(key: Key): string {
  let out = "";
  for (const part of key) {
    out += SPECIAL.test(part)
      ? part.replace(SPECIAL_ALL, (c) => ESCAPE + String.fromCharCode(c.charCodeAt(0) + 1))
      : part;
    out += END;
  }
  return out;
}

/** Decodes a string made by `encodeKey()`. */
export function decodeKey(encoded: string): string[] {
  if (!encoded.includes(ESCAPE)) return encoded.slice(0, -1).split(END);
  const parts: string[] = [];
  let part = "";
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded[i];
    if (c === ESCAPE) part += String.fromCharCode(encoded.charCodeAt(++i) - 1);
    else if (c === END) {
      parts.push(part);
      part = "";
    } else part += c;
  }
  return parts;
}

/** Exclusive bounds (encoded) of the keys `list(prefix, { after, reverse })` may return. */
export function listBounds(prefix: Key, after: string | undefined, reverse: boolean): {
  lower: string;
  upper: string;
} {
  const start = encodeKey(prefix);
  // Every key under the prefix is `start` plus more; `\x02` sorts right after the final `\x01`.
  const end = start.slice(0, -1) + ESCAPE;
  if (after === undefined) return { lower: start, upper: end };
  const pivot = encodeKey([...prefix, after]);
  return reverse ? { lower: start, upper: pivot } : { lower: pivot, upper: end };
}

/**
 * Compares two key parts by code point, which is the UTF-8 byte order every
 * database here uses; plain `<` compares UTF-16 units and would put astral
 * characters (surrogates, U+D800–DFFF) before U+E000–FFFF.
 */
export function comparePart(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x >= 0xd800 && y >= 0xd800 ? lift(x) - lift(y) : x - y;
  }
  return a.length - b.length;
}

function lift(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/** Serialises a value as JSON text, refusing what JSON cannot hold at the top level. */
export function encodeValue(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw valueError(value);
  return text;
}

/** Throws the error of `encodeValue()` for values without JSON text, without serialising the others. */
export function assertValue(value: unknown): void {
  const kind = typeof value;
  if (kind === "undefined" || kind === "function" || kind === "symbol") throw valueError(value);
}

function valueError(value: unknown): TypeError {
  return new TypeError(
    `Store values must be JSON values; got ${typeof value}; to remove a key, delete it.`,
  );
}

/** Returns `ms` rounded up to whole milliseconds, or throws unless it is a positive number. */
export function checkExpireIn(ms: number): number {
  if (typeof ms !== "number" || !(ms > 0) || ms === Infinity) {
    throw new TypeError(`expireIn must be a positive number of milliseconds; got ${ms}.`);
  }
  return Math.ceil(ms);
}

/** The error every adapter throws once `close()` has been called. */
export function closedError(name: string): Error {
  return new Error(`The ${name} store is closed; open a new one to keep using it.`);
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
