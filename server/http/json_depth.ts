/**
 * Bounds the nesting of untrusted JSON before zod or any recursive code sees
 * it. The walk is iterative (an explicit stack), so a value nested a million
 * levels deep costs time linear in its size and never the call stack.
 *
 * @module
 */
import { TetherError } from "./errors.ts";

/** The default deepest nesting of a request body (objects and arrays), `LIMITS__MAX_JSON_DEPTH`. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/**
 * The path of the first value nested deeper than `maxDepth` (the body itself is depth 1), or null.
 *
 * @example
 * ```ts
 * tooDeep({ a: { b: [1] } }, 2); // ["a", "b"]
 * tooDeep({ a: 1 }, 2); // null
 * ```
 */
export function tooDeep(value: unknown, maxDepth: number): (string | number)[] | null {
  const stack: { value: unknown; depth: number; path: (string | number)[] }[] = [
    { value, depth: 1, path: [] },
  ];
  while (stack.length) {
    const { value: node, depth, path } = stack.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth > maxDepth) return path;
    // Paths are built only for the first few levels: the answer names where the nesting starts.
    const short = path.length < SHOWN;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        stack.push({ value: node[i], depth: depth + 1, path: short ? [...path, i] : path });
      }
    } else {
      for (const key of Object.keys(node)) {
        const child = (node as Record<string, unknown>)[key];
        stack.push({ value: child, depth: depth + 1, path: short ? [...path, key] : path });
      }
    }
  }
  return null;
}

const SHOWN = 6;

/**
 * Like {@linkcode tooDeep} on JSON text, before parsing it: one linear pass that
 * stops at the first bracket too deep, so a body of millions of brackets costs
 * microseconds instead of a long parse. Invalid JSON is left to the parser.
 *
 * @example
 * ```ts
 * tooDeepText('{"a":{"b":[1]}}', 2); // ["a", "b"]
 * ```
 */
export function tooDeepText(text: string, maxDepth: number): (string | number)[] | null {
  const objects: boolean[] = [];
  // Per level shown: an array's index, or where an object's key opens (read only if returned).
  const path: number[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      if (expectKey && objects.length <= SHOWN) path[objects.length - 1] = i;
      expectKey = false;
      i = closingQuote(text, i);
    } else if (c === 0x7b || c === 0x5b) {
      if (objects.length >= maxDepth) {
        return path.slice(0, Math.min(objects.length, SHOWN)).map((at, level) =>
          objects[level] ? keyAt(text, at) : at
        );
      }
      objects.push(c === 0x7b);
      expectKey = c === 0x7b;
      if (c === 0x5b && objects.length <= SHOWN) path[objects.length - 1] = 0;
    } else if (c === 0x7d || c === 0x5d) {
      objects.pop();
      path.length = Math.min(path.length, objects.length);
      expectKey = false;
    } else if (c === 0x2c && objects.length > 0) {
      const level = objects.length - 1;
      if (objects[level]) expectKey = true;
      else if (objects.length <= SHOWN) path[level]++;
    }
  }
  return null;
}

/**
 * Where the string opened at `open` closes (the text's length when it never does): the next
 * quote that an even number of backslashes precedes. `indexOf` finds each quote at native
 * speed; each run of backslashes is looked at once, so the search stays linear.
 */
function closingQuote(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    let before = at - 1;
    while (text.charCodeAt(before) === 0x5c) before--;
    if ((at - 1 - before) % 2 === 0) return at;
  }
  return text.length;
}

/** The key whose quote opens at `at`, decoded (its raw text when it is not a valid string). */
function keyAt(text: string, at: number): string {
  const quoted = text.slice(at, closingQuote(text, at) + 1);
  try {
    return JSON.parse(quoted) as string;
  } catch {
    // The parser reports invalid strings; the raw text names the key well enough here.
    return quoted.slice(1, -1);
  }
}

function refuse(path: (string | number)[], maxDepth: number, what: string): never {
  const field = path.length ? path.join(".") : "body";
  const message = `${field} in ${what} is nested more than ${maxDepth} levels deep; flatten it.`;
  throw new TetherError(422, "validation", message, { issues: [{ path: field, message }] });
}

/**
 * Throws a 422 naming the field when JSON `text` is nested deeper than `maxDepth`.
 *
 * @example
 * ```ts
 * assertDepthText(await request.text(), 64);
 * ```
 */
export function assertDepthText(text: string, maxDepth: number, what = "the request body"): void {
  const path = tooDeepText(text, maxDepth);
  if (path !== null) refuse(path, maxDepth, what);
}

/**
 * Throws a 422 naming the field when `value` is nested deeper than `maxDepth`.
 *
 * @example
 * ```ts
 * assertDepth(JSON.parse(text), 64, "the request body");
 * ```
 */
export function assertDepth(value: unknown, maxDepth: number, what = "the request body"): void {
  const path = tooDeep(value, maxDepth);
  if (path !== null) refuse(path, maxDepth, what);
}
