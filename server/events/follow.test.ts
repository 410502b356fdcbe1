import { test } from "node:test";
import assert from "node:assert/strict";
import { memoryStore } from "../kv/memory.ts";
import { follow } from "./follow.ts";
import { EventHub } from "./hub.ts";

const publishMany = async (hub: EventHub, sid: string, n: number) => {
  for (let i = 0; i < n; i++) {
    await hub.publish(sid, "assistant:text_delta", { type: "text_delta", content: `w${i}` });
    if (i % 7 === 0) await new Promise((r) => setTimeout(r, 0));
  }
};

test("following from a position while events keep coming delivers each later event exactly once, in order", async () => {
  for (const after of [0, 5, 20, 39]) {
    const hub = new EventHub(memoryStore(), 1_000);
    await publishMany(hub, "s", 20);
    const got: number[] = [];
    const publishing = publishMany(hub, "s", 40);
    const stop = await follow(hub, "s", after, (e) => got.push(e.payload.seq));
    await publishing;
    stop();
    const expected = Array.from({ length: 60 - after }, (_, i) => after + 1 + i);
    assert.deepEqual(got, expected, `after ${after}`);
  }
});

test("concurrent publishes get distinct increasing seqs, delivered live in seq order", async () => {
  const hub = new EventHub(memoryStore(), 1_000);
  const live: number[] = [];
  const stop = hub.subscribe("c", (e) => live.push(e.payload.seq));
  await Promise.all(
    Array.from(
      { length: 30 },
      (_, i) =>
        hub.publish("c", "assistant:text_delta", { type: "text_delta", content: String(i) }),
    ),
  );
  stop();
  assert.deepEqual(live, Array.from({ length: 30 }, (_, i) => i + 1));
  assert.deepEqual((await hub.replay("c", 25)).map((e) => e.payload.seq), [26, 27, 28, 29, 30]);
});

test("following without a position is live only, and stopping ends delivery", async () => {
  const hub = new EventHub(memoryStore(), 1_000);
  await publishMany(hub, "l", 3);
  const got: number[] = [];
  const stop = await follow(hub, "l", undefined, (e) => got.push(e.payload.seq));
  await publishMany(hub, "l", 2);
  stop();
  await publishMany(hub, "l", 2);
  assert.deepEqual(got, [4, 5]);
});

test("the log keeps about the last LIMITS__EVENT_LOG_SIZE events; a resume from before it gets what is kept", async () => {
  const hub = new EventHub(memoryStore(), 100);
  await publishMany(hub, "b", 300);
  await hub.flush("b");
  const kept = (await hub.replay("b", 0)).map((e) => e.payload.seq);
  assert.ok(kept.length >= 100 && kept.length <= 150, `kept ${kept.length}`);
  assert.equal(kept.at(-1), 300);
  assert.deepEqual(
    kept,
    Array.from({ length: kept.length }, (_, i) => 301 - kept.length + i),
    "a contiguous tail",
  );
});

test("a hole left by another process's late log write is filled from the log before going live", async () => {
  const event = (seq: number) => ({
    event: "assistant:text_delta",
    payload: { type: "text_delta", seq },
  });
  const listeners = new Set<(e: ReturnType<typeof event>) => void>();
  const emit = (e: ReturnType<typeof event>) => listeners.forEach((fn) => fn(e));
  let replays = 0;
  // Event 3 went out (from another process) before we subscribed; its log write lands late.
  const hub = {
    subscribe: (_sid: string, fn: (e: ReturnType<typeof event>) => void) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    replay: (_sid: string, after: number) => {
      if (replays++ === 0) emit(event(4));
      const logged = replays === 1
        ? [event(1), event(2)]
        : [event(1), event(2), event(3), event(4)];
      return Promise.resolve(logged.filter((e) => e.payload.seq > after));
    },
    following: () => {},
  };
  const got: number[] = [];
  const stop = await follow(hub as never, "g", 0, (e) => got.push(e.payload.seq));
  emit(event(5));
  stop();
  assert.deepEqual(got, [1, 2, 3, 4, 5]);
  assert.equal(replays, 2);
});
