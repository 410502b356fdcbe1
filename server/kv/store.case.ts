/**
 * The contract every store adapter passes: each adapter's `*.test.ts` calls
 * `runStoreContract()` with a fixture that opens stores on its backend.
 * Tests use a fresh random first key part, so several runs may share one
 * backend.
 *
 * @module
 */

import assert from "node:assert/strict";
import { env } from "node:process";
import { describe, test } from "node:test";
import { sleep, type StoreFixture, withStore } from "./_case.ts";
import { runMoreContract } from "./_more.case.ts";
import type { Store } from "./store.ts";

export { sleep, type StoreFixture, withStore };

/**
 * Registers the store contract tests for one adapter.
 *
 * @example
 * ```ts
 * import { memoryStore } from "./memory.ts";
 * import { runStoreContract } from "./store.case.ts";
 * runStoreContract("memory", { open: async () => memoryStore() });
 * ```
 */
export function runStoreContract(name: string, fixture: StoreFixture): void {
  describe(`${name} store contract`, () => {
    runBasicContract(fixture);
    runMoreContract(fixture);
  });
}

/**
 * Returns the service URL in `variable`, or registers a skipped (or, with `CI=true`, failing) test and returns undefined.
 *
 * @example
 * ```ts
 * import { requireService } from "./store.case.ts";
 * const url = requireService("REDIS_URL", "redis store contract");
 * ```
 */
export function requireService(variable: string, suite: string): string | undefined {
  const url = env[variable];
  if (url) return url;
  if (env.CI === "true") {
    test(suite, () => {
      throw new Error(`${variable} is not set; CI must configure it so "${suite}" runs.`);
    });
  } else {
    console.log(`SKIPPED: ${suite}: ${variable} is not set`);
    test.skip(`${suite} (${variable} is not set)`, () => {});
  }
  return undefined;
}

