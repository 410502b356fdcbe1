import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { type Kv, type KvKey, openKv } from "./_denokv.ts";
import { KvWriter } from "./_denokv_writer.ts";

const dir = await mkdtemp(join(tmpdir(), "tether-kvwriter-"));
after(() => rm(dir, { recursive: true, force: true }));

/** The real handle, with a hook run after each multi-key read (where a rival writer may strike). */
function withRival(kv: Kv, rival: (keys: KvKey[]) => Promise<void>): Kv {
  return {
    get: (key) => kv.get(key),
    list: (selector, options) => kv.list(selector, options),
    atomic: () => kv.atomic(),
    close: () => kv.close(),
    getMany: async (keys) => {
      const out = await kv.getMany(keys);
      await rival(keys);
      return out;
    },
  };
}

test("queued commits go out as one group, and a rival write between its read and commit sends each back alone", async () => {
  const { kv, limits } = await openKv(join(dir, "rival.db"));
  try {
    await kv.atomic().set(["w", "a"], { j: "0" }).commit();
    const version = (await kv.get(["w", "a"])).versionstamp;
    let groups = 0;
    let struck = false;
    const writer = new KvWriter(
      withRival(kv, async (keys) => {
        if (keys.length > 2) groups++;
        if (!struck && keys.some((k) => k[1] === "a")) {
          struck = true;
          await kv.atomic().set(["w", "a"], { j: "99" }).commit();
        }
      }),
      limits,
    );
    const first = writer.commit([], [{ key: ["w", "first"], value: 0 }]);
    const queued = [
      writer.commit([{ key: ["w", "a"], version }], [{ key: ["w", "a"], value: 1 }]),
      ...Array.from(
        { length: 4 },
        (_, i) =>
          writer.commit([{ key: ["w", `b${i}`], version: null }], [{
            key: ["w", `b${i}`],
            value: i,
          }]),
      ),
    ];
    assert.equal(await first, true);
    assert.deepEqual(await Promise.all(queued), [false, true, true, true, true]);
    assert.equal(groups, 1, "the five queued commits were read as one group");
    assert.deepEqual((await kv.get(["w", "a"])).value, { j: "99" });
    for (let i = 0; i < 4; i++) {
      assert.deepEqual((await kv.get(["w", `b${i}`])).value, { j: `${i}` });
    }
  } finally {
    kv.close();
  }
});

test("a fresh write is stored without reading its key first, alone and in a group", async () => {
  const { kv, limits } = await openKv(join(dir, "fresh.db"));
  try {
    const read: string[] = [];
    const writer = new KvWriter(
      withRival(kv, (keys) => {
        for (const k of keys) read.push(String(k[1]));
        return Promise.resolve();
      }),
      limits,
    );
    const alone = writer.commit([], [
      { key: ["f", "log0"], value: 0, fresh: true },
      { key: ["f", "plain"], value: 1 },
    ]);
    const grouped = [1, 2, 3].map((i) =>
      writer.commit([{ key: ["f", `rec${i}`], version: null }], [
        { key: ["f", `rec${i}`], value: i },
        { key: ["f", `log${i}`], value: i, fresh: true },
      ])
    );
    assert.equal(await alone, true);
    assert.deepEqual(await Promise.all(grouped), [true, true, true]);
    assert.deepEqual(read.sort(), ["plain", "rec1", "rec2", "rec3"]);
    for (let i = 0; i < 4; i++) {
      assert.deepEqual((await kv.get(["f", `log${i}`])).value, { j: `${i}` });
    }
  } finally {
    kv.close();
  }
});
