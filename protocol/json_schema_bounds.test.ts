import { test } from "node:test";
import assert from "node:assert/strict";
import { checkJsonSchema, validateJsonSchema } from "./mod.ts";

test("a schema that refers back to the same value without reading it is refused", () => {
  const issues = checkJsonSchema({
    type: "object",
    properties: {},
    anyOf: [{ $ref: "#" }, { $ref: "#" }],
  });
  assert.equal(issues.length, 1);
  assert.match(issues[0].message, /never end/);
});

test("a recursive schema that reads the value on each loop is accepted", () => {
  const tree = {
    type: "object",
    properties: { children: { type: "array", items: { $ref: "#" } } },
  };
  assert.deepEqual(checkJsonSchema(tree), []);
  assert.deepEqual(validateJsonSchema(tree, { children: [{ children: [] }] }), []);
});

test("alternatives that multiply are refused with the path where they start", () => {
  const defs: Record<string, unknown> = { d20: { type: "string" } };
  for (let i = 0; i < 20; i++) {
    defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  }
  const issues = checkJsonSchema({ type: "object", $defs: defs });
  assert.equal(issues.length, 1);
  assert.match(issues[0].path, /^\$defs\.d\d+$/);
});

test("unresolvable references, huge schemas and long patterns are refused", () => {
  assert.match(checkJsonSchema({ $ref: "https://example.com/x" })[0].path, /\$ref$/);
  let deep: unknown = { type: "string" };
  for (let i = 0; i < 40; i++) deep = { type: "object", properties: { a: deep } };
  assert.match(checkJsonSchema(deep)[0].message, /nested more than/);
  assert.match(checkJsonSchema({ pattern: "a".repeat(2_000) })[0].path, /^pattern$/);
});

test("validation that runs out of its step budget fails with an issue instead of running on", () => {
  const issues = validateJsonSchema({ anyOf: [{ $ref: "#" }, { $ref: "#" }] }, 1, {
    maxSteps: 500,
  });
  assert.equal(issues.length, 1);
  assert.match(issues[0].message, /could not be checked within 500 steps/);
});

test("strings longer than the pattern bound are refused without running the pattern", () => {
  let ran = false;
  const matcher = () => (_: string) => (ran = true);
  const issues = validateJsonSchema({ pattern: "a" }, "a".repeat(50), {
    matcher,
    maxPatternInput: 10,
  });
  assert.equal(ran, false);
  assert.match(issues[0].message, /too long to check against its pattern/);
});
