// Runs every case of the host_context conformance vectors (tests/conformance/host-context.json).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { parseHostContext } from "./host_context.ts";
import { formatIssues } from "./issues.ts";

interface Case {
  name: string;
  input: unknown;
  expect: "accept" | "reject";
  canonical_includes?: unknown;
  canonical_has_keys?: string[];
  path?: string;
  message_includes?: string;
}

const file = new URL("../tests/conformance/host-context.json", import.meta.url);
const { cases } = JSON.parse(await readFile(file, "utf8")) as { cases: Case[] };

// Objects match key by key; arrays element by element with equal length; the rest strictly.
function assertIncludes(actual: unknown, expected: unknown, where = "value"): void {
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${where} should be an array`);
    assert.equal(actual.length, expected.length, `${where} should have ${expected.length} items`);
    expected.forEach((item, i) => assertIncludes(actual[i], item, `${where}[${i}]`));
  } else if (typeof expected === "object" && expected !== null) {
    assert.ok(typeof actual === "object" && actual !== null, `${where} should be an object`);
    for (const [key, value] of Object.entries(expected)) {
      assertIncludes((actual as Record<string, unknown>)[key], value, `${where}.${key}`);
    }
  } else {
    assert.equal(actual, expected, `${where} should be ${JSON.stringify(expected)}`);
  }
}

test("the conformance file holds the 36 agreed cases", () => {
  assert.equal(cases.length, 36);
});

for (const c of cases) {
  test(`conformance: ${c.name}`, () => {
    const result = parseHostContext(c.input);
    if (c.expect === "accept") {
      assert.ok(result.ok, result.ok ? "" : formatIssues(result.issues, "host_context"));
      assert.equal(result.value.version, 1);
      if (c.canonical_includes !== undefined) assertIncludes(result.value, c.canonical_includes);
      for (const key of c.canonical_has_keys ?? []) {
        assert.ok(Object.hasOwn(result.value, key), `canonical form should have ${key}`);
      }
    } else {
      assert.ok(!result.ok, "the input should be rejected");
      assert.ok(result.issues.length > 0);
      if (c.path !== undefined) {
        const paths = result.issues.map((issue) => issue.path);
        assert.ok(
          paths.includes(c.path),
          `expected an issue at ${c.path}, got ${paths.join(", ")}`,
        );
      }
      if (c.message_includes !== undefined) {
        const message = formatIssues(result.issues, "host_context");
        assert.ok(message.includes(c.message_includes), message);
      }
    }
  });
}
