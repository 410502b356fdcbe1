/**
 * The second half of the store contract (expiry, large values,
 * publish/subscribe, close, leases); `runStoreContract()` runs both halves.
 *
 * @module
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import { acquireLease, releaseLease, renewLease } from "./lease.ts";
import { sleep, type StoreFixture, withStore } from "./_case.ts";

/** Registers the expiry, large value, publish/subscribe, close and lease tests. */
export function runMoreContract(fixture: StoreFixture): void {
  test("a key written with expireIn disappears after it, everywhere", () =>
    withStore(fixture, async (store, k) => {
      // Generous windows: a loaded CI machine may take tens of milliseconds per write.
      await store.set(k("e", "short"), "short", { expireIn: 1_000 });
      await store.atomic([], [{ key: k("e", "atomic"), value: "atomic", expireIn: 1_000 }]);
      await store.set(k("e", "long"), "long", { expireIn: 60_000 });
      await store.set(k("e", "kept"), "kept", { expireIn: 1_000 });
      await store.set(k("e", "kept"), "kept"); // a write without expireIn clears the expiry
      assert.equal((await store.get(k("e", "short")))?.value, "short");
      await sleep(1_300);
      assert.equal(await store.get(k("e", "short")), null);
      assert.deepEqual(await store.getMany([k("e", "short"), k("e", "atomic")]), [null, null]);
      assert.deepEqual((await store.list(k("e"))).map((e) => e.value), ["kept", "long"]);
    }));

  test("an expired key counts as absent for atomic checks", () =>
    withStore(fixture, async (store, k) => {
      await store.set(k("x"), "old", { expireIn: 1_000 });
      const { version } = (await store.get(k("x")))!;
      await sleep(1_300);
      assert.equal(
        await store.atomic([{ key: k("x"), version }], [{ key: k("x"), value: "no" }]),
        false,
      );
      assert.equal(
        await store.atomic([{ key: k("x"), version: null }], [{ key: k("x"), value: "new" }]),
        true,
      );
      assert.equal((await store.get(k("x")))?.value, "new");
    }));

  test("round-trips 1 MB and 12 MB values through set, atomic and list", () =>
    withStore(fixture, async (store, k) => {
      const mb = "0123456789abcdef".repeat(65_536);
      const big = ("ü€😀" + "x".repeat(1015)).repeat(12 * 1024); // 12 MiB as UTF-8
      await store.set(k("big", "1mb"), mb);
      assert.equal((await store.get(k("big", "1mb")))?.value, mb);
      await store.set(k("big", "12mb"), big);
      assert.equal((await store.get(k("big", "12mb")))?.value, big);
      const attachment = { name: "scan.png", data: mb };
      assert.equal(
        await store.atomic([{ key: k("big", "obj"), version: null }], [
          { key: k("big", "obj"), value: attachment },
          { key: k("big", "small"), value: "s" },
        ]),
        true,
      );
      const listed = await store.list(k("big"));
      assert.deepEqual(listed.map((e) => e.key.at(-1)), ["12mb", "1mb", "obj", "small"]);
      assert.equal(listed[0].value, big);
      assert.deepEqual(listed[2].value, attachment);
      await store.set(k("big", "12mb"), "small now");
      assert.equal((await store.get(k("big", "12mb")))?.value, "small now");
      await store.delete(k("big", "1mb"));
      assert.equal(await store.get(k("big", "1mb")), null);
    }));

  test("publish reaches subscribers in every instance, in order, until they unsubscribe", () =>
    withStore(fixture, async (store, k) => {
      const other = fixture.peer ? await fixture.peer(store) : store;
      try {
        const channel = k("events").join(":");
        const got: unknown[] = [];
        const mine: unknown[] = [];
        const three = waitFor(() => got.length >= 3);
        const off = await other.subscribe(channel, (m) => got.push(m));
        const offMine = await store.subscribe(channel, (m) => mine.push(m));
        const large = { kind: "large", text: "x".repeat(20_000) };
        await store.publish(channel, { n: 1 });
        await store.publish(channel, large);
        await store.publish(channel, "three");
        await three;
        assert.deepEqual(got, [{ n: 1 }, large, "three"]);
        await waitFor(() => mine.length >= 3);
        await off();
        await offMine();
        await store.publish(channel, "after unsubscribe");
        await store.publish(`${channel}-other`, "elsewhere");
        await sleep(100);
        assert.equal(got.length, 3);
        assert.equal(mine.length, 3);
      } finally {
        if (other !== store) await other.close();
      }
    }));

  test("close releases the store and later calls fail clearly", async () => {
    const store = await fixture.open();
    await store.set([`t${crypto.randomUUID()}`, "k"], 1);
    await store.close();
    await assert.rejects(store.get(["k"]), /closed/);
  });

  test("a lease has one holder until it is released or expires", () =>
    withStore(fixture, async (store, k) => {
      const a = await acquireLease(store, k("lease"), "a", 60_000);
      assert.equal(a?.owner, "a");
      assert.equal(await acquireLease(store, k("lease"), "b", 60_000), null);
      assert.equal(await acquireLease(store, k("lease"), "a", 60_000), null);
      assert.equal(await releaseLease(store, a!), true);
      const b = await acquireLease(store, k("lease"), "b", 80);
      assert.equal(b?.owner, "b");
      await sleep(200);
      const c = await acquireLease(store, k("lease"), "c", 60_000);
      assert.equal(c?.owner, "c");
      assert.equal(await renewLease(store, b!), null);
      assert.equal(await releaseLease(store, b!), false);
      assert.equal((await store.get<{ owner: string }>(k("lease")))?.value.owner, "c");
    }));

  test("renewing keeps a lease past its first ttl; racing owners get one lease", () =>
    withStore(fixture, async (store, k) => {
      let lease = await acquireLease(store, k("r"), "a", 1_500);
      for (let i = 0; i < 3; i++) {
        await sleep(600);
        lease = await renewLease(store, lease!);
        assert.ok(lease, "renew should keep the lease");
      }
      assert.equal(await acquireLease(store, k("r"), "b", 1000), null);
      const racers = await Promise.all(
        ["p", "q", "r", "s", "t"].map((owner) => acquireLease(store, k("race"), owner, 60_000)),
      );
      assert.equal(racers.filter((l) => l !== null).length, 1);
    }));
}

async function waitFor(done: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!done()) {
    if (Date.now() > until) throw new Error(`Gave up waiting after ${ms} ms.`);
    await sleep(5);
  }
}
