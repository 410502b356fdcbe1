import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { CHUNKS, openKv } from "./_denokv.ts";
import { denoKvStore } from "./denokv.ts";
import { runStoreContract } from "./store.case.ts";

const dir = await mkdtemp(join(tmpdir(), "tether-denokv-"));
after(() => rm(dir, { recursive: true, force: true }));

runStoreContract("denokv", { open: () => denoKvStore(join(dir, "contract", "store.db")) });

test("denokv store creates the folder of its file and keeps data across reopen", async () => {
  const path = join(dir, "nested", "deeper", "kv.db");
  const first = await denoKvStore(path);
  await first.set(["session", "s1"], { turn: 3 });
  await first.close();
  const second = await denoKvStore(path);
  assert.deepEqual((await second.get(["session", "s1"]))?.value, { turn: 3 });
  await second.close();
});

test("denokv store refuses commits over Deno KV limits with a clear error", async () => {
  const store = await denoKvStore(join(dir, "limits.db"));
  try {
    const mutations = Array.from({ length: 1001 }, (_, i) => ({ key: ["m", `${i}`], value: i }));
    await assert.rejects(store.atomic([], mutations), /at most 1000 keys per commit/);
    const checks = Array.from({ length: 101 }, (_, i) => ({ key: ["c", `${i}`], version: null }));
    await assert.rejects(store.atomic(checks, []), /checks at most \d+ keys per commit/);
    const big = Array.from(
      { length: 20 },
      (_, i) => ({ key: ["b", `${i}`], value: "x".repeat(50_000) }),
    );
    assert.equal(await store.atomic([], big), true);
    assert.equal((await store.list(["b"])).length, 20);
  } finally {
    await store.close();
  }
});

test("denokv store leaves no chunks behind when large values are replaced, deleted or refused", async () => {
  const path = join(dir, "chunks.db");
  const store = await denoKvStore(path);
  const big = "x".repeat(300_000);
  await store.set(["m", "1"], big);
  await store.set(["m", "1"], big + "y");
  await store.set(["m", "1"], "small");
  await store.set(["m", "2"], big);
  await store.atomic([], [{ key: ["m", "2"] }, { key: ["m", "3"], value: big }]);
  await store.delete(["m", "3"]);
  assert.equal(
    await store.atomic([{ key: ["m", "1"], version: null }], [{ key: ["m", "4"], value: big }]),
    false,
  );
  await Promise.all(Array.from({ length: 5 }, (_, i) => store.set(["m", "5"], big + i)));
  await store.delete(["m", "5"]);
  await store.close();
  const { kv } = await openKv(path);
  let chunks = 0;
  for await (const _ of kv.list({ prefix: [CHUNKS] })) chunks++;
  kv.close();
  assert.equal(chunks, 0);
});

test("denokv store answers each of many concurrent commits as it would alone, in order per key", async () => {
  const store = await denoKvStore(join(dir, "group.db"));
  try {
    await store.set(["g", "taken"], 0);
    const taken = (await store.get(["g", "taken"]))!.version;
    // Commits queued together: some checks hold, some fail, several write the same key.
    const results = await Promise.all(Array.from({ length: 60 }, (_, i) => {
      if (i % 4 === 0) {
        return store.atomic([{ key: ["g", "taken"], version: null }], [
          { key: ["g", `x${i}`], value: i },
        ]);
      }
      if (i % 4 === 1) return store.set(["g", "last"], i).then(() => true);
      return store.atomic([{ key: ["g", `k${i}`], version: null }], [
        { key: ["g", `k${i}`], value: i },
        { key: ["g", `m${i}`], value: { i } },
      ]);
    }));
    results.forEach((ok, i) => assert.equal(ok, i % 4 !== 0, `commit ${i}`));
    assert.equal((await store.get(["g", "last"]))?.value, 57);
    assert.equal((await store.get(["g", "taken"]))?.version, taken);
    const keys = (await store.list(["g"])).map((e) => e.key[1]);
    assert.equal(keys.filter((k) => k.startsWith("x")).length, 0);
    assert.equal(keys.filter((k) => k.startsWith("k")).length, 30);
    assert.equal(keys.filter((k) => k.startsWith("m")).length, 30);
  } finally {
    await store.close();
  }
});

test("denokv store takes keys up to Deno KV's 2 KiB and refuses longer ones before writing", async () => {
  const store = await denoKvStore(join(dir, "keys.db"));
  try {
    // ["k", part]: 3 bytes for "k", 2 around the part, so 2043 bytes of part is exactly 2048.
    const near = ["k", "a".repeat(2043)];
    await store.set(near, 1);
    assert.equal((await store.get(near))?.value, 1);
    const over = ["k", "a".repeat(2044)];
    await assert.rejects(store.set(over, 1), /2049 bytes in Deno KV, over its limit of 2048/);
    await assert.rejects(store.get(over), /over its limit of 2048/);
    await assert.rejects(
      store.atomic([{ key: over, version: null }], []),
      /check key takes 2049 bytes/,
    );
    const wide = ["k", "é".repeat(1022)]; // 2044 bytes of UTF-8 + 5
    await assert.rejects(store.set(wide, 1), /2049 bytes/);
    assert.equal((await store.list(["k"])).length, 1);
  } finally {
    await store.close();
  }
});

test("commits queued together stay within Deno KV's bytes a commit: text of two-byte characters and long keys", async () => {
  // Each commit alone is within Deno KV's limits; all at once they are not. The store's write
  // queue puts waiting commits into one, so it must count as Deno KV does: a character of "日"
  // is two bytes in a value, and written keys may take 80 KiB in all.
  const store = await denoKvStore(join(dir, "group-bytes.db"));
  try {
    const wide = (tag: string) =>
      Array.from(
        { length: 10 },
        (_, i) => ({ key: ["w", tag, `${i}`], value: "日".repeat(29_000) }),
      );
    const longKeys = (tag: string) =>
      Array.from(
        { length: 20 },
        (_, i) => ({ key: ["k", tag, `${i}`.padStart(110, "0")], value: i }),
      );
    const results = await Promise.allSettled([
      store.commit([], [{ key: ["first"], value: 1 }]),
      store.commit([], wide("a")),
      store.commit([], wide("b")),
      ...Array.from({ length: 40 }, (_, i) => store.commit([], longKeys(`${i}`))),
    ]);
    const failed = results.filter((r) => r.status === "rejected");
    assert.deepEqual(failed.map((r) => String((r as PromiseRejectedResult).reason)), []);
    assert.equal((await store.list(["w"])).length, 20);
    assert.equal((await store.list(["k"])).length, 800);
  } finally {
    await store.close();
  }
});
