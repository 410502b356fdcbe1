/** On a durable store, an event reaches subscribers only once it is in the log. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { memoryStore } from "../kv/memory.ts";
import { wrapStore } from "../testing/wrap_store.ts";
import { EventHub } from "./hub.ts";

/** A durable-looking store whose event-log commits wait for `open()`; `logged` counts those done. */
function gatedStore() {
  const inner = memoryStore();
  let open!: () => void;
  let gate = new Promise<void>((r) => (open = r));
  const state = { logged: 0 };
  const store = wrapStore(inner, {
    name: "gated",
    capabilities: { shared: false, durable: true },
    async atomic(checks, mutations) {
      const events = mutations.filter((m) => m.key[0] === "event").length;
      if (events) await gate;
      const ok = await inner.atomic(checks, mutations);
      state.logged += events;
      return ok;
    },
  });
  return {
    store,
    state,
    open: () => {
      open();
      gate = Promise.resolve();
    },
  };
}

test("a durable store's event is delivered after its commit, never before", async () => {
  const { store, state, open } = gatedStore();
  const hub = new EventHub(store, 1000);
  const seen: { seq: number; loggedThen: number }[] = [];
  hub.subscribe("s", (e) => seen.push({ seq: e.payload.seq, loggedThen: state.logged }));
  const status = { type: "agent_status", status: "started" } as const;
  await hub.publish("s", "assistant:status", status);
  await hub.publish("s", "assistant:status", status);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(seen.length, 0, "nothing delivered while its commit waits");
  open();
  await hub.flush("s");
  assert.deepEqual(seen.map((e) => e.seq), [1, 2]);
  for (const e of seen) assert.ok(e.loggedThen >= e.seq, `event ${e.seq} was logged first`);
  assert.equal((await hub.replay("s", 0)).length, 2);
  await hub.stop();
});

test("the memory store delivers at once (it keeps nothing across a crash)", async () => {
  const hub = new EventHub(memoryStore(), 1000);
  const seen: number[] = [];
  hub.subscribe("s", (e) => seen.push(e.payload.seq));
  await hub.publish("s", "assistant:status", { type: "agent_status", status: "started" });
  assert.deepEqual(seen, [1]);
  await hub.stop();
});

test("another process's event that arrives late never sets the numbering back to a used number", async () => {
  // A shared, durable store whose messages this test delivers by hand, as late as it likes.
  const inner = memoryStore();
  let deliver!: (message: unknown) => void;
  const store = wrapStore(inner, {
    name: "late",
    capabilities: { shared: true, durable: true },
    subscribe(_channel, listener) {
      deliver = listener;
      return Promise.resolve(async () => {});
    },
    publish: () => Promise.resolve(),
  });
  const hub = new EventHub(store, 1000, true);
  await hub.start();
  const status = { type: "agent_status", status: "started" } as const;
  // This process takes the session over after another one numbered up to 17, and goes on.
  await inner.set(["event_seq_reserved", "s"], 17);
  hub.resync("s");
  const mine: number[] = [];
  for (let i = 0; i < 3; i++) {
    mine.push((await hub.publish("s", "assistant:status", status)).payload.seq);
  }
  assert.deepEqual(mine, [18, 19, 20]);
  // The other process's event 17 reaches this one only now.
  deliver({
    origin: "elsewhere",
    session: "s",
    event: { event: "assistant:status", payload: { ...status, seq: 17 } },
  });
  const next = await hub.publish("s", "assistant:status", status);
  assert.equal(next.payload.seq, 21, "numbering goes on after this process's own events");
  await hub.stop();
});
