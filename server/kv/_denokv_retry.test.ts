import assert from "node:assert/strict";
import { test } from "node:test";
import type { Kv, KvAtomic, KvEntryMaybe } from "./_denokv.ts";
import { isLocked, retryingKv } from "./_denokv_retry.ts";

/** A Deno KV handle whose first `locked` requests fail the way SQLite's busy answer does. */
function busyKv(locked: number, error = "database is locked") {
  let failures = locked;
  const commits: unknown[][] = [];
  const fail = () => {
    if (failures-- > 0) throw new TypeError(error);
  };
  const entry = (key: readonly unknown[]): KvEntryMaybe => ({
    key: key as KvEntryMaybe["key"],
    value: 1,
    versionstamp: "01",
  });
  const kv: Kv = {
    get: (key) => Promise.resolve().then(() => (fail(), entry(key))),
    getMany: (keys) => Promise.resolve().then(() => (fail(), keys.map(entry))),
    async *list() {
      fail();
      yield entry(["a"]);
      yield entry(["b"]);
    },
    atomic() {
      const steps: unknown[] = [];
      const op: KvAtomic = {
        check: (...c) => (steps.push(["check", c]), op),
        set: (k, v) => (steps.push(["set", k, v]), op),
        delete: (k) => (steps.push(["delete", k]), op),
        commit: () =>
          Promise.resolve().then(() => {
            fail();
            commits.push(steps);
            return { ok: true, versionstamp: "02" };
          }),
      };
      return op;
    },
    close() {},
  };
  return { kv, commits };
}

test("a locked database is retried for reads, lists and commits, and the commit is rebuilt whole", async () => {
  const { kv, commits } = busyKv(3);
  const retried = retryingKv(kv);
  assert.equal((await retried.get(["k"])).value, 1);
  const again = busyKv(2);
  const listed = [];
  for await (const e of retryingKv(again.kv).list({ prefix: [] })) listed.push(e.key[0]);
  assert.deepEqual(listed, ["a", "b"]);
  const third = busyKv(4);
  const result = await retryingKv(third.kv).atomic().check({ key: ["k"], versionstamp: null })
    .set(["k"], 2).commit();
  assert.deepEqual(result, { ok: true, versionstamp: "02" });
  assert.deepEqual(third.commits, [[["check", [{ key: ["k"], versionstamp: null }]], [
    "set",
    ["k"],
    2,
  ]]]);
  assert.equal(commits.length, 0);
});

test("any other error is not retried", async () => {
  const { kv } = busyKv(1, "value too large");
  await assert.rejects(retryingKv(kv).get(["k"]), /value too large/);
  assert.equal(isLocked(new Error("SQLITE_BUSY: database is locked")), true);
  assert.equal(isLocked(new Error("the key is too long")), false);
});
