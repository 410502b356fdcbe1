/**
 * A new session's first commit carries its first block of event numbers: on a durable store
 * the numbers of its first events are reserved by the commit that creates the session, with
 * no write of their own, and a runtime started afresh on the store numbers after that block.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { denoKvStore } from "../kv/denokv.ts";
import type { Check, Mutation, Store } from "../kv/store.ts";
import { SEQ_BLOCK } from "../events/hub.ts";
import { harness, ISSUE_CONTEXT } from "../testing/harness.ts";
import { scriptedModel } from "../testing/scripted_model.ts";

const pend = () =>
  scriptedModel([{ calls: [{ name: "select_issue", args: { number: 42 }, id: "call_1" }] }]);

test("a new session's first commit reserves its event numbers; nothing else writes them", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-first-commit-"));
  const file = join(dir, "kv.db");
  const writes: { checks: readonly Check[]; keys: string[] }[] = [];
  const store = await denoKvStore(file);
  const record = (checks: readonly Check[], mutations: readonly Mutation[]) =>
    writes.push({ checks, keys: mutations.map((m) => m.key.join("/")) });
  const watched = new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== "function") return value;
      if (prop === "set") {
        return (
          key: string[],
          ...rest: never[]
        ) => (record([], [{ key }]), value.call(target, key, ...rest));
      }
      if (prop === "commit" || prop === "atomic") {
        return (checks: Check[], mutations: Mutation[]) => (
          record(checks, mutations), value.call(target, checks, mutations)
        );
      }
      return value.bind(target);
    },
  }) as Store;
  try {
    const h = harness({ store: watched, model: pend(), modelName: "scripted" });
    const first = await h.chat({
      session_id: "fc",
      content: "select issue 42",
      host_context: ISSUE_CONTEXT,
    });
    assert.equal(first.status, 200);
    await h.close();
    // On a shared store the commit that releases the lease may hand the block's unused rest
    // back (it writes the key beside the lease's deletion); that returns numbers, it reserves none.
    const reserving = writes.filter((w) =>
      w.keys.includes("event_seq_reserved/fc") && !w.keys.includes("lease/fc")
    );
    assert.equal(reserving.length, 1, JSON.stringify(writes));
    assert.ok(reserving[0].keys.includes("session/fc"), "in the commit that writes the session");
    assert.deepEqual(reserving[0].checks, [{ key: ["session", "fc"], version: null }]);
    const reopened = await denoKvStore(file);
    const reserved = await reopened.get<number>(["event_seq_reserved", "fc"]);
    const logged = await reopened.list<{ payload: { seq: number } }>(["event", "fc"]);
    // The block reserved, or what the release handed back of it: never below a logged number.
    const top = Math.max(...logged.map((e) => e.value.payload.seq));
    assert.ok(logged.length > 0 && top <= SEQ_BLOCK);
    assert.ok(reserved !== null && reserved.value >= top && reserved.value <= SEQ_BLOCK);
    const again = harness({ store: reopened, model: pend(), modelName: "scripted" });
    assert.equal(await (await again.app.engine()).hub.lastSeq("fc"), reserved.value);
    await again.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
