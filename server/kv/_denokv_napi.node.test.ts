// The lean Node path against @deno/kv's own object on one handle: what one writes, the other
// reads back byte for byte (keys, values, versionstamps, expiry, order), so files stay compatible.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { openKv as libraryKv } from "@deno/kv";
import type { Kv, KvKey } from "./_denokv.ts";
import { leanKv } from "./_denokv_napi.ts";
import { packKey, unpackKey } from "./_denokv_wire.ts";

const dir = await mkdtemp(join(tmpdir(), "tether-lean-"));
after(() => rm(dir, { recursive: true, force: true }));

async function pair(name: string): Promise<{ lib: Kv; lean: Kv }> {
  const lib = await libraryKv(join(dir, name)) as unknown as Kv;
  const lean = leanKv(lib);
  assert.notEqual(lean, lib, "@deno/kv no longer exposes its native handle; the lean path is off");
  return { lib, lean };
}

const KEYS: KvKey[] = [
  ["session", "s1"],
  ["message", "s1", "00000001"],
  ["ünïcødé", "日本語", "🙂"],
  ["nul\0inside", "\0", ""],
  [true, "chunk-id", 0],
  [true, "chunk-id", 17],
  [false, -1.5, 0, 2 ** 40, -(2 ** 40), 0.25],
];

test("lean writes read back through @deno/kv and the other way round", async () => {
  const { lib, lean } = await pair("both.db");
  try {
    for (const [i, key] of KEYS.entries()) {
      const [writer, reader] = i % 2 ? [lib, lean] : [lean, lib];
      const value = i === 4 || i === 5
        ? new Uint8Array([0, 1, 2, 255])
        : { j: JSON.stringify({ i, key }) };
      const written = await writer.atomic().set(key, value).commit();
      assert.equal(written.ok, true);
      const [mine, theirs] = await Promise.all([writer.get(key), reader.get(key)]);
      assert.deepEqual(theirs.key, key);
      const plain = (v: unknown) => (v instanceof Uint8Array ? [...v] : v);
      assert.deepEqual(plain(theirs.value), plain(value));
      if (reader === lean) {
        assert.equal(Object.getPrototypeOf(theirs.value), Object.getPrototypeOf(value));
      }
      assert.equal(theirs.versionstamp, mine.versionstamp);
      assert.match(theirs.versionstamp!, /^[0-9a-f]{20}$/);
    }
    assert.deepEqual(
      (await lean.getMany([["absent"], KEYS[0]])).map((e) => e.versionstamp === null),
      [true, false],
    );
  } finally {
    lib.close();
  }
});

test("lean checks decide like the library's: a stale or missing versionstamp fails the commit", async () => {
  const { lib, lean } = await pair("checks.db");
  try {
    const key = ["session", "s2"];
    assert.equal(
      (await lean.atomic().check({ key, versionstamp: null }).set(key, 1).commit()).ok,
      true,
    );
    const first = await lib.get(key);
    assert.equal(
      (await lean.atomic().check({ key, versionstamp: null }).set(key, 2).commit()).ok,
      false,
    );
    const second = await lib.atomic().check(first as never).set(key, 3).commit();
    assert.equal(second.ok, true);
    assert.equal(
      (await lean.atomic().check({ key, versionstamp: first.versionstamp }).set(key, 4).commit())
        .ok,
      false,
    );
    const now = await lean.get(key);
    assert.equal(now.value, 3);
    assert.equal((await lean.atomic().check(now).delete(key).commit()).ok, true);
    assert.equal((await lib.get(key)).versionstamp, null);
  } finally {
    lib.close();
  }
});

test("lean lists a prefix in the library's order, forward, reverse, from a start and in batches", async () => {
  const { lib, lean } = await pair("list.db");
  try {
    const op = lib.atomic();
    for (let i = 0; i < 23; i++) op.set(["event", "s", String(i).padStart(3, "0")], i);
    op.set(["event", "t", "000"], "another session");
    op.set(["events", "s", "000"], "a longer first part");
    await op.commit();
    const read = async (kv: Kv, selector: Parameters<Kv["list"]>[0], options = {}) => {
      const out: unknown[] = [];
      for await (const e of kv.list(selector, options)) out.push([e.key, e.value, e.versionstamp]);
      return out;
    };
    for (
      const [selector, options] of [
        [{ prefix: ["event", "s"] }, { batchSize: 5 }],
        [{ prefix: ["event", "s"] }, { batchSize: 7, reverse: true }],
        [{ prefix: ["event", "s"], start: ["event", "s", "010"] }, { batchSize: 4 }],
        [{ prefix: ["event", "s"], end: ["event", "s", "010"] }, { reverse: true, batchSize: 3 }],
        [{ prefix: ["event"] }, {}],
      ] as const
    ) {
      const mine = await read(lean, selector, options);
      assert.deepEqual(mine, await read(lib, selector, options));
      assert.ok(mine.length > 0);
    }
    assert.equal((await read(lean, { prefix: ["event", "s"] })).length, 23);
    // The prefix itself is no entry under it, in either direction (@deno/kv returns it in reverse).
    await lean.atomic().set(["event", "s"], "the prefix itself").commit();
    for (const reverse of [false, true]) {
      assert.equal((await read(lean, { prefix: ["event", "s"] }, { reverse })).length, 23);
    }
  } finally {
    lib.close();
  }
});

test("keys pack to Deno KV's tuple bytes and back", () => {
  assert.deepEqual([...packKey(["a\0b", true, false])], [2, 97, 0, 255, 98, 0, 0x27, 0x26]);
  // ASCII keys (the quick path) beside the UTF-8 one: 7f is a byte as it is, 80 two bytes.
  assert.deepEqual([...packKey(["", "\x7f~ ", "s1"])], [
    2,
    0,
    2,
    0x7f,
    0x7e,
    0x20,
    0,
    2,
    0x73,
    0x31,
    0,
  ]);
  assert.deepEqual([...packKey(["s", "\x80"])], [2, 0x73, 0, 2, 0xc2, 0x80, 0]);
  assert.deepEqual([...packKey(["s", 1])].slice(0, 4), [2, 0x73, 0, 0x21]);
  for (const key of KEYS) assert.deepEqual(unpackKey(packKey(key)), key);
  assert.throws(() => unpackKey(new Uint8Array([0x15, 1])), /type code 21/);
});

test("number key parts unpack from a Node Buffer that is a view on a larger pool", () => {
  const packed = packKey([true, "c", 3]);
  const pool = Buffer.alloc(64, 0x5a);
  pool.set(packed, 17);
  const view = pool.subarray(17, 17 + packed.length);
  assert.deepEqual(unpackKey(view), [true, "c", 3]);
  assert.deepEqual([...view], [...packed], "the caller's bytes are left as they were");
});
