import { test } from "node:test";
import assert from "node:assert/strict";
import { checkJsonSchema, validateJsonSchema } from "./mod.ts";
import { patternSize } from "./_pattern_size.ts";

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
  // A clock that stands still: the step budget alone stops it, however slow the machine (on a
  // loaded one, 500 cold steps once outran the 50 ms deadline, and the deadline's issue came).
  const issues = validateJsonSchema({ anyOf: [{ $ref: "#" }, { $ref: "#" }] }, 1, {
    maxSteps: 500,
    now: () => 0,
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

test("a pattern's program size and counted repeats are read from its text as RE2 compiles it", () => {
  // RE2 (re2js programSize) compiles these to 3,999, 9, 131 and 1,222 instructions.
  assert.deepEqual(patternSize("(.*){999}$"), { program: 3_999, repeat: 999 });
  assert.deepEqual(patternSize("^(a+)+$"), { program: 9, repeat: 0 });
  assert.deepEqual(patternSize("[a-z]{1,64}@x"), { program: 131, repeat: 64 });
  assert.equal(patternSize("((a{10}){10}){10}").program, 1_222);
});

test("patterns that compile too big or repeat too much are refused when the schema arrives", () => {
  const many = { allOf: Array.from({ length: 150 }, () => ({ pattern: "(.*){999}$" })) };
  const [issue] = checkJsonSchema(many);
  assert.match(issue.path, /^allOf\.\d+\.pattern$/);
  assert.match(issue.message, /compiles to about 3,999 instructions/);
  assert.match(checkJsonSchema({ pattern: "a{1001}" })[0].message, /repeats something 1,001 times/);
  assert.match(checkJsonSchema({ pattern: "((a{20}){20}){20}" })[0].message, /instructions/);
  assert.deepEqual(checkJsonSchema({ pattern: "^[a-z0-9-]{1,63}(\\.[a-z0-9-]{1,63})*$" }), []);
});

test("each pattern test is charged its program's size times the text, before it runs", () => {
  let ran = 0;
  const matcher = () => Object.assign((_: string) => (ran++, true), { size: 400 });
  const schema = { allOf: Array.from({ length: 150 }, () => ({ pattern: "x" })) };
  const issues = validateJsonSchema(schema, "a".repeat(3_000), { matcher });
  assert.match(issues[0].message, /could not be checked within 10,000 steps/);
  // 3,000 characters times 416 instructions is over the whole budget: not one test is started.
  assert.equal(ran, 0);
  assert.deepEqual(validateJsonSchema(schema, "aa", { matcher }), []);
  assert.equal(ran, 150);
});

test("a validation stops at its wall-clock deadline whatever its steps", () => {
  let clock = 0;
  let ran = 0;
  // Each test reads as cheap (size 1) but takes 20 ms of the clock.
  const matcher = () => Object.assign((_: string) => (ran++, (clock += 20), true), { size: 1 });
  const schema = { allOf: Array.from({ length: 100 }, () => ({ pattern: "x" })) };
  const issues = validateJsonSchema(schema, "x", { matcher, now: () => clock });
  assert.match(issues[0].message, /could not be checked within 50 ms/);
  assert.equal(ran, 3);
});
