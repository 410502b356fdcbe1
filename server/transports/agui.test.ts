import { test } from "node:test";
import assert from "node:assert/strict";
import { HttpAgent } from "@ag-ui/client";
import { scriptedModel } from "../testing/scripted_model.ts";
import { runtime } from "./_test_kit.ts";

const selectIssue = {
  name: "select_issue",
  description: "Select an issue in the list.",
  parameters: { type: "object", properties: { number: { type: "integer" } }, required: ["number"] },
};

const promptText = (model: ReturnType<typeof scriptedModel>, i: number) =>
  JSON.stringify(model.prompts[i].prompt);

test("an HttpAgent runs a text turn and gets the AG-UI event stream", async () => {
  const rt = await runtime({
    model: scriptedModel([{ reasoning: "Thinking it over.", text: "Hello from Tether." }]),
  });
  const agent = new HttpAgent({ url: `${rt.url}/api/agui`, threadId: "ag1" });
  const types: string[] = [];
  let finished: Record<string, unknown> | undefined;
  agent.addMessage({ id: "u1", role: "user", content: "hi" });
  await agent.runAgent({ runId: "run-1" }, {
    onEvent: ({ event }) => {
      types.push(event.type);
      if (event.type === "RUN_FINISHED") finished = event as unknown as Record<string, unknown>;
    },
  });
  assert.deepEqual(types, [
    "RUN_STARTED",
    "REASONING_START",
    "REASONING_MESSAGE_START",
    "REASONING_MESSAGE_CONTENT",
    "REASONING_MESSAGE_END",
    "REASONING_END",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "RUN_FINISHED",
  ]);
  const last = agent.messages.at(-1)!;
  assert.equal(last.role, "assistant");
  assert.equal(last.content, "Hello from Tether.");
  assert.equal((finished?.result as { content: string }).content, "Hello from Tether.");
  const usage = finished?.usage as { inputTokens: number; outputTokens: number }[];
  assert.ok(
    usage[0].inputTokens > 0 && usage[0].outputTokens > 0,
    "RUN_FINISHED carries the usage",
  );
  await rt.close();
});

test("a host action round trip: AG-UI tools become host actions and tool messages continue the turn", async () => {
  const model = scriptedModel([{ calls: [{ name: "select_issue", args: { number: 42 } }] }, {
    text: "Issue 42 is selected.",
  }]);
  const rt = await runtime({ model });
  const agent = new HttpAgent({
    url: `${rt.url}/api/agui`,
    threadId: "ag2",
    initialState: { version: 1, view: { name: "tasks", description: "The issue list." } },
  });
  agent.addMessage({ id: "u1", role: "user", content: "select issue 42" });
  let finished: { pendingToolCallIds?: string[] } | undefined;
  await agent.runAgent(
    { tools: [selectIssue], context: [{ description: "agents", value: "3 idle" }] },
    { onRunFinishedEvent: (p) => void (finished = p as never) },
  );
  const call = agent.messages.at(-1)!;
  assert.equal(call.role, "assistant");
  const toolCall =
    (call as { toolCalls: { id: string; function: { name: string; arguments: string } }[] })
      .toolCalls[0];
  assert.equal(toolCall.function.name, "select_issue");
  assert.deepEqual(JSON.parse(toolCall.function.arguments), { number: 42 });
  assert.deepEqual(finished!.pendingToolCallIds, [toolCall.id]);
  assert.match(promptText(model, 0), /view: tasks/);
  assert.match(promptText(model, 0), /agents: 3 idle/);
  assert.equal((model.prompts[0].tools ?? []).some((t) => t.name === "select_issue"), true);

  agent.addMessage({
    id: "t1",
    role: "tool",
    toolCallId: toolCall.id,
    content: JSON.stringify({ selected: 42 }),
  });
  await agent.runAgent({ tools: [selectIssue] });
  const answer = agent.messages.at(-1)!;
  assert.equal(answer.role, "assistant");
  assert.equal(answer.content, "Issue 42 is selected.");
  assert.match(promptText(model, 1), /selected/);
  const session = await rt.engine.session({ id: "local", roles: [] }, "ag2");
  assert.equal(session.has_pending_tool_call, false);
  await rt.close();
});

