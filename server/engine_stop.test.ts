/** `Engine.stop()` lets work that holds a session's lease finish, so the lease is released. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Engine } from "./engine.ts";
import { memoryStore } from "./kv/memory.ts";
import { resolveOptions } from "./config.ts";
import { offlineModel } from "./model/offline.ts";
import { wrapStore } from "./testing/wrap_store.ts";

test("stop waits for work holding a session's lease, which then releases it", async () => {
  const inner = memoryStore();
  // Shared, so the engine takes leases as it does on Redis, Postgres or a Deno KV file.
  const store = wrapStore(inner, {
    name: "shared",
    capabilities: { shared: true, durable: false },
  });
  const engine = new Engine(store, resolveOptions(), { model: offlineModel(), name: "offline" });
  await engine.start();
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let finished = false;
  const work = engine.withSession("s1", () => gate).then(() => (finished = true));
  while (!(await inner.get(["lease", "s1"]))) await new Promise((r) => setTimeout(r, 5));
  setTimeout(open, 50);
  await engine.stop();
  assert.ok(finished, "the work holding the lease ended before stop() did");
  assert.equal(await inner.get(["lease", "s1"]), null, "and its lease is released");
  await work;
  await store.close();
});
