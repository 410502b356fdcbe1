/**
 * Finding 2 of the second hardening round: Bob follows session X over
 * Socket.IO and over SSE, deletes it, and Alice creates X. Bob's socket and
 * stream must receive nothing of hers: deletion closes his stream and empties
 * the room, and every delivered event is checked against the session's
 * current owner and generation. On memory, Deno KV and Redis (in one process,
 * and across two processes on Redis). Bounds: every answer within 3 s,
 * `/health` within 100 ms during the attack.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  client,
  completed,
  readSse,
  runtime,
  sleep,
  type SseEvent,
  type TestRuntime,
} from "../../server/transports/_test_kit.ts";
import { sessionRoom } from "../../server/transports/_room_fanout.ts";
import { requireService } from "../../server/kv/store.case.ts";
import { dropNamespace, freshNamespace, openStore } from "../multiprocess/_stores.ts";
import { ANSWER_BOUND_MS, underLoad, watchHealth } from "./_kit.ts";
import { storesUnderTest } from "./_stores.ts";
import { healthBound } from "./_bounds.ts";

const as = (who: string, extra: Record<string, string> = {}) => ({
  "x-tether-principal": who,
  ...extra,
});
const chat = (url: string, who: string, sid: string, content: string) =>
  fetch(`${url}/api/chat`, {
    method: "POST",
    headers: as(who, { "content-type": "application/json" }),
    body: JSON.stringify({ session_id: sid, content }),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

/** Bob follows X on `follower`, deletes it on `deleter`; Alice then creates X there. */
async function scenario(follower: TestRuntime, deleter: TestRuntime) {
  const sid = `x-${crypto.randomUUID().slice(0, 8)}`;
  assert.equal((await chat(deleter.url, "bob", sid, "hello")).status, 200);
  const bob = await client(follower.url, { extraHeaders: as("bob") });
  const stream = new AbortController();
  const sse: SseEvent[] = [];
  let streamEnded = false;
  try {
    await bob.ask("assistant_join_session", { session_id: sid });
    const res = await fetch(`${follower.url}/api/sessions/${sid}/events`, {
      headers: as("bob", { accept: "text/event-stream" }),
      signal: stream.signal,
    });
    assert.equal(res.status, 200);
    const reading = readSse(res, (e) => (sse.push(e), false)).then(
      () => (streamEnded = true),
      () => {},
    );
    await sleep(50);
    const health = watchHealth(follower.url);
    const started = performance.now();
    const del = await fetch(`${deleter.url}/api/sessions/${sid}`, {
      method: "DELETE",
      headers: as("bob"),
    });
    assert.ok(del.status < 300, `delete answered ${del.status}`);
    const seenBySocket = bob.events.length;
    const seenByStream = sse.length;
    const alice = await client(deleter.url, { extraHeaders: as("alice") });
    try {
      await alice.ask("assistant_join_session", { session_id: sid });
      const answer = await alice.ask("assistant_message", {
        session_id: sid,
        content: "my secret plans",
      });
      assert.equal(answer.ok, true, JSON.stringify(answer));
      await alice.until(completed);
    } finally {
      alice.close();
    }
    const took = performance.now() - started;
    await sleep(100); // anything in flight arrives
    const slowest = await health();
    assert.ok(
      took < underLoad(ANSWER_BOUND_MS),
      `delete and re-creation took ${took.toFixed(0)} ms`,
    );
    assert.ok(slowest < healthBound(), `/health took ${slowest.toFixed(0)} ms`);
    const leaked = bob.events.slice(seenBySocket).filter((e) => e.event !== "assistant:error");
    assert.deepEqual(leaked.map((e) => e.event), [], "Bob's socket received Alice's events");
    // Bob's stream ended with the deletion, before any of Alice's events.
    await Promise.race([reading, sleep(500)]);
    assert.ok(streamEnded, "Bob's SSE stream was closed by the deletion");
    const streamed = sse.slice(seenByStream).map((e) => e.event);
    assert.deepEqual(streamed, [], "Bob's SSE stream received Alice's events");
    const members = await follower.io!.of("/assistant").in(sessionRoom(sid)).fetchSockets();
    assert.ok(!members.some((s) => s.id === bob.socket.id), "Bob's socket is out of X's room");
    const forbidden = await fetch(`${follower.url}/api/sessions/${sid}`, { headers: as("bob") });
    await forbidden.body?.cancel();
    assert.equal(forbidden.status, 403);
  } finally {
    stream.abort();
    bob.close();
  }
}

for (const under of storesUnderTest("deleted session's followers")) {
  test(`a deleted session's followers receive nothing of the next owner (${under.name})`, async () => {
    const { store, release } = await under.open();
    const rt = await runtime({ store, env: { ACCESS__MODE: "header" } });
    try {
      await scenario(rt, rt);
    } finally {
      await rt.close();
      await release();
    }
  });
}

const redis = requireService("REDIS_URL", "deleted session's followers across two processes");
if (redis) {
  test("across two processes on Redis, the follower's process closes and refuses too", async () => {
    const namespace = freshNamespace();
    const [a, b] = [await openStore(redis!, namespace), await openStore(redis!, namespace)];
    const one = await runtime({ store: a, env: { ACCESS__MODE: "header" } });
    const two = await runtime({ store: b, env: { ACCESS__MODE: "header" } });
    try {
      await scenario(one, two);
    } finally {
      await one.close();
      await two.close();
      await a.close();
      await b.close();
      await dropNamespace(redis!, namespace);
    }
  });
}
