import { test } from "node:test";
import assert from "node:assert/strict";
import { scriptedModel } from "../testing/scripted_model.ts";
import { memoryStore } from "../kv/memory.ts";
import { wrapStore } from "../testing/wrap_store.ts";
import {
  client,
  completed,
  ISSUE_CONTEXT,
  mid,
  type Received,
  runtime,
  sleep,
} from "./_test_kit.ts";

const names = (events: Received[]) =>
  events.map((e) =>
    e.event === "assistant:status" ? `status:${e.payload.status}` : e.event.slice(10)
  );

test("a text turn arrives in order with seq on every event and type in every payload", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "Hello there friend." }]) });
  const a = await client(rt.url);
  const joined = await a.ask("assistant_join_session", { session_id: "t1" });
  assert.equal(joined.ok, true);
  const answer = await a.ask("assistant_message", { id: mid(), session_id: "t1", content: "hi" });
  assert.equal(answer.ok, true);
  assert.equal(answer.content, "Hello there friend.");
  await a.until(completed);
  assert.deepEqual(names(a.events), [
    "status:started",
    "text_delta",
    "text_delta",
    "text_delta",
    "final_response",
    "status:completed",
  ]);
  assert.deepEqual(a.events.map((e) => e.payload.seq), [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(a.events.map((e) => e.payload.type), [
    "agent_status",
    "text_delta",
    "text_delta",
    "text_delta",
    "final_response",
    "agent_status",
  ]);
  assert.equal(a.events[4].payload.content, "Hello there friend.");
  a.close();
  await rt.close();
});

test("a host-call turn ends with tool_call host, final_response pending_tool_call, status completed", async () => {
  const rt = await runtime({
    model: scriptedModel([{ calls: [{ name: "select_issue", args: { number: 42 } }] }, {
      text: "Selected.",
    }]),
  });
  const a = await client(rt.url);
  await a.ask("assistant_join_session", { session_id: "h1", host_context: ISSUE_CONTEXT });
  await a.ask("assistant_message", { id: mid(), session_id: "h1", content: "select 42" });
  assert.deepEqual(names(a.events), [
    "status:started",
    "tool_call",
    "final_response",
    "status:completed",
  ]);
  const [, call, final] = a.events;
  assert.equal(call.payload.category, "host");
  assert.equal(final.payload.pending_tool_call.call_id, call.payload.call_id);
  assert.deepEqual(final.payload.pending_tool_call.arguments, { number: 42 });
  a.events.length = 0;
  const done = await a.ask("assistant_message", {
    id: mid(),
    session_id: "h1",
    content: "",
    tool_call_id: call.payload.call_id,
    tool_result: { selected: 42 },
  });
  assert.equal(done.content, "Selected.");
  assert.deepEqual(names(a.events), [
    "status:started",
    "tool_result",
    "text_delta",
    "final_response",
    "status:completed",
  ]);
  assert.equal(a.events[0].payload.seq, 5, "seq continues across turns");
  assert.equal(a.events[1].payload.call_id, call.payload.call_id);
  assert.deepEqual(
    a.events[1].payload.output,
    { selected: 42 },
    "every client learns the host's result",
  );
  a.close();
  await rt.close();
});

test("two clients on one session both receive every event, the second without sending anything", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "One two three four." }]) });
  const a = await client(rt.url);
  const b = await client(rt.url);
  await a.ask("assistant_join_session", { session_id: "two" });
  await b.ask("assistant_join_session", { session_id: "two" });
  await a.ask("assistant_message", { id: mid(), session_id: "two", content: "count" });
  await b.until(completed);
  assert.equal(a.events.length, 7);
  assert.deepEqual(b.events, a.events);
  a.close();
  b.close();
  await rt.close();
});

test("a client that reconnects mid-turn with after = its last seq loses nothing and gets nothing twice", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "alpha beta gamma", delayMs: 300 }]) });
  const watcher = await client(rt.url);
  await watcher.ask("assistant_join_session", { session_id: "r1" });
  const a = await client(rt.url);
  await a.ask("assistant_join_session", { session_id: "r1" });
  const sent = watcher.ask("assistant_message", { id: mid(), session_id: "r1", content: "go" });
  await a.until((e) => e.event === "assistant:text_delta");
  a.close();
  const seen = a.events.at(-1)!.payload.seq;
  await sleep(100);
  const again = await client(rt.url);
  const joined = await again.ask("assistant_join_session", { session_id: "r1", after: seen });
  assert.equal(joined.ok, true);
  await sent;
  await again.until(completed);
  await watcher.until(completed);
  const resumed = [...a.events.filter((e) => e.payload.seq <= seen), ...again.events];
  assert.deepEqual(resumed.map((e) => e.payload.seq), watcher.events.map((e) => e.payload.seq));
  assert.deepEqual(resumed, watcher.events);
  watcher.close();
  again.close();
  await rt.close();
});

