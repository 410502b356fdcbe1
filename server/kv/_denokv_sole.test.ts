import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, readlinkSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { after, test } from "node:test";
import { type Kv, openKv } from "./_denokv.ts";
import {
  HEARTBEAT_MS,
  HELD_MOST,
  holderGone,
  packed,
  QUIET_MS,
  Sole,
  SOLE_KEY,
  STALE_MS,
  unpacked,
  WATCH_IDLE_MS,
} from "./_denokv_sole.ts";
import { KvWriter } from "./_denokv_writer.ts";
import { KnownVersions } from "./_denokv_known.ts";
import { listingKv } from "../testing/listing_kv.ts";
import { denoKvStore } from "./denokv.ts";
import { acquireLease, releaseLease, renewLease } from "./lease.ts";
import type { Store } from "./store.ts";

const dir = await mkdtemp(join(tmpdir(), "tether-sole-"));
after(() => rm(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, for at most `ms`. */
async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A raw handle on the file, to see what is in it without being a store on it. */
async function rawHandle(path: string): Promise<Kv> {
  return (await openKv(path)).kv;
}

const held = async (raw: Kv) => (await raw.get(SOLE_KEY)).versionstamp !== null;

/**
 * Opens a store alone on a new file, waits until it holds the file, and runs `body` with it, a
 * raw handle on the file and the file's path; a second store `body` opens goes in `others`.
 */
async function withHolder(
  name: string,
  body: (store: Store, raw: Kv, path: string, others: Store[]) => Promise<void>,
): Promise<void> {
  const path = join(dir, name);
  const raw = await rawHandle(path);
  const store = await denoKvStore(path);
  const others: Store[] = [];
  try {
    await until(() => held(raw), 2_000, "the holder record");
    await body(store, raw, path, others);
  } finally {
    for (const other of others) await other.close();
    await store.close();
    raw.close();
  }
}

test("a store alone on its file holds it: its leases stay out of the file and work as leases", () =>
  withHolder("alone.db", async (store, raw) => {
    const lease = await acquireLease(store, ["lease", "s1"], "a", 10_000);
    assert.ok(lease);
    assert.equal((await raw.get(["lease", "s1"])).versionstamp, null, "not in the file");
    assert.equal((await store.get<{ owner: string }>(["lease", "s1"]))?.value.owner, "a");
    assert.equal(await acquireLease(store, ["lease", "s1"], "b", 10_000), null);
    const renewed = await renewLease(store, lease);
    assert.ok(renewed);
    assert.equal(await renewLease(store, lease), null, "the old version no longer holds");
    assert.equal(await releaseLease(store, renewed, [{ key: ["data", "s1"], value: 1 }]), true);
    assert.equal(await store.get(["lease", "s1"]), null);
    assert.equal((await raw.get(["data", "s1"])).versionstamp !== null, true, "written beside it");
    assert.deepEqual((await store.list(["lease"])).length, 0);
  }));

test("past HELD_MOST kept writes, the oldest that never expire go to the file; leases stay in memory", () =>
  withHolder("spill.db", async (store, raw) => {
    // A lease first, so it is the oldest kept write: it runs out by itself, so it stays.
    const lease = await acquireLease(store, ["lease", "s1"], "a", 60_000);
    assert.ok(lease);
    // One handed-back number per session, as the event hub writes them: more than HELD_MOST.
    const count = HELD_MOST + 10;
    for (let i = 0; i < count; i += 100) {
      const batch = [];
      for (let j = i; j < Math.min(i + 100, count); j++) {
        batch.push({ key: ["n", `s${j}`], value: j, forOthers: true });
      }
      assert.equal(await store.atomic([], batch), true);
    }
    await until(
      async () => (await raw.get(["n", "s0"])).versionstamp !== null,
      5_000,
      "the oldest kept write to reach the file",
    );
    assert.deepEqual((await raw.get(["n", "s0"])).value, { j: "0" });
    assert.equal(
      (await raw.get(["n", `s${count - 1}`])).versionstamp,
      null,
      "the newest stays in memory",
    );
    assert.equal((await raw.get(["lease", "s1"])).versionstamp, null, "the lease is not written");
    // The store answers as before, from memory or from the file.
    assert.equal((await store.get<number>(["n", "s0"]))?.value, 0);
    assert.equal((await store.get<number>(["n", `s${count - 1}`]))?.value, count - 1);
    assert.equal((await store.list(["n"])).length, count, "each key listed once");
    assert.equal(await acquireLease(store, ["lease", "s1"], "b", 10_000), null, "still held");
    assert.ok(await renewLease(store, lease), "and renewed at the version it was given");
    assert.ok(await store.alone(), "the file stays held");
  }));

test("a second store makes the holder yield: a lease held then reaches the file, and the newcomer waits for it", () =>
  withHolder("yield.db", async (a, raw, path, others) => {
    const lease = await acquireLease(a, ["lease", "s1"], "a", 10_000);
    assert.ok(lease);
    assert.equal((await raw.get(["lease", "s1"])).versionstamp, null);
    const firstHold = a.alone();
    assert.equal(typeof firstHold, "number", "the holder is alone");
    const opened = Date.now();
    const b = await denoKvStore(path);
    others.push(b);
    // B's commit waits until A has let the file go; by then A's lease is in the file.
    assert.equal(await acquireLease(b, ["lease", "s1"], "b", 10_000), null);
    assert.ok(Date.now() - opened < 2_000, "the holder yields within its watch");
    assert.equal(await held(raw), false, "nobody holds the file now");
    assert.equal(a.alone(), null, "the holder that yielded is alone no more");
    assert.equal(b.alone(), null, "nor is the newcomer");
    const inFile = await raw.get(["lease", "s1"]);
    assert.equal((inFile.value as { j: string }).j.includes('"owner":"a"'), true);
    // A's lease, taken while alone, renews and releases as one written all along.
    const renewed = await renewLease(a, lease);
    assert.ok(renewed, "renewed after the yield");
    assert.equal(await releaseLease(a, renewed), true);
    const taken = await acquireLease(b, ["lease", "s1"], "b", 10_000);
    assert.equal(taken?.owner, "b");
    // Both now check their commits at the database: a rival's version is refused.
    await a.set(["k"], 1);
    const version = (await b.get(["k"]))!.version;
    await a.set(["k"], 2);
    assert.equal(await b.atomic([{ key: ["k"], version }], [{ key: ["k"], value: 3 }]), false);
    assert.equal((await b.get(["k"]))?.value, 2);
    // Once B leaves, A holds the file again, under a new number: what B wrote counts again.
    await b.close();
    await until(() => held(raw), HEARTBEAT_MS + STALE_MS + 2_000, "the file held again");
    await a.set(["k"], 4);
    assert.equal(typeof a.alone(), "number");
    assert.notEqual(a.alone(), firstHold, "a new hold, a new number");
  }));

test("a holder record naming a process that is gone is taken over at once", async (t) => {
  let ns: string;
  try {
    ns = readlinkSync("/proc/self/ns/pid");
  } catch {
    console.log("SKIPPED: no /proc here: a gone holder cannot be told from a live one");
    t.skip("no /proc");
    return;
  }
  // A process that has exited: its pid names nobody now.
  const child = spawn(process.execPath, ["-e", "0"]);
  const pid = child.pid!;
  await new Promise((resolve) => child.once("exit", resolve));
  const record = { o: "gone", u: Date.now() + 60_000, p: pid, s: "1", n: ns };
  assert.equal(holderGone(record), true);
  // A process that exited but is not reaped yet (a zombie) is gone too: here the child of a
  // shell that then became `sleep`, which never reaps it. The child outlives the shell's exec
  // (a child that ended first could be reaped by the shell, as one was on a loaded machine).
  const parent = spawn("sh", ["-c", "sleep 1 & echo $!; exec sleep 20"]);
  const zombie = Number(
    await new Promise<string>((resolve) => parent.stdout.once("data", resolve)),
  );
  let zStat = "";
  for (const until = Date.now() + 10_000; Date.now() < until;) {
    zStat = readFileSync(`/proc/${zombie}/stat`, "utf8");
    if (/\) Z /.test(zStat)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.match(zStat, /\) Z /, "a zombie");
  const zStart = zStat.slice(zStat.lastIndexOf(")") + 2).split(" ")[19];
  assert.equal(holderGone({ ...record, p: zombie, s: zStart }), true, "exited, not reaped");
  parent.kill();
  assert.equal(holderGone({ ...record, p: process.pid, s: undefined }), false, "no start time");
  assert.equal(holderGone({ ...record, n: "pid:[0]" }), false, "another namespace");
  const path = join(dir, "gone.db");
  const raw = await rawHandle(path);
  await raw.atomic().set(SOLE_KEY, packed(record)).commit();
  const store = await denoKvStore(path);
  try {
    const started = Date.now();
    await store.set(["k"], 1);
    assert.ok(
      Date.now() - started < 2_000,
      `took ${Date.now() - started} ms, not the record's minute`,
    );
    const now = unpacked<{ o: string }>((await raw.get(SOLE_KEY)).value);
    assert.notEqual(now?.o, "gone");
  } finally {
    await store.close();
    raw.close();
  }
});

test("a store opens once a holder record that cannot be checked has run out", async () => {
  const path = join(dir, "elsewhere.db");
  const raw = await rawHandle(path);
  await raw.atomic().set(SOLE_KEY, packed({ o: "elsewhere", u: Date.now() + 1_500 })).commit();
  const started = Date.now();
  const store = await denoKvStore(path);
  try {
    const took = Date.now() - started;
    assert.ok(took >= 1_000, `the store opened after ${took} ms, before the record ran out`);
    assert.equal(await store.atomic([], [{ key: ["k"], value: 1 }]), true);
    assert.equal((await raw.get(["k"])).versionstamp !== null, true);
  } finally {
    await store.close();
    raw.close();
  }
});

test("a holder that lost the file while it stalled drops its leases and goes on writing", () =>
  withHolder("lost.db", async (store, raw) => {
    const lease = await acquireLease(store, ["lease", "s1"], "a", 10_000);
    assert.ok(lease);
    // Another process took the file over (as after this one stalled past the record's time).
    const current = await raw.get(SOLE_KEY);
    await raw.atomic().check({ key: SOLE_KEY, versionstamp: current.versionstamp })
      .set(SOLE_KEY, packed({ o: "other", u: Date.now() + 500 })).commit();
    await sleep(1_100);
    assert.equal(
      await renewLease(store, lease),
      null,
      "a lease kept in memory is gone with the hold",
    );
    assert.equal(await releaseLease(store, lease), false);
    // Once the other's record ran out, this store writes again.
    assert.equal(await store.atomic([], [{ key: ["after"], value: 1 }]), true);
    assert.equal((await raw.get(["after"])).versionstamp !== null, true);
  }));

test("a holder keeps its messages to other processes to itself, and sends them once one is there", () =>
  withHolder("relay.db", async (a, raw, path, others) => {
    await a.publish("c", { n: 1 });
    let written = 0;
    for await (const _ of raw.list({ prefix: [false, "o"] })) written++;
    assert.equal(written, 0, "nobody to read it: nothing written");
    const b = await denoKvStore(path);
    others.push(b);
    const got: unknown[] = [];
    await b.subscribe("c", (m) => got.push(m));
    await b.set(["joined"], 1);
    await a.publish("c", { n: 2 });
    await until(() => Promise.resolve(got.length > 0), 3_000, "the message on the other store");
    assert.deepEqual(got, [{ n: 2 }]);
  }));

test("a store that takes the file again decides nothing on what it knew before: others may have written since", () =>
  withHolder("retaken.db", async (a, raw, path, others) => {
    const b = await denoKvStore(path);
    others.push(b);
    await a.set(["k"], 1);
    const seen = (await a.get(["k"]))!.version;
    // While both are there, B writes the key; then B leaves and A holds the file again.
    await b.set(["k"], 2);
    await b.close();
    await until(() => held(raw), HEARTBEAT_MS + STALE_MS + 2_000, "the file held again");
    assert.equal(
      await a.atomic([{ key: ["k"], version: seen }], [{ key: ["k"], value: 3 }]),
      false,
      "a version from before B's write no longer holds",
    );
    assert.equal((await a.get(["k"]))?.value, 2);
  }));

test("a quiet holder watches at the idle pace: its own renewals of the holder record are not activity", async () => {
  const opened = await openKv(join(dir, "quiet.db"));
  const presences = listingKv(opened.kv, [false, "p"]);
  const kv = presences.kv;
  // Wired as `denoKvStore()` wires them: the sole runs the write queue for its renewals.
  const queue: { writer?: KvWriter } = {};
  const sole = new Sole(kv, () => queue.writer?.kick());
  const writer = queue.writer = new KvWriter(kv, opened.limits, new KnownVersions(), sole);
  sole.start();
  try {
    await sole.writable();
    await until(() => Promise.resolve(sole.alone), 2_000, "the hold");
    assert.ok(await writer.commit([], [{ key: ["k"], value: 1 }]), "one commit of its own");
    const record = async () => (await opened.kv.get(SOLE_KEY)).versionstamp;
    const before = await record();
    await sleep(QUIET_MS + 2 * WATCH_IDLE_MS);
    const from = presences.listings();
    await sleep(1_000);
    const perSecond = presences.listings() - from;
    // Renewed meanwhile (a record runs out SOLE_TTL_MS after its last renewal): still held.
    assert.notEqual(await record(), before, "renewed while quiet");
    assert.ok(sole.alone, "still held");
    assert.ok(
      perSecond <= Math.ceil(1_000 / WATCH_IDLE_MS) + 1,
      `${perSecond} watches in a quiet second (every ${WATCH_IDLE_MS} ms would be ${
        1_000 / WATCH_IDLE_MS
      })`,
    );
  } finally {
    await sole.close();
    opened.kv.close();
  }
});
