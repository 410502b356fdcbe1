import { test } from "node:test";
import assert from "node:assert/strict";
import { memoryStore } from "../kv/memory.ts";
import type { Key, ListOptions, Store } from "../kv/store.ts";
import { EventHub, SEQ_BLOCK } from "./hub.ts";
import { follow } from "./follow.ts";
import { wrapStore } from "../testing/wrap_store.ts";

/** A memory store that declares itself durable (so the hub reserves) and records the prefixes it lists. */
function durable(): { store: Store; listed: Key[]; read: Key[] } {
  const inner = memoryStore();
  const listed: Key[] = [];
  const read: Key[] = [];
  const store = wrapStore(inner, {
    name: "durable-memory",
    capabilities: { shared: false, durable: true },
    get: (key) => (read.push(key), inner.get(key)),
    list: (prefix, options) => (listed.push(prefix), inner.list(prefix, options)),
  });
  return { store, listed, read };
}

const status = { type: "agent_status", status: "started" } as const;

test("a log written before reservations existed is continued, not numbered again", async () => {
  const { store } = durable();
  const old = { event: "assistant:status", payload: { ...status, seq: 7 } };
  await store.set(["event", "s1", "000000000007"], old);
  const hub = new EventHub(store, 1000);
  assert.equal((await hub.publish("s1", "assistant:status", status)).payload.seq, 8);
  const other = new EventHub(store, 1000);
  assert.equal((await other.publish("s2", "assistant:status", status)).payload.seq, 1);
  await hub.stop();
  await other.stop();
});

test("on a store that logged nothing before reservations, a session's log is never read to number it", async () => {
  const { store, listed } = durable();
  const hub = new EventHub(store, 1000);
  assert.equal((await hub.publish("s1", "assistant:status", status)).payload.seq, 1);
  assert.equal((await hub.publish("s2", "assistant:status", status)).payload.seq, 1);
  await hub.stop();
  assert.deepEqual(listed.filter((prefix) => prefix.length > 1), []);
  // A later process continues after the whole reserved block, still without reading the log.
  const next = new EventHub(store, 1000);
  const seq = (await next.publish("s1", "assistant:status", status)).payload.seq;
  assert.equal(seq, SEQ_BLOCK + 1);
  await next.stop();
  assert.deepEqual(listed.filter((prefix) => prefix.length > 1), []);
});

test("a deleted session's last number is kept as its reservation, so loading a session reads one key", async () => {
  const { store, read } = durable();
  const hub = new EventHub(store, 1000);
  for (let i = 1; i <= 3; i++) {
    assert.equal((await hub.publish("s1", "assistant:status", status)).payload.seq, i);
  }
  await hub.forget("s1");
  await hub.stop();
  assert.equal(await store.get(["event_seq", "s1"]), null);
  assert.equal((await store.get<number>(["event_seq_reserved", "s1"]))?.value, SEQ_BLOCK);
  // Another process re-creates the session: it continues after every number handed out.
  read.length = 0;
  const next = new EventHub(store, 1000);
  assert.equal((await next.publish("s1", "assistant:status", status)).payload.seq, SEQ_BLOCK + 1);
  assert.equal((await next.publish("s2", "assistant:status", status)).payload.seq, 1);
  await next.stop();
  const perSession = read.filter((key) => key[1] === "s1" || key[1] === "s2");
  assert.deepEqual(perSession, [["event_seq_reserved", "s1"], ["event_seq_reserved", "s2"]]);
});

test("a number kept as event_seq by an earlier version is still continued", async () => {
  const { store } = durable();
  await store.set(["event_seq", "s9"], 10, { expireIn: 60_000 });
  const hub = new EventHub(store, 1000);
  assert.equal((await hub.publish("s9", "assistant:status", status)).payload.seq, 11);
  await hub.stop();
  assert.equal(await store.get(["event_log", "kept_in_reservation"]), null);
});

test("a hub keeps the numbering of at most `keep` idle sessions; a dropped one never repeats a number", async () => {
  for (const durableStore of [false, true]) {
    const store = durableStore ? durable().store : memoryStore();
    const hub = new EventHub(store, 1000, false, 3);
    for (let i = 0; i < 10; i++) {
      assert.equal((await hub.publish(`s${i}`, "assistant:status", status)).payload.seq, 1);
      await hub.flush(`s${i}`);
    }
    assert.ok(hub.keptSessions <= 3, `kept ${hub.keptSessions}`);
    // s0 was dropped: loaded again, it continues after its log (memory) or its reservation.
    const again = (await hub.publish("s0", "assistant:status", status)).payload.seq;
    assert.equal(again, durableStore ? SEQ_BLOCK + 1 : 2);
    await hub.stop();
  }
});