function runBasicContract(fixture: StoreFixture): void {
  test("reads back what it wrote, with a new version on every write", () =>
    withStore(fixture, async (store, k) => {
      const value = { turn: 1, text: "héllo ✓ 𝄞", list: [1, 2.5, null, true], nested: { a: {} } };
      await store.set(k("s"), value);
      const first = await store.get(k("s"));
      assert.deepEqual(first?.key, k("s"));
      assert.deepEqual(first?.value, value);
      assert.equal(typeof first?.version, "string");
      await store.set(k("s"), value);
      const second = await store.get(k("s"));
      assert.notEqual(second?.version, first?.version);
      for (const primitive of ["text", 42, false, null, ""]) {
        await store.set(k("p"), primitive);
        assert.deepEqual((await store.get(k("p")))?.value, primitive);
      }
    }));

  test("a missing key reads as null and deleting it is not an error", () =>
    withStore(fixture, async (store, k) => {
      assert.equal(await store.get(k("nothing")), null);
      await store.delete(k("nothing"));
      await store.set(k("x"), 1);
      await store.delete(k("x"));
      assert.equal(await store.get(k("x")), null);
    }));

  test("values are copies: changing an object after set or get leaves the store alone", () =>
    withStore(fixture, async (store, k) => {
      const value = { items: [1] };
      await store.set(k("c"), value);
      value.items.push(2);
      const read = await store.get<{ items: number[] }>(k("c"));
      assert.deepEqual(read?.value, { items: [1] });
      read!.value.items.push(3);
      assert.deepEqual((await store.get(k("c")))?.value, { items: [1] });
    }));

  test("getMany returns entries in the order asked, null for missing keys", () =>
    withStore(fixture, async (store, k) => {
      await store.set(k("1"), "one");
      await store.set(k("3"), "three");
      const keys = [
        k("3"),
        k("2"),
        k("1"),
        ...Array.from({ length: 12 }, (_, i) => k("n", `${i}`)),
      ];
      const entries = await store.getMany(keys);
      assert.deepEqual(entries.map((e) => e?.value ?? null).slice(0, 3), ["three", null, "one"]);
      assert.equal(entries.length, 15);
      assert.deepEqual(entries[0]?.key, k("3"));
    }));

  test("list returns keys under the prefix in ascending order, deeper keys included", () =>
    withStore(fixture, async (store, k) => {
      for (const seq of ["0010", "0002", "0001"]) await store.set(k("m", seq), seq);
      await store.set(k("m"), "the prefix itself");
      await store.set(k("m", "0001", "x"), "deeper");
      const keys = (await store.list(k("m"))).map((e) => e.key);
      assert.deepEqual(keys, [k("m", "0001"), k("m", "0001", "x"), k("m", "0002"), k("m", "0010")]);
    }));

  test('prefix ["a"] does not match ["ab"], whatever the characters', () =>
    withStore(fixture, async (store, k) => {
      const parts = ["a", "ab", "a\x00", "a\x01b", "a\x02", "a b", "\uffff", "\u{10000}", "é"];
      for (const part of parts) await store.set(k(part, "1"), part);
      for (const part of parts) {
        assert.deepEqual((await store.list(k(part))).map((e) => e.value), [part]);
      }
      const all = (await store.list(k())).map((e) => e.value);
      // Code point order, as UTF-8 bytes compare.
      assert.deepEqual(all, [
        "a",
        "a\x00",
        "a\x01b",
        "a\x02",
        "a b",
        "ab",
        "é",
        "\uffff",
        "\u{10000}",
      ]);
    }));

  test("list honours after, reverse and limit", () =>
    withStore(fixture, async (store, k) => {
      for (const id of ["a", "b", "c", "d"]) await store.set(k("l", id), id);
      await store.set(k("l", "b", "child"), "b/child");
      const values = async (options: Parameters<Store["list"]>[1]) =>
        (await store.list(k("l"), options)).map((e) => e.value);
      assert.deepEqual(await values({ after: "b" }), ["b/child", "c", "d"]);
      assert.deepEqual(await values({ after: "bb" }), ["c", "d"]);
      assert.deepEqual(await values({ reverse: true }), ["d", "c", "b/child", "b", "a"]);
      assert.deepEqual(await values({ reverse: true, after: "c" }), ["b/child", "b", "a"]);
      assert.deepEqual(await values({ limit: 2 }), ["a", "b"]);
      assert.deepEqual(await values({ reverse: true, limit: 1 }), ["d"]);
      assert.deepEqual(await values({ after: "a", limit: 2 }), ["b", "b/child"]);
      assert.deepEqual(await values({ after: "d" }), []);
      assert.deepEqual(await store.list(k("none")), []);
    }));

  test("atomic commits every mutation when every check holds", () =>
    withStore(fixture, async (store, k) => {
      assert.equal(
        await store.atomic([{ key: k("s"), version: null }], [
          { key: k("s"), value: { turn: 1 } },
          { key: k("msg", "0001"), value: "hi" },
        ]),
        true,
      );
      const s = await store.get(k("s"));
      assert.deepEqual(s?.value, { turn: 1 });
      assert.equal(
        await store.atomic([{ key: k("s"), version: s!.version }], [
          { key: k("s"), value: { turn: 2 } },
          { key: k("msg", "0001") },
          { key: k("lease"), value: "me", expireIn: 60_000 },
        ]),
        true,
      );
      assert.deepEqual((await store.get(k("s")))?.value, { turn: 2 });
      assert.equal(await store.get(k("msg", "0001")), null);
      assert.equal((await store.get(k("lease")))?.value, "me");
      assert.equal(await store.atomic([], []), true);
    }));

  test("commit answers the version each write left its key at, which a later check accepts", () =>
    withStore(fixture, async (store, k) => {
      await store.set(k("gone"), "x");
      const first = await store.commit([{ key: k("s"), version: null }], [
        { key: k("s"), value: { turn: 1 } },
        { key: k("gone") },
        { key: k("msg", "0001"), value: "hi", expireIn: 60_000 },
      ]);
      assert.ok(first, "the commit holds");
      assert.equal(first.length, 3);
      assert.equal(first[1], null, "a delete has no version");
      assert.equal(first[0], (await store.get(k("s")))!.version);
      assert.equal(first[2], (await store.get(k("msg", "0001")))!.version);
      // No read between: the answered version is what the next commit checks.
      const second = await store.commit([{ key: k("s"), version: first[0] }], [
        { key: k("s"), value: { turn: 2 } },
      ]);
      assert.ok(second);
      assert.notEqual(second[0], first[0]);
      assert.equal(
        await store.commit([{ key: k("s"), version: first[0] }], [{ key: k("s"), value: 3 }]),
        null,
        "a stale version fails the check",
      );
      assert.deepEqual((await store.get(k("s")))?.value, { turn: 2 });
      assert.deepEqual(await store.commit([], []), []);
    }));

  test("atomic applies nothing when any check fails", () =>
    withStore(fixture, async (store, k) => {
      await store.set(k("s"), 1);
      const stale = (await store.get(k("s")))!.version;
      await store.set(k("s"), 2);
      assert.equal(
        await store.atomic([{ key: k("s"), version: stale }], [
          { key: k("s"), value: 3 },
          { key: k("other"), value: "x" },
        ]),
        false,
      );
      assert.equal(
        await store.atomic([{ key: k("other"), version: null }, { key: k("s"), version: null }], [{
          key: k("other"),
          value: "y",
        }]),
        false,
      );
      assert.equal(await store.atomic([{ key: k("gone"), version: stale }], []), false);
      assert.equal((await store.get(k("s")))?.value, 2);
      assert.equal(await store.get(k("other")), null);
    }));

  test("atomic delete removes the key and its version", () =>
    withStore(fixture, async (store, k) => {
      await store.set(k("d"), "x");
      const entry = await store.get(k("d"));
      assert.equal(
        await store.atomic([{ key: k("d"), version: entry!.version }], [{ key: k("d") }]),
        true,
      );
      assert.equal(await store.get(k("d")), null);
      assert.equal(await store.atomic([{ key: k("d"), version: entry!.version }], []), false);
      assert.equal(
        await store.atomic([{ key: k("d"), version: null }], [{ key: k("d"), value: 1 }]),
        true,
      );
    }));

  test("of 100 concurrent atomic() calls on one version exactly one commits", () =>
    withStore(fixture, async (store, k) => {
      await store.set(k("race"), { winner: null });
      const { version } = (await store.get(k("race")))!;
      const results = await Promise.all(
        Array.from(
          { length: 100 },
          (_, i) =>
            store.atomic([{ key: k("race"), version }], [{ key: k("race"), value: { winner: i } }]),
        ),
      );
      const winners = results.flatMap((won, i) => won ? [i] : []);
      assert.equal(winners.length, 1);
      assert.deepEqual((await store.get(k("race")))?.value, { winner: winners[0] });
      const fresh = await Promise.all(
        Array.from(
          { length: 20 },
          () => store.atomic([{ key: k("new"), version: null }], [{ key: k("new"), value: 1 }]),
        ),
      );
      assert.equal(fresh.filter(Boolean).length, 1);
    }));

  test("rejects malformed keys and values with a clear error", () =>
    withStore(fixture, async (store, k) => {
      await assert.rejects(store.get([]), TypeError);
      await assert.rejects(store.set([...k(), ""], 1), TypeError);
      await assert.rejects(store.set(k("u"), undefined), TypeError);
      await assert.rejects(store.set(k("e"), 1, { expireIn: -5 }), TypeError);
      await assert.rejects(store.list([]), TypeError);
    }));
}
