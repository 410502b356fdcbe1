import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { denoKvStore } from "./kv/denokv.ts";
import type { Mutation } from "./kv/store.ts";
import { harness, ISSUE_CONTEXT } from "./testing/harness.ts";
import { scriptedModel } from "./testing/scripted_model.ts";
import { wrapStore } from "./testing/wrap_store.ts";

const dir = await mkdtemp(join(tmpdir(), "tether-continuation-"));
after(() => rm(dir, { recursive: true, force: true }));

const pendOnce = () =>
  scriptedModel((_o, i) =>
    i % 2 === 0 ? { calls: [{ name: "select_issue", args: { number: 42 } }] } : { text: "done" }
  );

test("a continuation for an unknown session is a 409 saying the session does not exist", async () => {
  const h = harness();
  const res = await h.chat({
    session_id: "nobody",
    content: "",
    tool_call_id: "x",
    tool_result: 1,
  });
  assert.equal(res.status, 409);
  assert.equal(res.body.error.type, "session_error");
  assert.match(res.body.error.message, /does not exist/);
  assert.equal((await h.call("GET", "/api/sessions/nobody")).status, 404, "nothing was created");
  await h.close();
});

test("a duplicate continuation is refused with the recorded status and never applied twice", async () => {
  const model = pendOnce();
  const h = harness({ model });
  const first = await h.chat({ session_id: "d", content: "go", host_context: ISSUE_CONTEXT });
  const callId = first.body.pending_tool_call.call_id;
  const ok = await h.chat({ session_id: "d", content: "", tool_call_id: callId, tool_result: "a" });
  assert.equal(ok.status, 200);
  const again = await h.chat({
    session_id: "d",
    content: "",
    tool_call_id: callId,
    tool_result: "b",
  });
  assert.equal(again.status, 409);
  assert.match(again.body.error.message, /already recorded with status completed/);
  assert.equal(again.body.error.status, "completed");
  const messages = (await h.call("GET", "/api/sessions/d/messages")).body.messages;
  assert.equal(messages[1].tool_calls[0].result, "a");
  assert.equal(model.prompts.length, 2);
  await h.close();
});

test("of two concurrent continuations for one call exactly one is applied", async () => {
  const model = pendOnce();
  const h = harness({ model });
  const first = await h.chat({ session_id: "race", content: "go", host_context: ISSUE_CONTEXT });
  const callId = first.body.pending_tool_call.call_id;
  const results = await Promise.all(
    Array.from(
      { length: 10 },
      (_, i) => h.chat({ session_id: "race", content: "", tool_call_id: callId, tool_result: i }),
    ),
  );
  assert.equal(results.filter((r) => r.status === 200).length, 1);
  assert.equal(results.filter((r) => r.status === 409).length, 9);
  assert.equal(model.prompts.length, 2, "the model resumed once");
  await h.close();
});

test("a new message supersedes the pending call, and its late result is refused as superseded", async () => {
  const model = pendOnce();
  const h = harness({ model });
  const first = await h.chat({ session_id: "s", content: "go", host_context: ISSUE_CONTEXT });
  const callId = first.body.pending_tool_call.call_id;
  const next = await h.chat({ session_id: "s", content: "never mind" });
  assert.equal(next.status, 200);
  const session = (await h.call("GET", "/api/sessions/s")).body;
  assert.equal(session.turn_number, 2);
  const messages = (await h.call("GET", "/api/sessions/s/messages")).body.messages;
  assert.equal(messages[1].tool_calls[0].status, "superseded");
  const late = await h.chat({ session_id: "s", content: "", tool_call_id: callId, tool_result: 1 });
  assert.equal(late.status, 409);
  assert.match(late.body.error.message, /superseded/);
  // The replay stays valid: the superseded call is answered in the prompt.
  const prompt = JSON.stringify(model.prompts[1].prompt);
  assert.match(prompt, /Superseded/);
  await h.close();
});

test("a result for the wrong call names the pending one; without a pending call it says so", async () => {
  const model = pendOnce();
  const h = harness({ model });
  const first = await h.chat({ session_id: "m", content: "go", host_context: ISSUE_CONTEXT });
  const callId = first.body.pending_tool_call.call_id;
  const wrong = await h.chat({
    session_id: "m",
    content: "",
    tool_call_id: "other",
    tool_result: 1,
  });
  assert.equal(wrong.status, 409);
  assert.ok(wrong.body.error.message.includes(callId), "names the pending call");
  await h.chat({ session_id: "m", content: "", tool_call_id: callId, tool_result: 1 });
  const none = await h.chat({
    session_id: "m",
    content: "",
    tool_call_id: "other",
    tool_result: 1,
  });
  assert.equal(none.status, 409);
  assert.match(none.body.error.message, /no pending call/);
  await h.close();
});

test("a client message id is marked once, as a fresh key, and a repeat is still refused on a Deno KV file", async () => {
  const inner = await denoKvStore(join(dir, "marks.db"));
  const marks: Mutation[] = [];
  const record = (mutations: readonly Mutation[]) => {
    marks.push(...mutations.filter((m) => m.key[0] === "message_id"));
  };
  const store = wrapStore(inner, {
    name: inner.name,
    capabilities: inner.capabilities,
    atomic: (checks, mutations) => (record(mutations), inner.atomic(checks, mutations)),
    commit: (checks, mutations) => (record(mutations), inner.commit(checks, mutations)),
  });
  const h = harness({ store, model: pendOnce() });
  const first = await h.chat({
    session_id: "k",
    id: "m1",
    content: "select issue 42",
    host_context: ISSUE_CONTEXT,
  });
  assert.equal(first.status, 200);
  const resumed = await h.chat({
    session_id: "k",
    id: "m2",
    content: "",
    tool_call_id: first.body.pending_tool_call.call_id,
    tool_result: { ok: true },
  });
  assert.equal(resumed.status, 200);
  // Both kinds of turn mark their id in the commit that stores the message, claiming the key
  // was never written, so Deno KV writes it without reading it first.
  assert.deepEqual(marks.map((m) => [m.key, m.value, m.fresh]), [
    [["message_id", "k", "m1"], true, true],
    [["message_id", "k", "m2"], true, true],
  ]);
  const before = (await h.call("GET", "/api/sessions/k")).body;
  const again = await h.chat({ session_id: "k", id: "m1", content: "hello again" });
  assert.equal(again.status, 409);
  assert.equal(marks.length, 2, "a refused repeat writes no mark");
  assert.deepEqual((await h.call("GET", "/api/sessions/k")).body, before);
  await h.close();
});

test("a repeated client message id in a session is a 409 and changes nothing", async () => {
  const h = harness({ model: scriptedModel([{ text: "hi" }]) });
  assert.equal((await h.chat({ session_id: "i", id: "m1", content: "hello" })).status, 200);
  const again = await h.chat({ session_id: "i", id: "m1", content: "hello again" });
  assert.equal(again.status, 409);
  const session = (await h.call("GET", "/api/sessions/i")).body;
  assert.equal(session.message_count, 2);
  await h.close();
});
