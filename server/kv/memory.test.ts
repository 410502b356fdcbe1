import { test } from "node:test";
import assert from "node:assert/strict";
import { memoryStore } from "./memory.ts";
import { runStoreContract } from "./store.case.ts";
import { harness, ISSUE_CONTEXT } from "../testing/harness.ts";
import { scriptedModel } from "../testing/scripted_model.ts";

runStoreContract("memory", { open: () => Promise.resolve(memoryStore()) });

test("the memory store answers on a later turn of the event loop, its work done when called", async () => {
  const store = memoryStore();
  const order: string[] = [];
  setImmediate(() => order.push("a turn of the event loop"));
  const written = store.set(["k"], { n: 1 }).then(() => order.push("set answered"));
  // The write is done already, in the call: a read issued now sees it.
  const read = store.get<{ n: number }>(["k"]);
  await written;
  assert.deepEqual(order, ["a turn of the event loop", "set answered"]);
  assert.deepEqual((await read)?.value, { n: 1 });
  const committed = await store.commit([{ key: ["k"], version: "nope" }], []);
  assert.equal(committed, null, "a refused commit answers on a later turn too");
  await store.close();
});

test("concurrent turns on the memory store take turns: a timer waits for no whole burst", async () => {
  const h = harness({
    store: memoryStore(),
    model: scriptedModel(Array.from({ length: 24 }, () => ({ text: "Noted." }))),
  });
  try {
    let finished = 0;
    let finishedWhenTheLoopTurned = -1;
    setImmediate(() => (finishedWhenTheLoopTurned = finished));
    await Promise.all(Array.from({ length: 24 }, async (_, i) => {
      const res = await h.chat({
        session_id: `burst-${i}`,
        content: "hi",
        host_context: ISSUE_CONTEXT,
      });
      assert.equal(res.status, 200);
      finished++;
    }));
    // Settled in microtasks, all the turns ran to their end before the loop turned once.
    assert.equal(finishedWhenTheLoopTurned, 0);
  } finally {
    await h.close();
  }
});
