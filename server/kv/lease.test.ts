import assert from "node:assert/strict";
import { test } from "node:test";
import { acquireLease, type LeaseRecord, releaseLease, renewLease } from "./lease.ts";
import { memoryStore } from "./memory.ts";

test("a lease stores its owner and expiry, and renewing can change the ttl", async () => {
  const store = memoryStore();
  const lease = await acquireLease(store, ["lease", "s1"], "proc-a", 1000);
  assert.ok(lease);
  const record = (await store.get<LeaseRecord>(["lease", "s1"]))!.value;
  assert.equal(record.owner, "proc-a");
  assert.equal(record.token, lease.token);
  const renewed = await renewLease(store, lease, 60_000);
  assert.ok(renewed && renewed.expiresAt >= lease.expiresAt + 50_000);
  assert.equal(renewed.ttlMs, 60_000);
  await store.close();
});

test("a released lease cannot be renewed or released again", async () => {
  const store = memoryStore();
  const lease = (await acquireLease(store, ["lease", "s2"], "proc-a", 1000))!;
  assert.equal(await releaseLease(store, lease), true);
  assert.equal(await renewLease(store, lease), null);
  assert.equal(await releaseLease(store, lease), false);
  assert.equal(await store.get(["lease", "s2"]), null);
  await store.close();
});

test("the same owner re-acquiring gets a new token, and the old lease object is stale", async () => {
  const store = memoryStore();
  const first = (await acquireLease(store, ["lease", "s3"], "proc-a", 30))!;
  await new Promise((resolve) => setTimeout(resolve, 60));
  const second = (await acquireLease(store, ["lease", "s3"], "proc-a", 1000))!;
  assert.notEqual(second.token, first.token);
  assert.equal(await renewLease(store, first), null);
  assert.ok(await renewLease(store, second));
  await store.close();
});

test("acquireLease refuses a ttl that is not a positive number", async () => {
  const store = memoryStore();
  await assert.rejects(
    acquireLease(store, ["lease", "s4"], "proc-a", 0),
    /ttlMs must be a positive number/,
  );
  await store.close();
});