test("joining with after replays a finished turn exactly once, then stays live", async () => {
  const rt = await runtime({
    model: scriptedModel([{ text: "first answer" }, { text: "second" }]),
  });
  const a = await client(rt.url);
  await a.ask("assistant_message", { id: mid(), session_id: "rp", content: "one" });
  const b = await client(rt.url);
  const joined = await b.ask("assistant_join_session", { session_id: "rp", after: 2 });
  assert.equal(joined.last_seq, 5);
  assert.deepEqual(b.events.map((e) => e.payload.seq), [3, 4, 5]);
  await a.ask("assistant_message", { id: mid(), session_id: "rp", content: "two" });
  await b.until((e) => completed(e) && e.payload.seq > 5);
  assert.deepEqual(b.events.map((e) => e.payload.seq), [3, 4, 5, 6, 7, 8, 9]);
  a.close();
  b.close();
  await rt.close();
});

test("an ordinary message during a live turn cancels it, waits for its cleanup, then starts", async () => {
  const model = scriptedModel([{ text: "slow answer", delayMs: 2_000 }, { text: "fast answer" }]);
  const rt = await runtime({ model });
  const a = await client(rt.url);
  await a.ask("assistant_join_session", { session_id: "c1" });
  const first = a.ask("assistant_message", { id: mid(), session_id: "c1", content: "slow" });
  await a.until((e) => e.event === "assistant:text_delta");
  const second = await a.ask("assistant_message", { id: mid(), session_id: "c1", content: "fast" });
  assert.equal(second.content, "fast answer");
  const cancelled = await first;
  assert.equal(cancelled.error_type, "cancelled");
  const order = names(a.events);
  assert.deepEqual(order, [
    "status:started",
    "text_delta",
    "text_delta",
    "final_response",
    "error",
    "status:completed",
    "status:started",
    "text_delta",
    "text_delta",
    "final_response",
    "status:completed",
  ]);
  assert.equal(a.events[4].payload.error_type, "cancelled");
  a.close();
  await rt.close();
});

test("a continuation never cancels the live turn", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "keep going", delayMs: 400 }]) });
  const a = await client(rt.url);
  const turn = a.ask("assistant_message", { id: mid(), session_id: "k1", content: "go" });
  await a.until((e) => e.event === "assistant:text_delta");
  const late = await a.ask("assistant_message", {
    id: mid(),
    session_id: "k1",
    content: "",
    tool_call_id: "call_nope",
    tool_result: 1,
  });
  assert.equal(late.ok, false);
  assert.equal(late.error.type, "session");
  assert.equal(late.error.error_type, "session_error");
  const result = await turn;
  assert.equal(result.content, "keep going");
  assert.equal(result.error_type, undefined);
  a.close();
  await rt.close();
});

test("assistant_cancel cancels the live turn for every attached client", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "never finished", delayMs: 3_000 }]) });
  const a = await client(rt.url);
  const b = await client(rt.url);
  await b.ask("assistant_join_session", { session_id: "x1" });
  const sent = a.ask("assistant_message", { id: mid(), session_id: "x1", content: "go" });
  await b.until((e) => e.event === "assistant:text_delta");
  const answer = await b.ask("assistant_cancel", { session_id: "x1" });
  assert.deepEqual(answer, { ok: true, session_id: "x1", cancelled: true });
  const error = await b.until((e) => e.event === "assistant:error");
  assert.equal(error.payload.error_type, "cancelled");
  await a.until(completed);
  // The sender's own answer comes after the turn's events, and says the turn was cancelled.
  const own = await sent;
  assert.equal(own.error_type, "cancelled");
  a.close();
  b.close();
  await rt.close();
});

test("a socket resuming from the log ahead of a lagging channel gets each event once", async () => {
  // Two processes on one shared store whose channel brings events 200 ms after they are logged.
  const inner = memoryStore();
  const store = wrapStore(inner, {
    name: "lagging",
    capabilities: { shared: true, durable: true },
    publish: (channel, message) => (
      setTimeout(() => inner.publish(channel, message), 200), Promise.resolve()
    ),
  });
  const a = await runtime({ store, model: scriptedModel([{ text: "Hello there friend." }]) });
  const b = await runtime({ store });
  const sender = await client(a.url);
  const socket = await client(b.url);
  try {
    const sent = await sender.ask("assistant_message", {
      id: mid(),
      session_id: "lag1",
      content: "hi",
    });
    assert.equal(sent.ok, true, JSON.stringify(sent));
    // B reads the turn from the log before its channel brings it.
    const joined = await socket.ask("assistant_join_session", { session_id: "lag1", after: 0 });
    assert.equal(joined.ok, true, JSON.stringify(joined));
    await socket.until(completed);
    await sleep(400); // the channel's late copies reach B meanwhile
    const seqs = socket.events.map((e) => e.payload.seq);
    assert.deepEqual(seqs, [1, 2, 3, 4, 5, 6], "each event once, in order");
  } finally {
    sender.close();
    socket.close();
    await a.close();
    await b.close();
  }
});
