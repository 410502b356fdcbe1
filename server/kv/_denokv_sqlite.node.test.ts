// The Deno KV file through node:sqlite (Node 22 and later) beside `@deno/kv` and Deno on the same
// file. On a Node without node:sqlite (20) the store opens the file with the add-on, and this file
// checks that instead.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { importDenoKv, type Kv, openKv } from "./_denokv.ts";
import { leanKv } from "./_denokv_napi.ts";
import { isLocked, retryingKv } from "./_denokv_retry.ts";
import { EXPIRY_INDEX, nodeSqlite, sqliteKv } from "./_denokv_sqlite.ts";

const dir = await mkdtemp(join(tmpdir(), "tether-sqlite-"));
after(() => rm(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `f${n++}.db`);

const major = Number(process.versions.node.split(".")[0]);
const sqlite = nodeSqlite();

/** `@deno/kv`'s handle on `path`, as the store opens it on Node 20. */
async function addonKv(path: string): Promise<Kv> {
  const { openKv: libraryKv } = await importDenoKv();
  return leanKv(await libraryKv(path) as unknown as Kv);
}

/** How many rows the index on expiry holds, read through the index itself. */
function expiringIndexed(
  db: { prepare(sql: string): { get(): Record<string, unknown> | undefined } },
) {
  return Number(
    db.prepare(
      "select count(*) as n from kv indexed by kv_expiration_ms_idx where expiration_ms >= 0",
    ).get()!.n,
  );
}

/** Runs `code` in a child process on this Node with this test's loader; its stdout and stderr. */
function node(code: string, ...args: string[]): Promise<{ out: string; err: string }> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [...process.execArgv, "--input-type=module", "-e", code, ...args],
      (
        error,
        out,
        err,
      ) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve({ out, err })),
    )
  );
}

