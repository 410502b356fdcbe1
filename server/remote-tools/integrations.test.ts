import { test } from "node:test";
import assert from "node:assert/strict";
import { memoryStore } from "../kv/memory.ts";
import type { Store } from "../kv/store.ts";
import { Integrations } from "./integrations.ts";

const input = (workspace_id: string) => ({
  provider: "generic-rest" as const,
  workspace_id,
  base_url: "https://tools.example.com",
  // Secrets stay registered for the process (log redaction), and test files may share one:
  // no piece of this one is a word a log line of another test contains.
  secret: "K7hq2-X9vbW4-zR8tLm",
  allowed_tools: [],
});

/**
 * A store that counts its `list()` calls, declaring itself shared or not; a shared one says it
 * is alone while `alone.number` is not null.
 */
function counted(shared: boolean): {
  store: Store;
  lists: () => number;
  alone: { number: number | null };
} {
  const inner = memoryStore();
  let lists = 0;
  const alone = { number: shared ? null as number | null : 0 };
  const store: Store = {
    name: "counted",
    capabilities: { shared, durable: true },
    get: (key) => inner.get(key),
    getMany: (keys) => inner.getMany(keys),
    set: (key, value, options) => inner.set(key, value, options),
    delete: (key) => inner.delete(key),
    list: (prefix, options) => (lists++, inner.list(prefix, options)),
    atomic: (checks, mutations) => inner.atomic(checks, mutations),
    commit: (checks, mutations) => inner.commit(checks, mutations),
    publish: (channel, message) => inner.publish(channel, message),
    subscribe: (channel, listener) => inner.subscribe(channel, listener),
    alone: () => alone.number,
    close: () => inner.close(),
  };
  return { store, lists: () => lists, alone };
}

test("a single-process store answers a repeated list from memory", async () => {
  const { store, lists } = counted(false);
  const integrations = new Integrations(store);
  await integrations.add(input("w1"));
  assert.equal((await integrations.list("w1")).length, 1);
  assert.equal((await integrations.list("w1")).length, 1);
  assert.equal(lists(), 1);
});

test("a shared store is listed again only when another process changed the workspace", async () => {
  const { store, lists } = counted(true);
  // Two processes on one shared store: each its own Integrations, nothing shared in memory.
  const here = new Integrations(store);
  const there = new Integrations(store);
  assert.deepEqual(await here.list("w1"), []);
  assert.deepEqual(await here.list("w1"), []);
  assert.equal(lists(), 1, "an unchanged workspace is not listed twice");
  const added = await there.add(input("w1"));
  assert.deepEqual((await here.list("w1")).map((i) => i.id), [added.id]);
  await there.add(input("w2"));
  assert.deepEqual((await here.list("w1")).map((i) => i.id), [added.id]);
  assert.equal(lists(), 2, "another workspace's change lists nothing again here");
  await there.markRejected("w1", added.id);
  assert.ok((await here.list("w1"))[0].secret_rejected_at);
  await there.remove("w1", added.id);
  assert.deepEqual(await here.list("w1"), [], "a removal shows in the next list");
});

test("a shared store alone is listed once per hold, and again after a change or a new hold", async () => {
  const { store, lists, alone } = counted(true);
  const here = new Integrations(store);
  const there = new Integrations(store);
  alone.number = 1;
  const added = await here.add(input("w1"));
  assert.deepEqual((await here.list("w1")).map((i) => i.id), [added.id]);
  assert.deepEqual((await there.list("w1")).map((i) => i.id), [added.id]);
  assert.equal(lists(), 1, "alone, the list is read once for every Integrations of the store");
  await there.remove("w1", added.id);
  assert.deepEqual(await here.list("w1"), [], "a change through another one shows");
  assert.equal(lists(), 2);
  // Another process writes while this one is not alone, then this one holds the store again.
  alone.number = null;
  const elsewhere = await store.commit([], [{
    key: ["integration", "w1", "int_elsewhere"],
    value: { ...input("w1"), id: "int_elsewhere", created_at: "2026-01-01T00:00:00.000Z" },
  }, { key: ["integration_rev", "w1"], value: "rev_elsewhere" }]);
  assert.ok(elsewhere);
  assert.deepEqual((await here.list("w1")).map((i) => i.id), ["int_elsewhere"]);
  alone.number = 2;
  assert.deepEqual((await here.list("w1")).map((i) => i.id), ["int_elsewhere"]);
  const before = lists();
  await here.list("w1");
  assert.equal(lists(), before, "within the new hold, the list is kept");
});

test("every change through any Integrations of the store shows in the next list", async () => {
  const store = memoryStore();
  const a = new Integrations(store);
  const b = new Integrations(store);
  assert.deepEqual(await b.list("w1"), []);
  const added = await a.add(input("w1"));
  assert.deepEqual((await b.list("w1")).map((i) => i.id), [added.id]);
  await a.markRejected("w1", added.id);
  assert.ok((await b.list("w1"))[0].secret_rejected_at);
  assert.equal(await a.remove("w1", added.id), true);
  assert.deepEqual(await b.list("w1"), []);
});

test("a listed integration changed by its caller leaves the next list as stored", async () => {
  const integrations = new Integrations(memoryStore());
  await integrations.add({ ...input("w1"), allowed_tools: ["a"] });
  const [first] = await integrations.list("w1");
  first.allowed_tools.push("b");
  first.base_url = "https://elsewhere.example.com";
  const [again] = await integrations.list("w1");
  assert.deepEqual(again.allowed_tools, ["a"]);
  assert.equal(again.base_url, "https://tools.example.com");
});
