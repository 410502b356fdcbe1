/**
 * A follower that arrives during a turn, with no position of its own (a page opened while
 * another client's turn runs), is given that turn from its `started` event, over SSE and over
 * Socket.IO, so it shows the turn running from its first words; once the turn has ended, a new
 * follower starts live again.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { scriptedModel } from "../testing/scripted_model.ts";
import { client, completed, readSse, runtime } from "./_test_kit.ts";

const started = (e: { event: string; payload?: { status?: string }; data?: { status?: string } }) =>
  e.event === "assistant:status" && (e.payload ?? e.data)?.status === "started";

test("a follower that arrives during a turn gets it from its start, over SSE and Socket.IO", async () => {
  // The answer's words stream, then the turn waits for `release()` before it finishes.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const model = scriptedModel([{ text: "First words, then the rest.", until: held }]);
  const rt = await runtime({ model, modelName: "scripted" });
  const session = `mid-${Date.now()}`;
  try {
    const turn = fetch(`${rt.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ session_id: session, content: "Go on." }),
    });
    // The turn runs and has said its first words before anyone follows it.
    for (let i = 0; i < 200; i++) {
      const view = await (await fetch(`${rt.url}/api/sessions/${session}?missing=null`)).json();
      if (view?.turn_running && (await rt.engine.hub.lastSeq(session)) >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    const sse = readSse(
      await fetch(`${rt.url}/api/sessions/${session}/events`),
      (e) => e.event === "assistant:status" && e.data.status === "completed",
    );
    const socket = await client(rt.url);
    const joined = await socket.ask("assistant_join_session", { session_id: session });
    assert.equal(joined.ok, true);
    await socket.until((e) => e.event === "assistant:text_delta");
    release();

    const events = await sse;
    assert.ok(
      started(events[0]),
      `the SSE follower starts at the turn's start: ${events[0].event}`,
    );
    assert.ok(events.some((e) => e.event === "assistant:text_delta"), "with its first words");
    await socket.until(completed);
    assert.ok(started(socket.events[0]), "the socket starts at the turn's start too");
    assert.equal((await turn).status, 200);
    socket.close();

    // With no turn running, a new follower starts live: the next event it gets is a new turn's.
    const later = await client(rt.url);
    await later.ask("assistant_join_session", { session_id: session });
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(later.events, [], "nothing of the ended turn is replayed");
    later.close();
  } finally {
    release();
    await rt.close();
  }
});