if (sqlite === undefined) {
  test("without node:sqlite (Node 20) the store opens its file through @deno/kv", async () => {
    assert.ok(major < 22, `Node ${process.versions.node} should have node:sqlite`);
    const { kv } = await openKv(fresh());
    await kv.atomic().set(["a"], new Uint8Array([1])).commit();
    assert.deepEqual((await kv.get(["a"])).value, new Uint8Array([1]));
    // The add-on answers from callbacks of its own: the write queue answers a group at once.
    assert.notEqual(kv.synchronous, true);
    kv.close();
    if (process.platform === "linux") {
      // The add-on's runtime thread exists only once the add-on is loaded.
      const threads = readdirSync("/proc/self/task")
        .map((t) => readFileSync(`/proc/self/task/${t}/comm`, "utf8").trim());
      assert.ok(threads.some((t) => t.startsWith("tokio-rt-worker")), threads.join(", "));
    }
  });
} else {
  test("node:sqlite's handle says it answers at once, so the write queue spreads a group's answers", async () => {
    const { kv } = await openKv(fresh());
    try {
      assert.equal(kv.synchronous, true);
    } finally {
      kv.close();
    }
  });

  test(
    "on Node 22 and later the store opens its file through node:sqlite, never loading the add-on",
    {
      skip: process.platform !== "linux" && "threads are counted in /proc (Linux)",
    },
    async () => {
      assert.ok(major >= 22);
      const module = fileURLToPath(new URL("./_denokv.ts", import.meta.url));
      const { out } = await node(
        `import { readdirSync, readFileSync } from "node:fs";
      const { openKv } = await import(${JSON.stringify(module)});
      const { kv } = await openKv(process.argv[1]);
      await kv.atomic().set(["a"], 1).commit();
      const threads = readdirSync("/proc/self/task")
        .map((t) => readFileSync("/proc/self/task/" + t + "/comm", "utf8").trim());
      console.log(JSON.stringify({ value: (await kv.get(["a"])).value, threads }));
      kv.close();`,
        fresh(),
      );
      const { value, threads } = JSON.parse(out.trim().split("\n").at(-1)!);
      assert.equal(value, 1);
      assert.ok(!threads.some((t: string) => t.startsWith("tokio-rt-worker")), threads.join(", "));
    },
  );

  test("a file @deno/kv made opens through node:sqlite and the other way round, with the same tables but a narrower index on expiry", async () => {
    const made = fresh();
    const addon = await addonKv(made);
    const first = await addon.atomic().set(["b", 1], new Uint8Array([7, 8]))
      .set(["v"], { j: "[1]", x: 1e15 }).commit();
    addon.close();

    const lean = sqliteKv(sqlite, made);
    assert.deepEqual(await lean.get(["b", 1]), {
      key: ["b", 1],
      value: new Uint8Array([7, 8]),
      versionstamp: first.versionstamp,
    });
    assert.deepEqual((await lean.get(["v"])).value, { j: "[1]", x: 1e15 });
    const second = await lean.atomic().check({ key: ["b", 1], versionstamp: first.versionstamp! })
      .set(["b", 2], "two").delete(["v"]).commit();
    assert.equal(second.ok, true);
    assert.ok(second.versionstamp! > first.versionstamp!);
    lean.close();

    const again = await addonKv(made);
    assert.deepEqual(
      (await Array.fromAsync(again.list({ prefix: ["b"] }))).map((
        e,
      ) => [e.key, e.value, e.versionstamp]),
      [[["b", 1], new Uint8Array([7, 8]), first.versionstamp], [
        ["b", 2],
        "two",
        second.versionstamp,
      ]],
    );
    assert.equal((await again.get(["v"])).value, null);
    again.close();

    // A file node:sqlite made has the tables, indexes and migration state @deno/kv makes, but
    // for the index on expiry, which holds only the keys that expire; a file @deno/kv made is
    // narrowed alike once node:sqlite opens it.
    const ours = fresh();
    sqliteKv(sqlite, ours).close();
    const theirs = fresh();
    (await addonKv(theirs)).close();
    const schema = (path: string) => {
      const db = new sqlite.DatabaseSync(path);
      try {
        return {
          tables: db.prepare("select type, name, sql from sqlite_master order by name").all(),
          migrated: db.prepare("select k, version from migration_state").all(),
          counter: db.prepare("select k, version, seq from data_version").all(),
          journal: db.prepare("pragma journal_mode").get(),
        };
      } finally {
        db.close();
      }
    };
    const expiryIndex = (of: ReturnType<typeof schema>) =>
      (of.tables as { name: string; sql: string }[]).find((t) => t.name === "kv_expiration_ms_idx")
        ?.sql;
    const before = schema(theirs);
    assert.equal(expiryIndex(before), "CREATE INDEX kv_expiration_ms_idx on kv (expiration_ms)");
    assert.equal(expiryIndex(schema(ours)), EXPIRY_INDEX);
    const others = (of: ReturnType<typeof schema>) => ({
      ...of,
      tables: (of.tables as { name: string }[]).filter((t) => t.name !== "kv_expiration_ms_idx"),
    });
    assert.deepEqual(others(schema(ours)), others(before));
    sqliteKv(sqlite, theirs).close();
    assert.deepEqual(schema(theirs), schema(ours));
  });

  test("the index on expiry holds only the keys that expire, and Deno KV's own statements read them from it", async () => {
    const path = fresh();
    const lean = sqliteKv(sqlite, path);
    const addon = await addonKv(path);
    try {
      // Keys that never expire and keys that do, written on both paths.
      await lean.atomic().set(["k", 1], 1).set(["k", 2], 2, { expireIn: 60_000 }).commit();
      await addon.atomic().set(["k", 3], 3).set(["k", 4], 4, { expireIn: 60_000 }).commit();
      const db = new sqlite.DatabaseSync(path);
      try {
        assert.equal(expiringIndexed(db), 2);
        const entries = db.prepare(
          "select count(*) as n from pragma_index_info('kv_expiration_ms_idx')",
        ).get()!;
        assert.equal(Number(entries.n), 1, "the index is on expiration_ms alone");
        const partial = db.prepare(
          "select partial from pragma_index_list('kv') where name = 'kv_expiration_ms_idx'",
        ).get()!;
        assert.equal(
          Number(partial.partial),
          1,
          "the index holds only the rows its condition names",
        );
        // Deno KV's sweep and its look for the next expiry (denokv's SQLite backend), as it
        // words them: both answered from the index, not by a pass over the table.
        for (
          const sql of [
            "delete from kv where expiration_ms >= 0 and expiration_ms <= ?",
            "select expiration_ms from kv where expiration_ms >= 0 order by expiration_ms limit 1",
          ]
        ) {
          const plan = db.prepare(`explain query plan ${sql}`).all(
            ...(sql.includes("?") ? [0] : []),
          )
            .map((r) => String(r.detail)).join("; ");
          assert.match(plan, /USING (COVERING )?INDEX kv_expiration_ms_idx/, `${sql}: ${plan}`);
        }
      } finally {
        db.close();
      }
      assert.equal(lean.collectExpired(Date.now() + 120_000), 2);
      const left = await Array.fromAsync(addon.list({ prefix: ["k"] }));
      assert.deepEqual(left.map((e) => e.value), [1, 3]);
    } finally {
      lean.close();
      addon.close();
    }
  });

  test("both handles on one file share its counter: each checks what the other wrote", async () => {
    const path = fresh();
    const lean = sqliteKv(sqlite, path);
    const addon = await addonKv(path);
    try {
      let stamp: string | null = null;
      const seen: string[] = [];
      for (let i = 0; i < 6; i++) {
        const kv = i % 2 ? addon : lean;
        const other = i % 2 ? lean : addon;
        assert.equal(
          (await other.get(["k"])).versionstamp,
          stamp,
          `write ${i}: the other handle's version`,
        );
        const stale = await kv.atomic().check({
          key: ["k"],
          versionstamp: stamp === null ? "0".repeat(20) : null,
        })
          .set(["k"], i).commit();
        assert.equal(stale.ok, false, `write ${i}: a stale check fails`);
        const done = await kv.atomic().check({ key: ["k"], versionstamp: stamp }).set(["k"], i)
          .commit();
        assert.equal(done.ok, true, `write ${i}: the current check holds`);
        stamp = done.versionstamp!;
        seen.push(stamp);
      }
      assert.deepEqual(seen, [...seen].sort(), "versionstamps rise across both handles");
      assert.equal(new Set(seen).size, seen.length);
    } finally {
      lean.close();
      addon.close();
    }
  });

  test("expired keys are deleted by the sweep, which raises the file's counter as Deno KV does", async () => {
    const path = fresh();
    const lean = sqliteKv(sqlite, path);
    try {
      await lean.atomic().set(["gone"], 1, { expireIn: 1 }).set(["kept"], 2).commit();
      const counter = () => {
        const db = new sqlite.DatabaseSync(path);
        try {
          return Number(db.prepare("select version from data_version where k = 0").get()!.version);
        } finally {
          db.close();
        }
      };
      const before = counter();
      assert.equal(lean.collectExpired(Date.now() - 60_000), 0, "nothing has expired yet");
      assert.equal(lean.collectExpired(Date.now() + 10), 1);
      assert.equal(counter(), before + 1);
      assert.equal((await lean.get(["gone"])).value, null);
      assert.equal((await lean.get(["kept"])).value, 2);
      assert.equal(lean.collectExpired(Date.now() + 10), 0);
      assert.equal(counter(), before + 1, "a sweep that deletes nothing leaves the counter");
    } finally {
      lean.close();
    }
  });

  test("a file another connection is writing refuses at once as locked, and the store's retry waits it out", async () => {
    const path = fresh();
    const lean = sqliteKv(sqlite, path);
    const other = new sqlite.DatabaseSync(path);
    try {
      other.exec("begin immediate");
      const started = Date.now();
      const refused = await lean.atomic().set(["a"], 1).commit().then(() => null, (e) => e);
      assert.ok(isLocked(refused), `locked, not ${refused}`);
      assert.ok(Date.now() - started < 1_000, "the event loop was not held waiting for the lock");
      assert.equal((await lean.get(["a"])).value, null, "nothing was applied");

      const retried = retryingKv(lean).atomic().set(["a"], 2).commit();
      setTimeout(() => other.exec("commit"), 50);
      assert.equal((await retried).ok, true);
      assert.equal((await lean.get(["a"])).value, 2);
    } finally {
      other.close();
      lean.close();
    }
  });

  test("commits asked in one turn of the event loop keep their order", async () => {
    const lean = sqliteKv(sqlite, fresh());
    try {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => lean.atomic().set(["n"], i).commit()),
      );
      const stamps = results.map((r) => r.versionstamp!);
      assert.deepEqual(stamps, [...stamps].sort());
      assert.equal((await lean.get(["n"])).value, 19);
    } finally {
      lean.close();
    }
  });

  test("Node's notice that SQLite is experimental is not printed when the store opens its file", async () => {
    const module = fileURLToPath(new URL("./_denokv.ts", import.meta.url));
    const { out, err } = await node(
      `const { openKv } = await import(${JSON.stringify(module)});
      const { kv } = await openKv(process.argv[1]);
      await kv.atomic().set(["a"], 1).commit();
      console.log(JSON.stringify((await kv.get(["a"])).value));
      kv.close();`,
      fresh(),
    );
    assert.equal(out.trim().split("\n").at(-1), "1");
    assert.doesNotMatch(err, /ExperimentalWarning|SQLite is an experimental/);
  });

  test("Deno reads and checks what node:sqlite wrote to a file, and node:sqlite what Deno wrote", async () => {
    const path = fresh();
    const lean = sqliteKv(sqlite, path);
    const wrote = await lean.atomic().set(["from", "node"], new Uint8Array([1, 2, 3])).commit();
    lean.close();
    const deno = join(dirname(createRequire(import.meta.url).resolve("deno/bin.cjs")), "deno");
    const script = `
      const kv = await Deno.openKv(Deno.args[0]);
      const seen = await kv.get(["from", "node"]);
      const done = await kv.atomic().check(seen).set(["from", "deno"], new Uint8Array([4]))
        .set(["expires"], 5, { expireIn: 60000 }).commit();
      console.log(JSON.stringify({ value: [...seen.value], versionstamp: seen.versionstamp, done: done.versionstamp }));
      kv.close();`;
    const answer = await new Promise<string>((resolve, reject) =>
      execFile(
        deno,
        ["eval", "--quiet", "--unstable-kv", "--no-config", script, path],
        { env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" } },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      )
    );
    const seen = JSON.parse(answer.trim().split("\n").at(-1)!);
    assert.deepEqual(seen.value, [1, 2, 3]);
    assert.equal(seen.versionstamp, wrote.versionstamp);
    const back = sqliteKv(sqlite, path);
    try {
      const entry = await back.get(["from", "deno"]);
      assert.deepEqual(entry.value, new Uint8Array([4]));
      assert.equal(entry.versionstamp, seen.done);
      assert.ok(seen.done > wrote.versionstamp!);
    } finally {
      back.close();
    }
    // Deno wrote into the narrowed index, left it as it was, and the file is whole.
    const db = new sqlite.DatabaseSync(path);
    try {
      assert.equal(
        db.prepare("select sql from sqlite_master where name = 'kv_expiration_ms_idx'").get()?.sql,
        EXPIRY_INDEX,
      );
      assert.equal(expiringIndexed(db), 1);
      assert.equal(db.prepare("pragma integrity_check").get()?.integrity_check, "ok");
    } finally {
      db.close();
    }
  });
}

test("the store's handle refuses each commit Deno KV refuses, and takes each one at its limits", async () => {
  // On Node 22 and later the handle is node:sqlite's, checked here beside the add-on's: a file
  // written through it holds nothing Deno could not have written, and it fails as Deno does.
  // The add-on lets a commit's written keys pass 80 KiB, which Deno refuses (denokv's own
  // limit); the store's write queue keeps within it on every path.
  const handles: [string, Kv, boolean][] = [
    ["the store's", (await openKv(fresh())).kv, sqlite !== undefined],
  ];
  if (sqlite !== undefined) handles.push(["@deno/kv's", await addonKv(fresh()), false]);
  const bytes = (n: number) => new Uint8Array(n).fill(7);
  const long = (i: number) => `${i}`.padStart(2_042, "k");
  const cases: [string, (kv: Kv) => Promise<unknown>, boolean, "keys"?][] = [
    ["a value of 64 KiB", (kv) => kv.atomic().set(["v"], bytes(65_536)).commit(), true],
    ["a value of 64 KiB and a byte", (kv) => kv.atomic().set(["v"], bytes(65_537)).commit(), false],
    ["1,000 keys", (kv) => many(kv, 1_000, () => 0), true],
    ["1,001 keys", (kv) => many(kv, 1_001, () => 0), false],
    ["80 KiB of written keys", (kv) => many(kv, 40, long), true],
    ["more than 80 KiB of written keys", (kv) => many(kv, 41, long), false, "keys"],
    ["800 KiB in all", (kv) => many(kv, 12, () => bytes(65_536)), true],
    ["more than 800 KiB in all", (kv) => many(kv, 13, () => bytes(65_536)), false],
  ];
  try {
    for (const [name, kv, keyLimit] of handles) {
      for (const [what, commit, accepted, limit] of cases) {
        if (limit === "keys" && !keyLimit) continue;
        const outcome = await commit(kv).then(() => true, () => false);
        assert.equal(outcome, accepted, `${name} handle, ${what}`);
      }
    }
  } finally {
    for (const [, kv] of handles) kv.close();
  }
});

/** Commits `count` keys at once: `["m", i]` set to `value(i)`, or keyed by it when it is a string. */
function many(kv: Kv, count: number, value: (i: number) => unknown): Promise<unknown> {
  const op = kv.atomic();
  for (let i = 0; i < count; i++) {
    const v = value(i);
    if (typeof v === "string") op.set([v], 0);
    else op.set(["m", i], v);
  }
  return op.commit();
}
