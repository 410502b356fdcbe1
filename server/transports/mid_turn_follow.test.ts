/**
 * A follower that arrives during a turn, with no position of its own (a page opened while
 * another client's turn runs), is given that turn from its `started` event, over SSE and over
 * Socket.IO, so it shows the turn running from its first words; once the turn has ended, a new
 * follower starts live again.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { scriptedModel } from "../testing/scripted_model.ts";
import { client, completed, readSse, runtime, type TestRuntime } from "./_test_kit.ts";

const started = (e: { event: string; payload?: { status?: string }; data?: { status?: string } }) =>
  e.event === "assistant:status" && (e.payload ?? e.data)?.status === "started";

/**
 * Follows a session over SSE, without a position: `first` resolves once the follower got its
 * first event (it is following, so the turn may go on), `events` once the turn completed (30 s
 * at most).
 */
async function followSse(rt: { url: string }, session: string) {
  let seen = () => {};
  const first = new Promise<void>((resolve) => (seen = resolve));
  const read = readSse(await fetch(`${rt.url}/api/sessions/${session}/events`), (e) => {
    seen();
    return e.event === "assistant:status" && e.data.status === "completed";
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the SSE follower never saw the turn end")), 30_000);
  });
  const events = Promise.race([read, late]).finally(() => clearTimeout(timer));
  const following = Promise.race([first, late]);
  // A case that failed before awaiting them must not leave a rejection nobody handles.
  events.catch(() => {});
  following.catch(() => {});
  return { first: following, events };
}

/**
 * Follows a running turn over SSE and Socket.IO, both without a position, lets it finish once
 * the socket has its words, and checks that the SSE follower got the turn from its start.
 */
async function followBoth(rt: { url: string }, session: string, release: () => void) {
  const sse = await followSse(rt, session);
  const socket = await client(rt.url);
  assert.equal((await socket.ask("assistant_join_session", { session_id: session })).ok, true);
  // Both follow the turn before it goes on: one that came after its end would start live.
  await socket.until((e) => e.event === "assistant:text_delta");
  await sse.first;
  release();
  const events = await sse.events;
  assert.ok(started(events[0]), `the SSE follower starts at the turn's start: ${events[0].event}`);
  return { events, socket };
}

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

    const { events, socket } = await followBoth(rt, session, release);
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

/**
 * Runs `body` during a turn whose answer is `words` pieces of text, every piece logged and the
 * turn held before its end, on a runtime whose log keeps `log` events; `release` lets the
 * turn finish. The turn is released and the runtime closed however `body` ends.
 */
async function duringLongTurn(
  words: number,
  log: number,
  body: (t: {
    rt: TestRuntime;
    session: string;
    turn: Promise<Response>;
    release: () => void;
  }) => Promise<void>,
): Promise<void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const text = Array.from({ length: words }, (_, i) => `w${i}`).join(" ");
  const model = scriptedModel([{ text, until: held }]);
  const rt = await runtime({
    model,
    modelName: "scripted",
    env: { LIMITS__EVENT_LOG_SIZE: String(log) },
  });
  const session = `long-${Date.now()}-${words}`;
  try {
    const turn = fetch(`${rt.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ session_id: session, content: "Say a lot." }),
    });
    // Every piece of the answer is logged before anyone follows the turn.
    const deadline = Date.now() + 60_000;
    while ((await rt.engine.hub.lastSeq(session)) < words + 1) {
      if (Date.now() > deadline) throw new Error("timed out waiting for the answer to stream");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await body({ rt, session, turn, release });
  } finally {
    release();
    await rt.close();
  }
}

test("a follower arriving late in a long answer still gets the turn from its start", {
  timeout: 120_000,
}, () =>
  // 450 pieces of text: the turn's start is more than two pages back in the log.
  duringLongTurn(450, 1_000, async ({ rt, session, turn, release }) => {
    const { events, socket } = await followBoth(rt, session, release);
    assert.equal(
      events.filter((e) => e.event === "assistant:text_delta").length,
      450,
      "and gets every piece of the answer",
    );
    await socket.until(completed);
    assert.ok(started(socket.events[0]), "the socket starts at the turn's start too");
    assert.equal((await turn).status, 200);
    socket.close();
  }));

test("a turn longer than the log is followed from the oldest event the log still keeps", {
  timeout: 120_000,
}, () =>
  // The log keeps 100 events; the answer alone is 300, so its `started` event is trimmed.
  duringLongTurn(300, 100, async ({ rt, session, turn, release }) => {
    const kept = await rt.engine.hub.replay(session, 0);
    assert.ok(
      !kept.some((e) => e.event === "assistant:status" && e.payload.status === "started"),
      "the turn's start is no longer in the log",
    );
    const sse = await followSse(rt, session);
    // The follower follows the turn before it goes on.
    await sse.first;
    release();
    const events = await sse.events;
    assert.equal(
      events[0].id,
      String(kept[0].payload.seq),
      "the follower starts at the oldest event kept, not live",
    );
    assert.equal((await turn).status, 200);
  }));
