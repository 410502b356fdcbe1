import { test } from "node:test";
import assert from "node:assert/strict";
import { validateJsonSchema } from "../../protocol/mod.ts";
import { re2Matcher } from "./re2_matcher.ts";

test("a catastrophic pattern is checked in linear time by the server's engine", () => {
  const schema = { type: "string", pattern: "^(a+)+$" };
  const started = performance.now();
  // The deadline is lifted: this measures the engine, not the 50 ms budget on a loaded machine.
  const issues = validateJsonSchema(schema, "a".repeat(4_000) + "!", {
    matcher: re2Matcher,
    deadlineMs: 5_000,
  });
  assert.equal(issues.length, 1);
  assert.match(issues[0].message, /must match the pattern/);
  assert.ok(performance.now() - started < 1_000, "RE2 does not backtrack");
  assert.deepEqual(validateJsonSchema(schema, "aaaa", { matcher: re2Matcher }), []);
});

test("patterns match anywhere unless anchored, as JSON Schema says", () => {
  assert.deepEqual(validateJsonSchema({ pattern: "b+" }, "abc", { matcher: re2Matcher }), []);
  assert.equal(validateJsonSchema({ pattern: "^b" }, "abc", { matcher: re2Matcher }).length, 1);
});

test("a pattern RE2 cannot compile is reported as a schema fault, not run", () => {
  const issues = validateJsonSchema({ pattern: "(a)\\1" }, "aa", { matcher: re2Matcher });
  assert.match(issues[0].message, /not a valid regular expression/);
});

test("RE2's compiled size prices each test: 150 tests of a 403-instruction program stop within the budget", () => {
  const schema = { allOf: Array.from({ length: 150 }, () => ({ pattern: "(.*){100}$" })) };
  assert.equal((re2Matcher("(.*){100}$") as { size?: number }).size, 403);
  const started = performance.now();
  const issues = validateJsonSchema(schema, "a".repeat(3_000), { matcher: re2Matcher });
  const took = performance.now() - started;
  assert.match(issues[0].message, /could not be checked within/);
  // Unpriced, these 150 tests take seconds; priced, none starts. The deadline is 50 ms.
  assert.ok(took < 100, `validation took ${took.toFixed(0)} ms`);
});
