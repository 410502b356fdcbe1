/**
 * Value helpers of the JSON Schema validator: type tests, deep equality,
 * code point counts, a bounded regular expression cache, local `$ref` lookup.
 *
 * @module
 */
import { isObject } from "./_values.ts";

// Tool schemas repeat the same few patterns; compiling once per source is enough.
const patterns = new Map<string, RegExp | null>();
/** The compiled `pattern`, or null when it is not a valid regular expression. */
export function pattern(source: string): RegExp | null {
  let compiled = patterns.get(source);
  if (compiled !== undefined) return compiled;
  try {
    compiled = new RegExp(source, "u");
  } catch {
    compiled = null;
  }
  if (patterns.size > 256) patterns.clear();
  patterns.set(source, compiled);
  return compiled;
}

/** True when `value` is of the JSON Schema `type` named. */
export function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    default:
      return true; // an unknown type name constrains nothing rather than rejecting everything
  }
}

/** Deep equality of JSON values, as enum, const and uniqueItems need it. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => equal(item, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && equal(a[key], b[key]));
}

/** The length of `text` in Unicode code points, as minLength and maxLength count. */
export function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) count--;
  }
  return count;
}

/** Follows a local JSON pointer (`#/$defs/node`) inside `root`; undefined when absent. */
export function resolvePointer(
  root: unknown,
  ref: string,
): boolean | Record<string, unknown> | undefined {
  if (!ref.startsWith("#")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    node = isObject(node) || Array.isArray(node)
      ? (node as Record<string, unknown>)[key]
      : undefined;
  }
  return typeof node === "boolean" || isObject(node) ? node : undefined;
}
