import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { CHUNKS, type Kv, type KvKey, type KvLimits, openKv } from "./_denokv.ts";
import { KvWriter } from "./_denokv_writer.ts";

/** Whether a queued commit committed (the writer answers its versionstamp, or null). */
const ok = async (commit: Promise<unknown>) => (await commit) !== null;

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

/** A writer over `kv` that records the second part of every key its reads ask for. */
function recording(kv: Kv, limits: KvLimits): { read: string[]; writer: KvWriter } {
  const read: string[] = [];
  const writer = new KvWriter(
    withRival(kv, (keys) => {
      for (const k of keys) read.push(String(k[1]));
      return Promise.resolve();
    }),
    limits,
  );
  return { read, writer };
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
    assert.equal(await ok(first), true);
    assert.deepEqual(await Promise.all(queued.map(ok)), [false, true, true, true, true]);
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
    const { read, writer } = recording(kv, limits);
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
    assert.equal(await ok(alone), true);
    assert.deepEqual(await Promise.all(grouped.map(ok)), [true, true, true]);
    assert.deepEqual(read.sort(), ["plain", "rec1", "rec2", "rec3"]);
    for (let i = 0; i < 4; i++) {
      assert.deepEqual((await kv.get(["f", `log${i}`])).value, { j: `${i}` });
    }
    // A key this handle wrote fresh (inline) is deleted without a read: it holds no chunks.
    read.length = 0;
    assert.equal(
      await ok(writer.commit([], [{ key: ["f", "log1"] }, { key: ["f", "log2"] }])),
      true,
    );
    assert.deepEqual(read, []);
    assert.equal((await kv.get(["f", "log1"])).versionstamp, null);
    // Written fresh by another handle: read first, as any key the handle does not know.
    await kv.atomic().set(["f", "theirs"], { j: "1" }).commit();
    assert.equal(await ok(writer.commit([], [{ key: ["f", "theirs"] }])), true);
    assert.deepEqual(read, ["theirs"]);
  } finally {
    kv.close();
  }
});

test("a key the handle knows is written without a read, and a stale known version costs a retry, never chunks or data", async () => {
  const { kv, limits } = await openKv(join(dir, "known.db"));
  try {
    const { read, writer } = recording(kv, limits);
    assert.equal(await ok(writer.commit([], [{ key: ["k", "a"], value: 1 }])), true);
    assert.deepEqual(read, ["a"]);
    const version = (await kv.get(["k", "a"])).versionstamp;
    // Written by this handle: known, so neither the plain write nor the checked one reads it.
    assert.equal(await ok(writer.commit([], [{ key: ["k", "a"], value: 2 }])), true);
    const now = (await kv.get(["k", "a"])).versionstamp!;
    assert.notEqual(now, version);
    assert.equal(
      await ok(writer.commit([{ key: ["k", "a"], version: now }], [{ key: ["k", "a"], value: 3 }])),
      true,
    );
    assert.deepEqual(read, ["a"]);
    // A check at a version other than the known one still reads, and answers as the file says.
    assert.equal(
      await ok(writer.commit([{ key: ["k", "a"], version: now }], [{ key: ["k", "a"], value: 4 }])),
      false,
    );
    assert.deepEqual(read, ["a", "a"]);
    // Another handle replaces the value with a chunked one: the known version is stale.
    const rival = new KvWriter(kv, limits);
    assert.equal(
      await ok(rival.commit([], [{ key: ["k", "a"], value: "x".repeat(200_000) }])),
      true,
    );
    assert.equal(await ok(writer.commit([], [{ key: ["k", "a"], value: 5 }])), true);
    assert.deepEqual((await kv.get(["k", "a"])).value, { j: "5" });
    let chunks = 0;
    for await (const _ of kv.list({ prefix: [CHUNKS] })) chunks++;
    assert.equal(chunks, 0, "the chunks of the replaced value are deleted");
  } finally {
    kv.close();
  }
});

test("raw sets join the group of the commits queued beside them, and go alone when none is", async () => {
  const { kv, limits } = await openKv(join(dir, "raw.db"));
  let commits = 0;
  const counting: Kv = {
    get: (key) => kv.get(key),
    getMany: (keys) => kv.getMany(keys),
    list: (selector, options) => kv.list(selector, options),
    close: () => kv.close(),
    atomic: () => {
      const op = kv.atomic();
      const commit = op.commit.bind(op);
      op.commit = () => (commits++, commit());
      return op;
    },
  };
  try {
    const writer = new KvWriter(counting, limits);
    const answers = await Promise.all([
      writer.commit([{ key: ["r", "s"], version: null }], [{ key: ["r", "s"], value: 1 }]),
      writer.raw([{ key: [false, "o", "x", 0], value: { l: [], a: 1 }, expireIn: 60_000 }]),
      writer.commit([], [{ key: ["r", "t"], value: 2, fresh: true }]),
    ]);
    assert.ok(answers.every((a) => a !== null));
    assert.equal(commits, 1, "one database commit for the three");
    assert.equal(answers[1], answers[0]![0], "the raw sets committed with the rest");
    assert.deepEqual(
      (await kv.get([false, "o", "x", 0])).value,
      { l: [], a: 1 },
      "stored as given",
    );
    assert.ok(await ok(writer.raw([{ key: [false, "h", "x"], value: { n: 0, a: 1 } }])));
    assert.equal(commits, 2);
    assert.deepEqual((await kv.get([false, "h", "x"])).value, { n: 0, a: 1 });
  } finally {
    kv.close();
  }
});

test("over a handle that answers at once, the commits of one group are answered one turn of the event loop each: what awaits one runs on before the next is answered", async () => {
  const { kv, limits } = await openKv(join(dir, "answers.db"));
  try {
    // The real handle, declared as `node:sqlite`'s declares itself (this line may run the add-on).
    const writer = new KvWriter(
      { ...withRival(kv, () => Promise.resolve()), synchronous: true },
      limits,
    );
    const steps: string[] = [];
    // Each awaiter goes on through several microtasks, as a turn goes on through its model stream.
    const awaiter = async (name: string, commit: Promise<unknown>) => {
      assert.notEqual(await commit, null);
      for (let i = 0; i < 4; i++) {
        steps.push(`${name}${i}`);
        await Promise.resolve();
      }
    };
    // Queued in one task, so the three go out as one group.
    await Promise.all(
      ["a", "b", "c"].map((name) =>
        awaiter(name, writer.commit([], [{ key: ["answers", name], value: name }]))
      ),
    );
    assert.deepEqual(steps, [
      "a0",
      "a1",
      "a2",
      "a3",
      "b0",
      "b1",
      "b2",
      "b3",
      "c0",
      "c1",
      "c2",
      "c3",
    ]);
  } finally {
    kv.close();
  }
});
