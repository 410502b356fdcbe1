import { test } from "node:test";
import assert from "node:assert/strict";
import { harness, ISSUE_CONTEXT } from "./testing/harness.ts";
import { scriptedModel } from "./testing/scripted_model.ts";

test("the contract's example pends select_issue with number 42 and the continuation answers", async () => {
  const h = harness({ model: "offline" });
  const first = await h.chat({
    session_id: "c1",
    content: "select issue 42",
    host_context: ISSUE_CONTEXT,
  });
  assert.equal(first.status, 200);
  assert.equal(first.body.model, "offline");
  assert.equal(first.body.pending_tool_call.tool_name, "select_issue");
  assert.deepEqual(first.body.pending_tool_call.arguments, { number: 42 });
  assert.deepEqual(first.body.pending_tool_call.queued, []);
  const second = await h.chat({
    session_id: "c1",
    content: "",
    tool_call_id: first.body.pending_tool_call.call_id,
    tool_result: { selected: 42 },
  });
  assert.equal(second.status, 200);
  assert.equal(second.body.pending_tool_call, null);
  assert.match(second.body.content, /42/);
  const session = await h.call("GET", "/api/sessions/c1");
  assert.equal(session.body.has_pending_tool_call, false);
  assert.equal(session.body.message_count, 2);
  await h.close();
});

test("turn N's prompt is a prefix of turn N+1's and the context opens the user message", async () => {
  const model = scriptedModel((_o, i) =>
    i === 1 ? { calls: [{ name: "select_issue", args: { number: 1 } }] } : { text: `answer ${i}` }
  );
  const h = harness({ model });
  await h.chat({ session_id: "p", content: "first", host_context: ISSUE_CONTEXT });
  await h.chat({ session_id: "p", content: "second" });
  const pending = (await h.call("GET", "/api/sessions/p")).body.pending_action;
  await h.chat({
    session_id: "p",
    content: "",
    tool_call_id: pending.tool_call_id,
    tool_result: "ok",
  });
  await h.chat({ session_id: "p", content: "third" });
  const prompts = model.prompts.map((p) => p.prompt.map((m) => JSON.stringify(m)));
  assert.equal(prompts.length, 4);
  for (let i = 0; i + 1 < prompts.length; i++) {
    assert.deepEqual(
      prompts[i + 1].slice(0, prompts[i].length),
      prompts[i],
      `prompt ${i} is a prefix of prompt ${i + 1}`,
    );
  }
  const system = model.prompts[0].prompt[0];
  assert.equal(system.role, "system");
  assert.doesNotMatch(JSON.stringify(system), /host_context>\n/);
  const user = model.prompts[0].prompt[1];
  assert.equal(user.role, "user");
  const text = (user.content as { type: string; text: string }[])[0].text;
  assert.ok(text.startsWith("<host_context>\n"), "the block opens the user message");
  assert.ok(text.endsWith("\n\nfirst"));
  // The continuation carries the current context right after the tool result: here the page
  // the model saw last, so as the unchanged note (docs/long-conversations.md).
  const resumed = model.prompts[2].prompt;
  const toolAt = resumed.findIndex((m) => m.role === "tool");
  assert.ok(toolAt > 0);
  assert.equal(resumed[toolAt + 1].role, "user");
  assert.match(JSON.stringify(resumed[toolAt + 1]), /<host_context_unchanged>/);
  await h.close();
});

test("three host calls are handed out one at a time and only the last result resumes the model", async () => {
  const model = scriptedModel([
    { calls: [1, 2, 3].map((n) => ({ name: "select_issue", args: { number: n } })) },
    { text: "All three done." },
  ]);
  const h = harness({ model });
  const first = await h.chat({ session_id: "q", content: "go", host_context: ISSUE_CONTEXT });
  const p1 = first.body.pending_tool_call;
  assert.deepEqual(p1.arguments, { number: 1 });
  assert.equal(p1.queued.length, 2);
  const second = await h.chat({
    session_id: "q",
    content: "",
    tool_call_id: p1.call_id,
    tool_result: 1,
  });
  assert.deepEqual(second.body.pending_tool_call.arguments, { number: 2 });
  assert.deepEqual(second.body.pending_tool_call.queued, [p1.queued[1]]);
  assert.equal(model.prompts.length, 1, "no model run between queued calls");
  const third = await h.chat({
    session_id: "q",
    content: "",
    tool_call_id: p1.queued[0],
    tool_result: 2,
  });
  assert.equal(third.body.pending_tool_call.call_id, p1.queued[1]);
  const last = await h.chat({
    session_id: "q",
    content: "",
    tool_call_id: p1.queued[1],
    tool_result: 3,
  });
  assert.equal(last.body.content, "All three done.");
  assert.equal(model.prompts.length, 2, "the model resumed once");
  const tool = model.prompts[1].prompt.find((m) => m.role === "tool")!;
  assert.equal((tool.content as unknown[]).length, 3);
  await h.close();
});

test("a failed outcome reaches the model as a failed tool result", async () => {
  const model = scriptedModel([{ calls: [{ name: "select_issue", args: { number: 7 } }] }, {
    text: "It failed.",
  }]);
  const h = harness({ model });
  const first = await h.chat({ session_id: "f", content: "go", host_context: ISSUE_CONTEXT });
  await h.chat({
    session_id: "f",
    content: "",
    tool_call_id: first.body.pending_tool_call.call_id,
    tool_result: "no such issue",
    tool_outcome: "failed",
  });
  const tool = model.prompts[1].prompt.find((m) => m.role === "tool")!;
  const output = (tool.content[0] as { output: { type: string; value: string } }).output;
  assert.equal(output.type, "error-text");
  assert.match(output.value, /no such issue/);
  const messages = await h.call("GET", "/api/sessions/f/messages");
  assert.equal(messages.body.messages[1].tool_calls[0].status, "failed");
  await h.close();
});

test("invalid arguments go back to the model and never reach the host", async () => {
  const model = scriptedModel([
    { calls: [{ name: "select_issue", args: { number: "forty-two" } }] },
    { text: "I could not select it." },
  ]);
  const h = harness({ model });
  const res = await h.chat({ session_id: "v", content: "go", host_context: ISSUE_CONTEXT });
  assert.equal(res.body.pending_tool_call, null);
  assert.equal(res.body.content, "I could not select it.");
  const tool = model.prompts[1].prompt.find((m) => m.role === "tool")!;
  assert.match(JSON.stringify(tool), /number/);
  assert.match(JSON.stringify(tool), /Invalid arguments/);
  assert.doesNotMatch(JSON.stringify(tool), /\.\./, "one full stop per sentence");
  await h.close();
});
