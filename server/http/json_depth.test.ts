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
