import assert from "node:assert/strict";
import { test } from "node:test";
import { newId, now } from "./create.ts";

test("ids carry their prefix and 20 random hex digits, and never repeat across refills of the pool", () => {
  const seen = new Set<string>();
  // Past several refills of the 409-id pool.
  for (let i = 0; i < 2_000; i++) {
    const id = newId("msg");
    assert.match(id, /^msg_[0-9a-f]{20}$/);
    seen.add(id);
  }
  assert.equal(seen.size, 2_000);
  // Every digit shows up: the bytes are spread, not stuck.
  const digits = new Set([...seen].join("").replaceAll("msg_", ""));
  assert.equal(digits.size, 16);
});

test("now() is the current time in ISO 8601, to the millisecond", () => {
  const before = Date.now();
  const shown = now();
  const after = Date.now();
  assert.match(shown, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const at = Date.parse(shown);
  assert.ok(at >= before && at <= after, `${shown} is not between ${before} and ${after}`);
});