test("a session with a listener keeps its numbering however many others come", async () => {
  const hub = new EventHub(durable().store, 1000, false, 2);
  const seen: number[] = [];
  const stop = hub.subscribe("watched", (e) => seen.push(e.payload.seq));
  await hub.publish("watched", "assistant:status", status);
  for (let i = 0; i < 6; i++) {
    await hub.publish(`other${i}`, "assistant:status", status);
    await hub.flush(`other${i}`);
  }
  await hub.publish("watched", "assistant:status", status);
  await hub.flush("watched"); // a durable store delivers once the event is logged
  assert.deepEqual(seen, [1, 2], "kept: no reload, no jump past the reservation");
  stop();
  await hub.stop();
});

/** Two processes' hubs, started, on one `lagging(150)` store: `runner` publishes, `other` follows. */
async function twoHubs(): Promise<{ store: Store; runner: EventHub; other: EventHub }> {
  const store = lagging(150);
  const runner = new EventHub(store, 1000, true);
  const other = new EventHub(store, 1000, true);
  await runner.start();
  await other.start();
  return { store, runner, other };
}

/** A memory store shared by two hubs whose publish/subscribe delivers `lagMs` late, as a polled channel does. */
function lagging(lagMs: number): Store {
  const inner = memoryStore();
  return wrapStore(inner, {
    name: "lagging",
    capabilities: { shared: true, durable: true },
    // Committed at once, delivered later: what a relay read by polling does.
    publish: (
      channel,
      message,
    ) => (setTimeout(() => inner.publish(channel, message), lagMs), Promise.resolve()),
  });
}

/**
 * Two processes' hubs on a store whose channel lags 150 ms: `attach` subscribes a listener of
 * the follower's (after the runner's first event) and answers its stop; then the runner
 * publishes two more events, logged at once, and the follower's process takes the session
 * over before the channel brings them. Answers the numbers the listener saw at the takeover
 * and after the follower's own event, once the late copies had time to arrive.
 */
async function takeover(
  attach: (follower: EventHub, seen: number[]) => Promise<() => void>,
): Promise<{ atTakeover: number[]; after: number[] }> {
  const { store, runner, other: follower } = await twoHubs();
  const seen: number[] = [];
  let stop = () => {};
  try {
    await runner.publish("s1", "assistant:status", { type: "agent_status", status: "started" });
    await runner.flush("s1");
    stop = await attach(follower, seen);
    await runner.publish("s1", "assistant:text_delta", { type: "text_delta", content: "a" });
    await runner.publish("s1", "assistant:status", { type: "agent_status", status: "completed" });
    await runner.flush("s1");
    const closing = runner.release("s1");
    if (closing) closing.committed(await store.atomic([], closing.mutations));
    follower.resync("s1");
    await follower.catchUp("s1");
    const atTakeover = [...seen];
    await follower.publish("s1", "assistant:status", { type: "agent_status", status: "started" });
    await new Promise((r) => setTimeout(r, 300));
    return { atTakeover, after: seen };
  } finally {
    stop();
    await runner.stop();
    await follower.stop();
  }
}

test("a hub taking a session over hands its listeners the other process's logged events first, then never repeats them", async () => {
  const { atTakeover, after } = await takeover(async (follower, seen) => {
    const stop = follower.subscribe("s1", (e) => seen.push(e.payload.seq));
    // Live from the first event on: the channel brings it.
    while (seen.length < 1) await new Promise((r) => setTimeout(r, 10));
    return stop;
  });
  assert.deepEqual(atTakeover, [1, 2, 3], "the logged events, before anything of its own");
  assert.deepEqual(after, [1, 2, 3, 4], "the late copies from the channel are dropped");
});

test("a follower that went live from the log before any live event still gets the other process's events first at a takeover", async () => {
  // A client attaching after the first event (an SSE resume from 1): from the log, not live.
  const { atTakeover, after } = await takeover((follower, seen) =>
    follow(follower, "s1", 1, (e) => seen.push(e.payload.seq))
  );
  assert.deepEqual(atTakeover, [2, 3], "the logged events, before anything of its own");
  assert.deepEqual(after, [2, 3, 4], "the late copies from the channel are dropped");
});

