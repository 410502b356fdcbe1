import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { registerStoreScheme, storeFromUrl } from "./from_url.ts";
import { runStoreContract } from "./store.case.ts";
import { registerRelayStore } from "../testing/relay_store.ts";
import { memoryStore } from "./memory.ts";
import { isShared } from "../session/leases.ts";
import { createRuntime } from "../app.ts";

const dir = await mkdtemp(join(tmpdir(), "tether-relay-"));
after(() => rm(dir, { recursive: true, force: true }));
registerRelayStore();
const url = `relay:denokv:${join(dir, "contract.db")}`;

runStoreContract("relay (a store registered by scheme)", {
  open: () => storeFromUrl(url),
  peer: () => storeFromUrl(url),
});

test("a store registered by scheme is opened by STORE__URL and judged by what it declares", async () => {
  const store = await storeFromUrl(url);
  try {
    assert.equal(store.name, "relay");
    assert.deepEqual(store.capabilities, { shared: true, durable: true });
    assert.equal(isShared(store), true);
    const app = createRuntime({ storeUrl: url, warn: () => {} });
    const engine = await app.engine();
    assert.equal(engine.store.name, "relay");
    // A shared store's turns take the session's lease.
    const res = await app.request("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ session_id: "relay-1", content: "hello" }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    await app.close();
  } finally {
    await store.close();
  }
});

test("registering a scheme twice, or a malformed one, is refused", () => {
  registerStoreScheme("scratch-one", () => Promise.resolve(memoryStore()));
  assert.throws(
    () => registerStoreScheme("scratch-one", () => Promise.resolve(memoryStore())),
    /already registered/,
  );
  assert.throws(
    () => registerStoreScheme("memory", () => Promise.resolve(memoryStore())),
    /already/,
  );
  assert.throws(
    () => registerStoreScheme("9x", () => Promise.resolve(memoryStore())),
    /not a URL scheme/,
  );
});

test("an unknown scheme's error lists the registered ones", async () => {
  registerStoreScheme("scratch-two", () => Promise.resolve(memoryStore()));
  await assert.rejects(storeFromUrl("nosuch://x"), /scratch-two:/);
  const store = await storeFromUrl("scratch-two:");
  assert.equal(store.name, "memory");
  await store.close();
});
