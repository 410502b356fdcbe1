// The read batching of the Deno KV store: single keys and small snapshots asked while a read
// runs go out together, each answered with its own keys, and the write queue learns what they saw.
import assert from "node:assert/strict";
import { test } from "node:test";
import { type Kv, type KvEntryMaybe, type KvKey, openKv } from "./_denokv.ts";
import { KnownVersions } from "./_denokv_known.ts";
import { KvReader } from "./_denokv_reader.ts";

const LIMITS = { checks: 10, mutations: 1000, bytes: 819_200, keyBytes: 81_920, reads: 10 };

/** A Deno KV handle in memory that notes the keys of each read it is asked for. */
async function counted(): Promise<{ kv: Kv; reads: string[][] }> {
  const { kv: inner } = await openKv(":memory:");
  const reads: string[][] = [];
  const names = (keys: readonly KvKey[]) => keys.map((k) => String(k[1]));
  const kv: Kv = {
    get: (key) => (reads.push(names([key])), inner.get(key)),
    getMany: (keys) => (reads.push(names(keys)), inner.getMany(keys)),
    list: (selector, options) => inner.list(selector, options),
    atomic: () => inner.atomic(),
    close: () => inner.close(),
  };
  return { kv, reads };
}

test("reads asked while one runs go out together, each answered with its own keys in order", async () => {
  const { kv, reads } = await counted();
  await kv.atomic().set(["k", "a"], 1).set(["k", "c"], 3).commit();
  const reader = new KvReader(kv, LIMITS);
  const first = reader.get(["k", "a"]);
  const [one, many, last] = await Promise.all([
    reader.get(["k", "b"]),
    reader.getMany([["k", "c"], ["k", "a"]]),
    reader.get(["k", "c"]),
  ]);
  assert.equal((await first).value, 1);
  assert.equal(one.versionstamp, null);
  assert.deepEqual(many.map((e: KvEntryMaybe) => e.value), [3, 1]);
  assert.equal(last.value, 3);
  assert.deepEqual(reads, [["a"], ["b", "c", "a", "c"]]);
  kv.close();
});

test("a snapshot is never split: the batch takes the waiting reads while they fit one read", async () => {
  const { kv, reads } = await counted();
  const reader = new KvReader(kv, LIMITS);
  const keys = (prefix: string, n: number): KvKey[] =>
    Array.from({ length: n }, (_, i) => ["k", `${prefix}${i}`]);
  const running = reader.get(["k", "x"]);
  await Promise.all([
    reader.getMany(keys("p", 6)),
    reader.getMany(keys("q", 6)),
    reader.get(["k", "y"]),
    running,
  ]);
  assert.deepEqual(reads.map((r) => r.length), [1, 6, 7]);
  await assert.rejects(reader.getMany(keys("r", 11)), /11 keys is over Deno KV's 10/);
  kv.close();
});

test("what a snapshot saw is known to the write queue", async () => {
  const { kv } = await counted();
  await kv.atomic().set(["k", "a"], { j: "1" }).commit();
  const known = new KnownVersions();
  const reader = new KvReader(kv, LIMITS, known);
  const [a, b] = await reader.getMany([["k", "a"], ["k", "b"]]);
  assert.equal(known.get(["k", "a"]), a.versionstamp);
  assert.equal(known.get(["k", "b"]), null, "known absent");
  assert.equal(b.versionstamp, null);
  kv.close();
});
