/**
 * Every delivered event is checked against its follower: the viewer, and
 * the transports when a deletion notice never arrived (an event of another
 * owner published straight into the hub, as another process would).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { client, readSse, runtime, sleep } from "../transports/_test_kit.ts";
import { sessionRoom } from "../transports/_room_fanout.ts";
import type { SessionEvent } from "./hub.ts";
import { viewer } from "./stamp.ts";

const event = (owner?: string, generation = "g1"): SessionEvent => ({
  event: "assistant:text_delta",
  payload: { type: "text_delta", content: "x", seq: 1 },
  ...(owner ? { stamp: { owner, generation } } : {}),
});

test("a viewer accepts its owner's generation only, and nothing unstamped", () => {
  const bob = viewer({ id: "bob", roles: [] }, "g1");
  assert.equal(bob(event("bob")), true);
  assert.equal(bob(event("bob", "g2")), false, "another generation");
  assert.equal(bob(event("alice")), false, "another owner");
  assert.equal(bob(event()), false, "no stamp");
  const admin = viewer({ id: "root", roles: ["admin"] }, "g1");
  assert.equal(admin(event("alice")), true);
});

test("a viewer admitted before the session existed keeps the first generation it saw", () => {
  const bob = viewer({ id: "bob", roles: [] });
  assert.equal(bob(event("alice")), false);
  assert.equal(bob(event("bob", "g7")), true);
  assert.equal(bob(event("bob", "g8")), false);
});

test("an event of another owner reaches neither the room nor the stream, and ends both", async () => {
  const rt = await runtime({ env: { ACCESS__MODE: "header" } });
  const headers = { "x-tether-principal": "bob" };
  const bob = await client(rt.url, { extraHeaders: headers });
  try {
    await bob.ask("assistant_join_session", { session_id: "x" });
    const res = await fetch(`${rt.url}/api/sessions/x/events`, {
      headers: { ...headers, accept: "text/event-stream" },
    });
    const reading = readSse(res);
    await sleep(30);
    const before = bob.events.length;
    // As if the session had been deleted elsewhere and re-created by Alice, unnoticed here.
    await rt.engine.hub.publish(
      "x",
      "assistant:text_delta",
      { type: "text_delta", content: "hers" },
      {
        owner: "alice",
        generation: "other",
      },
    );
    const streamed = await Promise.race([reading, sleep(1_000).then(() => null)]);
    assert.ok(streamed, "the stream ended at the first event not for Bob");
    assert.deepEqual(streamed, []);
    await sleep(30);
    assert.deepEqual(bob.events.slice(before), []);
    const members = await rt.io!.of("/assistant").in(sessionRoom("x")).fetchSockets();
    assert.equal(members.length, 0, "Bob's socket left the room");
  } finally {
    bob.close();
    await rt.close();
  }
});
