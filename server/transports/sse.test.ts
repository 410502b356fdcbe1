import { test } from "node:test";
import assert from "node:assert/strict";
import { scriptedModel } from "../testing/scripted_model.ts";
import {
  client,
  completed,
  ISSUE_CONTEXT,
  mid,
  readSse,
  runtime,
  type SseEvent,
} from "./_test_kit.ts";

const SSE = { "content-type": "application/json", accept: "text/event-stream" };
const done = (e: SseEvent) => e.event === "assistant:status" && e.data.status === "completed";
const post = (url: string, body: unknown, headers: Record<string, string> = SSE) =>
  fetch(`${url}/api/chat`, { method: "POST", headers, body: JSON.stringify(body) });

test("POST /api/chat with Accept: text/event-stream streams the Socket.IO events with id = seq", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "Streamed over HTTP." }]) });
  const response = await post(rt.url, { id: mid(), session_id: "s1", content: "hi" });
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type")!, /text\/event-stream/);
  const events = await readSse(response);
  assert.deepEqual(events.map((e) => e.event), [
    "assistant:status",
    "assistant:text_delta",
    "assistant:text_delta",
    "assistant:text_delta",
    "assistant:final_response",
    "assistant:status",
  ]);
  assert.deepEqual(events.map((e) => e.id), ["1", "2", "3", "4", "5", "6"]);
  assert.deepEqual(events.map((e) => e.data.seq), [1, 2, 3, 4, 5, 6]);
  assert.equal(events[4].data.content, "Streamed over HTTP.");
  await rt.close();
});

test("SSE and Socket.IO carry the same payloads for the same turn", async () => {
  const rt = await runtime({
    model: scriptedModel([{ calls: [{ name: "select_issue", args: { number: 7 } }] }]),
  });
  const watcher = await client(rt.url);
  await watcher.ask("assistant_join_session", { session_id: "same", host_context: ISSUE_CONTEXT });
  const events = await readSse(
    await post(rt.url, { id: mid(), session_id: "same", content: "pick 7" }),
  );
  await watcher.until(completed);
  assert.deepEqual(events.map((e) => ({ event: e.event, payload: e.data })), watcher.events);
  assert.equal(events[1].data.category, "host");
  assert.equal(events[2].data.pending_tool_call.tool_name, "select_issue");
  watcher.close();
  await rt.close();
});

test("a request refused before its turn started gets the HTTP error answer, not a stream", async () => {
  const rt = await runtime();
  const bad = await post(rt.url, {
    id: mid(),
    session_id: "r1",
    content: "",
    tool_call_id: "call_x",
    tool_result: 1,
  });
  assert.equal(bad.status, 409);
  assert.equal((await bad.json()).error.type, "session_error");
  const invalid = await post(rt.url, { id: mid(), content: "no session" });
  assert.equal(invalid.status, 422);
  assert.match((await invalid.json()).error.message, /session_id/);
  await rt.close();
});

test("GET /api/sessions/{id}/events with Last-Event-ID resumes a broken stream without loss or repeats", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "one two three", delayMs: 300 }]) });
  const first = await post(rt.url, { id: mid(), session_id: "res", content: "go" });
  const before = await readSse(first, (e) => e.event === "assistant:text_delta"); // then the client drops it
  const last = before.at(-1)!.id!;
  const resumed = await fetch(`${rt.url}/api/sessions/res/events`, {
    headers: { accept: "text/event-stream", "last-event-id": last },
  });
  assert.equal(resumed.status, 200);
  const after = await readSse(resumed, done);
  const all = [...before, ...after];
  assert.deepEqual(all.map((e) => Number(e.id)), [1, 2, 3, 4, 5, 6]);
  assert.equal(all.at(-2)!.data.content, "one two three");
  const replay = await readSse(await fetch(`${rt.url}/api/sessions/res/events?after=0`), done);
  assert.deepEqual(replay, all, "?after=0 replays the whole kept log");
  await rt.close();
});

test("the events route refuses a bad position, an unknown session and stays live for the next turn", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "a" }, { text: "b" }]) });
  assert.equal((await fetch(`${rt.url}/api/sessions/none/events`)).status, 404);
  await readSse(await post(rt.url, { id: mid(), session_id: "live", content: "1" }));
  const bad = await fetch(`${rt.url}/api/sessions/live/events`, {
    headers: { "last-event-id": "x7" },
  });
  assert.equal(bad.status, 422);
  assert.match((await bad.json()).error.message, /Last-Event-ID must be a non-negative integer/);
  const live = await fetch(`${rt.url}/api/sessions/live/events?after=4`);
  const reading = readSse(live, (e) => done(e) && Number(e.id) > 4);
  await readSse(await post(rt.url, { id: mid(), session_id: "live", content: "2" }));
  assert.deepEqual((await reading).map((e) => Number(e.id)), [5, 6, 7, 8]);
  await rt.close();
});
