/**
 * A turn's closing events (its `final_response`, an `error` when it failed, and the status
 * `completed`) are logged in one commit: a runtime that dies between two writes can never
 * leave a replay, or a client of the plain wire (SSE, AG-UI), with a turn's answer and not its
 * end. Checked on the default store (a Deno KV file, where a slow write often joined them by
 * chance) and on a durable store whose writes finish at once, where publishing them one by one
 * logged each in a commit of its own.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { denoKvStore } from "../kv/denokv.ts";
import { memoryStore } from "../kv/memory.ts";
import type { Mutation, Store } from "../kv/store.ts";
import { EventHub } from "../events/hub.ts";
import { harness, ISSUE_CONTEXT } from "../testing/harness.ts";
import { scriptedModel } from "../testing/scripted_model.ts";
import { wrapStore } from "../testing/wrap_store.ts";

/** One logged event as a commit wrote it: its name and, for a status, which one. */
type Logged = string;

/** `inner`, declared durable, recording the events each write logs (one array per commit). */
function recording(inner: Store, durable: boolean): { store: Store; commits: Logged[][] } {
  const commits: Logged[][] = [];
  const logged = (mutations: readonly Mutation[]) => {
    const events = mutations.filter((m) => m.key[0] === "event" && m.value !== undefined).map(
      (m) => {
        const e = m.value as { event: string; payload: { status?: string } };
        return e.payload.status ? `${e.event}:${e.payload.status}` : e.event;
      },
    );
    if (events.length) commits.push(events);
  };
  const store = wrapStore(inner, {
    name: inner.name,
    capabilities: { shared: false, durable },
    atomic: (checks, mutations) => (logged(mutations), inner.atomic(checks, mutations)),
    commit: (checks, mutations) => (logged(mutations), inner.commit(checks, mutations)),
  });
  return { store, commits };
}

/** The commit that logged `event`; fails when none did. */
function commitOf(commits: Logged[][], event: string, from = 0): Logged[] {
  const found = commits.slice(from).find((c) => c.includes(event));
  assert.ok(found, `no commit logged ${event}: ${JSON.stringify(commits)}`);
  return found;
}

const stores: [string, () => Promise<{ store: Store; done(): Promise<void> }>][] = [
  [
    "a durable store whose writes finish at once",
    () => Promise.resolve({ store: memoryStore(), done: () => Promise.resolve() }),
  ],
  ["the default Deno KV file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tether-closing-"));
    const store = await denoKvStore(join(dir, "kv.db"));
    return { store, done: () => rm(dir, { recursive: true, force: true }) };
  }],
];

for (const [name, open] of stores) {
  test(`on ${name}, a turn's answer, its error and its end are logged in one commit`, async () => {
    const { store: inner, done } = await open();
    const { store, commits } = recording(inner, true);
    const model = scriptedModel([
      {
        calls: [{ name: "select_issue", args: { number: 1 } }, {
          name: "select_issue",
          args: { number: 2 },
        }],
      },
      { error: Object.assign(new Error("The provider refused."), { statusCode: 500 }) },
    ]);
    const h = harness({ store, model, modelName: "scripted" });
    try {
      // A turn that ends pending a host call.
      const first = await h.chat({ session_id: "ce", content: "go", host_context: ISSUE_CONTEXT });
      assert.equal(first.status, 200);
      await h.app.engine().then((e) => e.hub.flush("ce"));
      assert.deepEqual(commitOf(commits, "assistant:final_response"), [
        "assistant:final_response",
        "assistant:status:completed",
      ]);
      // A continuation answered with the next queued call, without the model.
      let from = commits.length;
      const pending = first.body.pending_tool_call;
      const second = await h.chat({
        session_id: "ce",
        content: "",
        tool_call_id: pending.call_id,
        tool_result: 1,
      });
      assert.equal(second.body.pending_tool_call.call_id, pending.queued[0]);
      await h.app.engine().then((e) => e.hub.flush("ce"));
      const queued = commitOf(commits, "assistant:final_response", from);
      assert.deepEqual(queued.slice(queued.indexOf("assistant:final_response")), [
        "assistant:final_response",
        "assistant:status:completed",
      ]);
      // A turn the model fails: its error joins the answer and the end.
      from = commits.length;
      const third = await h.chat({
        session_id: "ce",
        content: "",
        tool_call_id: pending.queued[0],
        tool_result: 2,
      });
      assert.equal(third.status, 200);
      assert.ok(third.body.error_type, JSON.stringify(third.body));
      await h.app.engine().then((e) => e.hub.flush("ce"));
      const failed = commitOf(commits, "assistant:final_response", from);
      assert.deepEqual(failed.slice(failed.indexOf("assistant:final_response")), [
        "assistant:final_response",
        "assistant:error",
        "assistant:status:completed",
      ]);
    } finally {
      await h.close();
      await done();
    }
  });
}

test("publishAll numbers its events one after another and delivers them after one log write", async () => {
  const { store, commits } = recording(memoryStore(), true);
  const hub = new EventHub(store, 1000);
  const seen: number[] = [];
  hub.subscribe("s", (e) => seen.push(e.payload.seq));
  await hub.publish("s", "assistant:status", { type: "agent_status", status: "started" });
  const published = await hub.publishAll("s", [
    {
      event: "assistant:text_delta",
      payload: { type: "text_delta", content: "Hi", segment_index: 0 },
    },
    { event: "assistant:status", payload: { type: "agent_status", status: "completed" } },
  ]);
  assert.deepEqual(published.map((e) => e.payload.seq), [2, 3]);
  await hub.flush("s");
  assert.deepEqual(commits, [
    ["assistant:status:started"],
    ["assistant:text_delta", "assistant:status:completed"],
  ]);
  assert.deepEqual(seen, [1, 2, 3]);
  await hub.stop();
});
