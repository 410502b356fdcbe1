import assert from "node:assert/strict";
import { test } from "node:test";
import { newId } from "./_id.ts";

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("an id is a UUID of version 7 after its prefix, its first 48 bits the time it was made", () => {
  const before = Date.now();
  const id = newId("s-");
  const after = Date.now();
  assert.ok(id.startsWith("s-"));
  const uuid = id.slice(2);
  assert.match(uuid, V7);
  const ms = parseInt(uuid.slice(0, 8) + uuid.slice(9, 13), 16);
  assert.ok(ms >= before && ms <= after, `${ms} not within ${before}..${after}`);
});

test("ids made in later milliseconds sort after earlier ones, as strings", async () => {
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const start = Date.now();
    while (Date.now() === start) await new Promise((resolve) => setTimeout(resolve, 1));
    ids.push(newId("s-"));
  }
  assert.deepEqual([...ids].sort(), ids);
});

test("ids made in the same millisecond differ in their random bits", () => {
  const ids = Array.from({ length: 10_000 }, () => newId());
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) assert.match(id, V7);
  // The 74 random bits are spread: each hex digit of the last group takes many values.
  const digits = new Set(ids.map((id) => id.at(-1)));
  assert.equal(digits.size, 16);
});

test("the time is encoded past 32 bits of milliseconds", (t) => {
  // 2026-12-06T00:00:00Z is 0x1a248a67c00 ms: a slip to 32 bits would lose its high digits.
  const at = Date.UTC(2026, 11, 6);
  t.mock.method(Date, "now", () => at);
  const uuid = newId();
  assert.equal(uuid.slice(0, 8) + uuid.slice(9, 13), at.toString(16).padStart(12, "0"));
});

test("without Web Crypto, an id is still a UUID of version 7 and ids still differ", (t) => {
  const crypto = Object.getOwnPropertyDescriptor(globalThis, "crypto")!;
  Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true });
  t.after(() => Object.defineProperty(globalThis, "crypto", crypto));
  const ids = Array.from({ length: 1_000 }, () => newId("s-"));
  for (const id of ids) assert.match(id.slice(2), V7);
  assert.equal(new Set(ids).size, ids.length);
});
