/**
 * A turn's first commit carries the session's next block of event numbers: on a durable store
 * the numbers of a new session's first events are reserved by the commit that creates the
 * session, with no write of their own, and a runtime started afresh on the store numbers after
 * that block; a later turn, a message or a continuation, reserves its block (when one is due)
 * in the commit that writes the session too.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { denoKvStore } from "../kv/denokv.ts";
import type { Check, Mutation, Store } from "../kv/store.ts";
import { SEQ_BLOCK } from "../events/hub.ts";
import { harness, ISSUE_CONTEXT } from "../testing/harness.ts";
import { scriptedModel } from "../testing/scripted_model.ts";

const pend = () =>
  scriptedModel([{ calls: [{ name: "select_issue", args: { number: 42 }, id: "call_1" }] }]);

/** A Deno KV store on `file` that records the keys (and checks) of every write. */
async function watchedStore(
  file: string,
): Promise<{ store: Store; writes: { checks: readonly Check[]; keys: string[] }[] }> {
  const writes: { checks: readonly Check[]; keys: string[] }[] = [];
  const store = await denoKvStore(file);
  const record = (checks: readonly Check[], mutations: readonly Mutation[]) =>
    writes.push({ checks, keys: mutations.map((m) => m.key.join("/")) });
  const watched = new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== "function") return value;
      if (prop === "set") {
        return (
          key: string[],
          ...rest: never[]
        ) => (record([], [{ key }]), value.call(target, key, ...rest));
      }
      if (prop === "commit" || prop === "atomic") {
        return (checks: Check[], mutations: Mutation[]) => (
          record(checks, mutations), value.call(target, checks, mutations)
        );
      }
      return value.bind(target);
    },
  }) as Store;
  return { store: watched, writes };
}

/**
 * The writes that reserve numbers of session `sid`: on a shared store the commit that releases
 * the lease may hand the block's unused rest back (it writes the key beside the lease's
 * deletion); that returns numbers, it reserves none.
 */
const reserving = <W extends { keys: string[] }>(writes: W[], sid: string) =>
  writes.filter((w) =>
    w.keys.includes(`event_seq_reserved/${sid}`) && !w.keys.includes(`lease/${sid}`)
  );

test("a new session's first commit reserves its event numbers; nothing else writes them", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-first-commit-"));
  const file = join(dir, "kv.db");
  const { store: watched, writes } = await watchedStore(file);
  try {
    const h = harness({ store: watched, model: pend(), modelName: "scripted" });
    const first = await h.chat({
      session_id: "fc",
      content: "select issue 42",
      host_context: ISSUE_CONTEXT,
    });
    assert.equal(first.status, 200);
    await h.close();
    const reserved1 = reserving(writes, "fc");
    assert.equal(reserved1.length, 1, JSON.stringify(writes));
    assert.ok(reserved1[0].keys.includes("session/fc"), "in the commit that writes the session");
    assert.deepEqual(reserved1[0].checks, [{ key: ["session", "fc"], version: null }]);
    const reopened = await denoKvStore(file);
    const reserved = await reopened.get<number>(["event_seq_reserved", "fc"]);
    const logged = await reopened.list<{ payload: { seq: number } }>(["event", "fc"]);
    // The block reserved, or what the release handed back of it: never below a logged number.
    const top = Math.max(...logged.map((e) => e.value.payload.seq));
    assert.ok(logged.length > 0 && top <= SEQ_BLOCK);
    assert.ok(reserved !== null && reserved.value >= top && reserved.value <= SEQ_BLOCK);
    const again = harness({ store: reopened, model: pend(), modelName: "scripted" });
    assert.equal(await (await again.app.engine()).hub.lastSeq("fc"), reserved.value);
    await again.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a later turn, a message or a continuation, reserves its block in the commit that writes the session", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-later-commit-"));
  const { store, writes } = await watchedStore(join(dir, "kv.db"));
  try {
    const h = harness({
      store,
      model: scriptedModel((_options, i) =>
        i % 2 === 0
          ? { calls: [{ name: "select_issue", args: { number: 42 }, id: `call_${i}` }] }
          : { text: "Selected." }
      ),
      modelName: "scripted",
    });
    for (let turn = 0; turn < 3; turn++) {
      const asked = await h.chat({
        session_id: "lc",
        content: "select issue 42",
        host_context: ISSUE_CONTEXT,
      });
      assert.equal(asked.status, 200, JSON.stringify(asked.body));
      const answered = await h.chat({
        session_id: "lc",
        content: "",
        tool_call_id: asked.body.pending_tool_call.call_id,
        tool_result: { ok: true },
      });
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
    }
    await h.close();
    const reserved = reserving(writes, "lc");
    // Each request's lease release hands the rest back, so each takes a block again.
    assert.ok(reserved.length >= 3, JSON.stringify(writes));
    for (const w of reserved) {
      assert.ok(w.keys.includes("session/lc"), `a write of its own: ${JSON.stringify(w)}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