test("a tool message with an error reports the host action as failed", async () => {
  const model = scriptedModel([{ calls: [{ name: "select_issue", args: { number: 9 } }] }, {
    text: "It failed.",
  }]);
  const rt = await runtime({ model });
  const agent = new HttpAgent({ url: `${rt.url}/api/agui`, threadId: "ag3" });
  agent.addMessage({ id: "u1", role: "user", content: "select 9" });
  await agent.runAgent({ tools: [selectIssue] });
  const id = (agent.messages.at(-1) as { toolCalls: { id: string }[] }).toolCalls[0].id;
  agent.addMessage({ id: "t1", role: "tool", toolCallId: id, content: "", error: "no issue 9" });
  await agent.runAgent({ tools: [selectIssue] });
  const { messages } = await rt.engine.messages({ id: "local", roles: [] }, "ag3") as {
    messages: { tool_calls?: { status: string }[] }[];
  };
  assert.equal(messages[1].tool_calls![0].status, "failed");
  assert.match(promptText(model, 1), /no issue 9/);
  await rt.close();
});

test("image parts of the user message become reference attachments", async () => {
  const model = scriptedModel([{ text: "A red pixel." }]);
  const rt = await runtime({ model });
  const agent = new HttpAgent({ url: `${rt.url}/api/agui`, threadId: "ag4" });
  const png =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
  agent.addMessage({
    id: "u1",
    role: "user",
    content: [{ type: "text", text: "what is this?" }, {
      type: "image",
      source: { type: "data", value: png, mimeType: "image/png" },
    }],
  });
  await agent.runAgent();
  const user = model.prompts[0].prompt.at(-1)!;
  assert.equal(user.role, "user");
  assert.ok(
    (user.content as { type: string }[]).some((p) => p.type === "file" || p.type === "image"),
    JSON.stringify(user.content).slice(0, 300),
  );
  await rt.close();
});

test("bad AG-UI input is a 422 naming the problem, and nothing is stored", async () => {
  const rt = await runtime();
  const post = (body: unknown) =>
    fetch(`${rt.url}/api/agui`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const cases: [unknown, RegExp][] = [
    [{ runId: "r", messages: [] }, /threadId/],
    [{ threadId: "ag5", runId: "r", messages: [] }, /last message must be a user message/],
    [
      { threadId: "ag5", runId: "r", messages: [{ id: "a", role: "assistant", content: "hi" }] },
      /got a assistant message/,
    ],
    [{
      threadId: "ag5",
      runId: "r",
      messages: [{ id: "u", role: "user", content: "hi" }],
      tools: [{ name: "bad name!", description: "x" }],
    }, /action name/],
    [{
      threadId: "ag5",
      runId: "r",
      state: { version: 1, colour: "red" },
      messages: [{ id: "u", role: "user", content: "hi" }],
    }, /host_context\.colour/],
    [{
      threadId: "ag5",
      runId: "r",
      protocolVersion: "2.0",
      messages: [{ id: "u", role: "user", content: "hi" }],
    }, /protocolVersion 2\.0/],
  ];
  for (const [body, message] of cases) {
    const res = await post(body);
    assert.equal(res.status, 422, JSON.stringify(body));
    assert.match((await res.json()).error.message, message);
  }
  const tool = await post({
    threadId: "ag5",
    runId: "r",
    messages: [{ id: "t", role: "tool", toolCallId: "call_1", content: "1" }],
  });
  assert.equal(tool.status, 409);
  assert.equal(await rt.engine.repo.record("ag5"), null);
  await rt.close();
});