test("a follower that read the log ahead of the channel leaves a live listener the events it has not had", async () => {
  const { runner, other: here } = await twoHubs();
  const live: number[] = [];
  const followed: number[] = [];
  const stopLive = here.subscribe("s1", (e) => live.push(e.payload.seq));
  let stopFollow = () => {};
  try {
    await runner.publish("s1", "assistant:status", { type: "agent_status", status: "started" });
    await runner.publish("s1", "assistant:text_delta", { type: "text_delta", content: "a" });
    await runner.flush("s1");
    // Logged at once, on the channel 150 ms later: a follower from 0 reads both from the log.
    stopFollow = await follow(here, "s1", 0, (e) => followed.push(e.payload.seq));
    assert.deepEqual(followed, [1, 2]);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(live, [1, 2], "the live listener gets them from the channel all the same");
    assert.deepEqual(followed, [1, 2], "and the follower does not get them twice");
  } finally {
    stopFollow();
    stopLive();
    await runner.stop();
    await here.stop();
  }
});

test("a batch longer than the log and a commit keeps only the window, with no sweep", async () => {
  const store = memoryStore();
  const hub = new EventHub(store, 10);
  // One batch of 250: more than a commit's 100 entries and far more than the window of 10.
  await hub.publishAll(
    "t",
    Array.from({ length: 250 }, () => ({
      event: "assistant:status" as const,
      payload: status,
    })),
  );
  await hub.flush("t");
  const seqs = (await store.list(["event", "t"])).map((e) => Number(e.key[2]));
  assert.deepEqual(seqs, Array.from({ length: 10 }, (_, i) => 241 + i));
  await hub.stop();
});

test("the log is trimmed by number: a full log costs one small listing every 50 events, and entries a trim missed are swept", async () => {
  const inner = memoryStore();
  const listed: number[] = [];
  const store = wrapStore(inner, {
    name: "memory",
    capabilities: inner.capabilities,
    list: async <T>(prefix: Key, options?: ListOptions) => {
      const out = await inner.list<T>(prefix, options);
      // Listings from the oldest entry (the numbering looks at the newest once, on loading).
      if (!options?.reverse) listed.push(out.length);
      return out;
    },
  });
  const hub = new EventHub(store, 100);
  for (let i = 0; i < 300; i++) await hub.publish("t", "assistant:status", status);
  await hub.flush("t");
  const seqs = async () => (await inner.list(["event", "t"])).map((e) => Number(e.key[2]));
  assert.deepEqual(await seqs(), Array.from({ length: 100 }, (_, i) => 201 + i));
  // At most four looks at the oldest entry (one each 50 numbers past the window: fewer when a
  // batch of the log spans more than one), each of one entry.
  assert.ok(listed.length >= 1 && listed.length <= 4, `looks: ${listed}`);
  assert.ok(listed.every((n) => n === 1), `each look reads one entry: ${listed}`);
  // An entry older than the window that no trim reached (a process stopped before its trim).
  await inner.set(["event", "t", "000000000150"], { event: "assistant:status", payload: status });
  for (let i = 0; i < 50; i++) await hub.publish("t", "assistant:status", status);
  await hub.flush("t");
  const after = await seqs();
  assert.equal(after.includes(150), false, "the leftover is swept");
  assert.deepEqual(after, Array.from({ length: 100 }, (_, i) => 251 + i));
  await hub.stop();
});

test("a shared store that no other process writes now carries no event; once another is there, it carries them", async () => {
  const inner = memoryStore();
  const carried: unknown[] = [];
  let alone: number | null = 1;
  const store = wrapStore(inner, {
    name: "held-alone",
    capabilities: { shared: true, durable: true },
    publish: (channel, message) => (carried.push(message), inner.publish(channel, message)),
    alone: () => alone,
  });
  const hub = new EventHub(store, 1000, true);
  await hub.start();
  const seen: number[] = [];
  const stop = hub.subscribe("s1", (e) => seen.push(e.payload.seq));
  await hub.publish("s1", "assistant:status", status);
  await hub.flush("s1");
  assert.deepEqual(seen, [1], "this process's own listeners still get the event");
  assert.equal(carried.length, 0, "nobody else could read it: nothing goes through the store");
  alone = null;
  await hub.publish("s1", "assistant:status", status);
  await hub.flush("s1");
  await hub.stop();
  assert.deepEqual(seen, [1, 2]);
  assert.deepEqual(
    carried.map((m) => (m as { event: { payload: { seq: number } } }).event.payload.seq),
    [2],
  );
  stop();
});
