/**
 * `turn_running` in GET /api/sessions/{id}: true from a turn's start to its
 * end, in the process that runs it and, on a shared store, in every other one;
 * false once it ended, and once the lease of a process that died mid-turn has
 * lapsed. A page reads it after its connection comes back (client/host.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { denoKvStore } from "./kv/denokv.ts";
import { harness } from "./testing/harness.ts";
import { scriptedModel } from "./testing/scripted_model.ts";

/** A model whose first step waits for `release()`, then answers. */
function heldModel() {
  let release = () => {};
  const until = new Promise<void>((resolve) => (release = resolve));
  const model = scriptedModel((_o, i) => i === 0 ? { text: "Done.", until } : { text: "Again." });
  return { model, release };
}

/** Polls `check` every 10 ms until it holds, for at most 5 s. */
async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

test("one process: turn_running is true while the turn runs and false before and after it", async () => {
  const { model, release } = heldModel();
  const h = harness({ model });
  try {
    const view = async (id: string) =>
      (await h.call("GET", `/api/sessions/${id}?missing=null`)).body;
    assert.equal(await view("tr2"), null, "no session yet");
    // The scripted model's first step is held: the turn runs until release().
    const turn = h.chat({ session_id: "tr2", content: "hello" });
    await until(async () => (await view("tr2"))?.turn_running === true, "the turn to run");
    assert.equal((await view("tr2")).turn_running, true);
    release();
    assert.equal((await turn).status, 200);
    assert.equal((await view("tr2")).turn_running, false);
  } finally {
    release();
    await h.close();
  }
});

test("two processes on one Deno KV file: the other process sees the turn run, then end", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-turn-running-"));
  const path = join(dir, "store.db");
  const { model, release } = heldModel();
  const a = harness({ model, store: await denoKvStore(path) });
  const b = harness({ store: await denoKvStore(path) });
  try {
    const turn = a.chat({ session_id: "tr3", content: "hello" });
    const onB = async () => (await b.call("GET", "/api/sessions/tr3?missing=null")).body;
    await until(async () => (await onB())?.turn_running === true, "B to see A's turn");
    release();
    assert.equal((await turn).status, 200);
    await until(async () => (await onB())?.turn_running === false, "B to see the turn end");
  } finally {
    release();
    await a.close();
    await b.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("a process that died mid-turn: turn_running stays true until its lease lapses, then false", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-turn-running-"));
  const store = await denoKvStore(join(dir, "store.db"));
  const h = harness({ store });
  try {
    assert.equal((await h.chat({ session_id: "tr4", content: "hello" })).status, 200);
    // What a process killed during a turn leaves behind: its lease, held until it lapses.
    await store.set(["lease", "tr4"], { owner: "gone", token: "t", expiresAt: Date.now() + 400 });
    assert.equal((await h.call("GET", "/api/sessions/tr4")).body.turn_running, true);
    await new Promise((r) => setTimeout(r, 450));
    assert.equal((await h.call("GET", "/api/sessions/tr4")).body.turn_running, false);
  } finally {
    await h.close();
    await rm(dir, { recursive: true, force: true });
  }
});
