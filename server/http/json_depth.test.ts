import { test } from "node:test";
import assert from "node:assert/strict";
import { tooDeep, tooDeepText } from "./json_depth.ts";

const nested = (levels: number) => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: [value] };
  return { host_context: { background: value }, content: "x" };
};

test("the text scan and the value walk agree on the path of the first too-deep value", () => {
  const value = nested(100);
  const text = JSON.stringify(value);
  assert.deepEqual(tooDeepText(text, 64), tooDeep(value, 64));
  assert.deepEqual(tooDeepText(text, 64)?.slice(0, 4), ["host_context", "background", "a", 0]);
});

test("values within the bound pass, strings full of brackets do not count", () => {
  const value = { s: "[[[[{{{{".repeat(100), list: [[1, [2]], { 'k\\"': [3] }] };
  assert.equal(tooDeepText(JSON.stringify(value), 4), null);
  assert.equal(tooDeep(value, 4), null);
  assert.deepEqual(tooDeepText(JSON.stringify(value), 3), ["list", 0, 1]);
});

test("a million brackets are refused without parsing and without recursion", () => {
  const text = "[".repeat(1_000_000) + "]".repeat(1_000_000);
  assert.deepEqual(tooDeepText(text, 64), [0, 0, 0, 0, 0, 0]);
  const deep: unknown[] = [];
  let node = deep;
  for (let i = 0; i < 100_000; i++) node.push(node = []);
  assert.notEqual(tooDeep(deep, 64), null);
});

test("keys and strings with quotes and backslashes end where JSON ends them, at any depth", () => {
  // Strings that end in backslashes, hold escaped quotes and brackets, as keys and as values.
  const tricky = ["a\\", "b\\\\", 'c"', '\\"[', '{"}', "", '\\\\\\"'];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const random = (depth: number): unknown => {
    const r = next();
    if (depth === 0 || r < 0.25) return tricky[Math.floor(next() * tricky.length)];
    if (r < 0.6) return Array.from({ length: 1 + Math.floor(next() * 3) }, () => random(depth - 1));
    return Object.fromEntries(
      Array.from(
        { length: 1 + Math.floor(next() * 3) },
        (_, i) => [tricky[Math.floor(next() * tricky.length)] + i, random(depth - 1)],
      ),
    );
  };
  /** Levels of containers in `v`: 0 for a string, 1 for `[]`. */
  const nesting = (v: unknown): number =>
    v !== null && typeof v === "object"
      ? 1 + Math.max(0, ...Object.values(v as object).map(nesting))
      : 0;
  let refused = 0;
  for (let round = 0; round < 300; round++) {
    const value = { host_context: random(9) };
    const text = JSON.stringify(value);
    for (const max of [2, 4, 6, 9]) {
      const path = tooDeepText(text, max);
      // The scan and the walk may each name a different branch; they agree whether one is too deep.
      assert.equal(path === null, tooDeep(value, max) === null, `${text} at ${max}`);
      if (path === null) continue;
      refused++;
      // The path is real, key by key, and leads to where the nesting goes past the bound.
      let node: unknown = value;
      for (const part of path) {
        assert.ok(Object.hasOwn(node as object, part), `${String(part)} of ${text} at ${max}`);
        node = (node as Record<string | number, unknown>)[part];
      }
      assert.ok(nesting(node) >= max + 1 - path.length, `${path.join("/")} of ${text} at ${max}`);
    }
  }
  assert.ok(refused > 100, "most rounds hold a value too deep for the lower bounds");
  // A string never closed: the scan ends, and the parser reports the text.
  assert.equal(tooDeepText('{"a": "never closed \\" [[[[[[', 2), null);
});
