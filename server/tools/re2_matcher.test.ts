import { test } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { validateJsonSchema } from "../../protocol/mod.ts";
import { re2Matcher } from "./re2_matcher.ts";

/**
 * Validation with RE2 and the 50 ms deadline lifted, for the tests of what a pattern matches:
 * on a loaded machine one pause can outlast 50 ms, and that budget has a test of its own below.
 */
const check = (schema: Record<string, unknown>, value: unknown) =>
  validateJsonSchema(schema, value, { matcher: re2Matcher, deadlineMs: 5_000 });

test("a catastrophic pattern is checked in linear time by the server's engine", () => {
  const schema = { type: "string", pattern: "^(a+)+$" };
  const started = performance.now();
  const issues = check(schema, "a".repeat(4_000) + "!");
  assert.equal(issues.length, 1);
  assert.match(issues[0].message, /must match the pattern/);
  assert.ok(performance.now() - started < 1_000, "RE2 does not backtrack");
  assert.deepEqual(check(schema, "aaaa"), []);
});

test("patterns match anywhere unless anchored, as JSON Schema says", () => {
  assert.deepEqual(check({ pattern: "b+" }, "abc"), []);
  assert.equal(check({ pattern: "^b" }, "abc").length, 1);
});

test("a pattern RE2 cannot compile is reported as a schema fault, not run", () => {
  const issues = check({ pattern: "(a)\\1" }, "aa");
  assert.match(issues[0].message, /not a valid regular expression/);
});

test("RE2's compiled size prices each test: 150 tests of a 403-instruction program stop within the budget", () => {
  const schema = { allOf: Array.from({ length: 150 }, () => ({ pattern: "(.*){100}$" })) };
  assert.equal((re2Matcher("(.*){100}$") as { size?: number }).size, 403);
  const started = process.cpuUsage();
  const issues = validateJsonSchema(schema, "a".repeat(3_000), { matcher: re2Matcher });
  const { user, system } = process.cpuUsage(started);
  const took = (user + system) / 1000;
  assert.match(issues[0].message, /could not be checked within/);
  // Unpriced, these 150 tests take seconds; priced, none starts. The deadline is 50 ms. The
  // bound is on this process's processor time: a loaded machine stretches wall time, not it.
  assert.ok(took < 100, `validation took ${took.toFixed(0)} ms of processor time`);
});
