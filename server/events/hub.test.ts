import { test } from "node:test";
import assert from "node:assert/strict";
import { memoryStore } from "../kv/memory.ts";
import type { Key, Store } from "../kv/store.ts";
import { EventHub, SEQ_BLOCK } from "./hub.ts";

/** A memory store that calls itself `denokv` (so the hub reserves) and records the prefixes it lists. */
function durable(): { store: Store; listed: Key[]; read: Key[] } {
  const inner = memoryStore();
  const listed: Key[] = [];
  const read: Key[] = [];
  const store: Store = {
    name: "denokv",
    get: (key) => (read.push(key), inner.get(key)),
    getMany: (keys) => inner.getMany(keys),
    set: (key, value, options) => inner.set(key, value, options),
    delete: (key) => inner.delete(key),
    list: (prefix, options) => (listed.push(prefix), inner.list(prefix, options)),
    atomic: (checks, mutations) => inner.atomic(checks, mutations),
    commit: (checks, mutations) => inner.commit(checks, mutations),
    publish: (channel, message) => inner.publish(channel, message),
    subscribe: (channel, listener) => inner.subscribe(channel, listener),
    close: () => inner.close(),
  };
  return { store, listed, read };
}

const status = { type: "agent_status", status: "started" };

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
