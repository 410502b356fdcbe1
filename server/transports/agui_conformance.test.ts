// deno-lint-ignore-file no-explicit-any -- AG-UI events are read field by field
/**
 * `POST /api/agui` against the AG-UI 1.0 and 1.1 specification, one test per
 * rule that binds a producer on the HTTP + SSE binding (docs/agui.md lists
 * the rules, each with its test, by the id in the test's name). Runs are
 * driven by the real `@ag-ui/client` HttpAgent, whose own verifier rejects a
 * malformed stream, or read raw off the wire where the wire is the point.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { EventType, HttpAgent } from "@ag-ui/client";
import { AgentCapabilitiesSchema, EventSchemas } from "@ag-ui/core/schemas";
import { scriptedModel } from "../testing/scripted_model.ts";
import { runtime, type TestRuntime } from "./_test_kit.ts";

const tool = (name: string, description = `Do ${name}.`) => ({
  name,
  description,
  parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
});

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/** One POST read off the wire: status, type, the raw text and the parsed events. */
async function raw(rt: TestRuntime, input: Record<string, unknown>) {
  const res = await fetch(`${rt.url}/api/agui`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ tools: [], context: [], messages: [], ...input }),
  });
  const text = await res.text();
  const events = text.split("\n\n").filter((f) => f.startsWith("data:")).map((f) =>
    JSON.parse(f.slice(5))
  );
  // The AG-UI edge: every event must follow @ag-ui/core's own schemas.
  for (const e of events) {
    const parsed = EventSchemas.safeParse(e);
    assert.ok(parsed.success, `${e.type}: ${JSON.stringify(parsed.error?.issues)}`);
  }
  return { status: res.status, type: res.headers.get("content-type") ?? "", text, events };
}

const user = (id: string, content: unknown = "hi") => ({ id, role: "user", content });

/** Runs an HttpAgent and records every event it delivered. */
async function drive(agent: HttpAgent, params: Record<string, unknown> = {}) {
  const events: any[] = [];
  await agent.runAgent(params, { onEvent: ({ event }) => void events.push(event) });
  return events;
}

const types = (events: any[]) => events.map((e) => e.type);

test("AG-UI L1: the stream begins with RUN_STARTED; input refused before the run gets an HTTP error and no stream", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "Hi." }]) });
  try {
    const ok = await raw(rt, { threadId: "l1", runId: "r1", messages: [user("u1")] });
    assert.equal(ok.events[0].type, EventType.RUN_STARTED);
    const refused = await raw(rt, { threadId: "l1", runId: "r2", messages: [] });
    assert.equal(refused.status, 422);
    assert.match(refused.type, /application\/json/);
    assert.equal(refused.events.length, 0);
  } finally {
    await rt.close();
  }
});

test("AG-UI L2: RUN_STARTED and RUN_FINISHED carry the input's threadId and runId", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "Hi." }]) });
  try {
    const { events } = await raw(rt, { threadId: "l2", runId: "run-l2", messages: [user("u1")] });
    const [start, end] = [events[0], events.at(-1)];
    assert.deepEqual([start.threadId, start.runId], ["l2", "run-l2"]);
    assert.equal(end.type, EventType.RUN_FINISHED);
    assert.deepEqual([end.threadId, end.runId], ["l2", "run-l2"]);
  } finally {
    await rt.close();
  }
});

test("AG-UI L3: RUN_STARTED declares the version the run speaks; another major line is refused before the run", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "Hi." }]) });
  try {
    const declared = async (protocolVersion?: string) => {
      const r = await raw(rt, {
        threadId: `l3-${crypto.randomUUID().slice(0, 8)}`,
        runId: "r",
        messages: [user("u1")],
        ...(protocolVersion === undefined ? {} : { protocolVersion }),
      });
      return r.status === 200 ? r.events[0].protocolVersion : r.status;
    };
    assert.equal(await declared(), "1.1", "an undeclared peer is treated as current");
    assert.equal(await declared("1.1"), "1.1");
    assert.equal(
      await declared("1.0"),
      "1.0",
      "toward a 1.0 consumer the stream is 1.0: nothing sent differs",
    );
    assert.equal(
      await declared("1.7"),
      "1.1",
      "a newer minor is served, answered with Tether's own",
    );
    assert.equal(await declared("two"), "1.1", "an uninterpretable one is served");
    assert.equal(await declared("2.0"), 422, "another major line is refused before RUN_STARTED");
  } finally {
    await rt.close();
  }
});

test("AG-UI L4: nothing follows the terminal event, and the body closes after it", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "Done." }]) });
  try {
    const { events, text } = await raw(rt, { threadId: "l4", runId: "r", messages: [user("u1")] });
    const terminal = events.findIndex((e) =>
      e.type === EventType.RUN_FINISHED || e.type === EventType.RUN_ERROR
    );
    assert.equal(terminal, events.length - 1);
    assert.ok(text.endsWith("\n\n"), "the response ended after the terminal event");
  } finally {
    await rt.close();
  }
});

test("AG-UI L5: what a run opens is closed before RUN_FINISHED (text, reasoning spans and messages, tool calls)", async () => {
  const rt = await runtime({
    model: scriptedModel([{
      reasoning: "Let me see.",
      text: "Calling.",
      calls: [{ name: "a", args: { n: 1 } }],
    }]),
  });
  try {
    const agent = new HttpAgent({ url: `${rt.url}/api/agui`, threadId: "l5" });
    agent.addMessage(user("u1") as never);
    // The client's own verifier fails the run on an unbalanced stream; it must not.
    const events = await drive(agent, { tools: [tool("a")] });
    const open = new Map<string, number>();
    for (const e of events) {
      const id = e.messageId ?? e.toolCallId;
      const kind = e.type.replace(/_(START|END|CONTENT|ARGS)$/, "");
      if (e.type.endsWith("_START")) open.set(`${kind}:${id}`, 1);
      if (e.type.endsWith("_END")) open.delete(`${kind}:${id}`);
    }
    assert.deepEqual([...open.keys()], []);
    assert.deepEqual(types(events).filter((t) => t.startsWith("REASONING_")), [
      "REASONING_START",
      "REASONING_MESSAGE_START",
      "REASONING_MESSAGE_CONTENT",
      "REASONING_MESSAGE_END",
      "REASONING_END",
    ]);
  } finally {
    await rt.close();
  }
});

test("AG-UI L6: a run stopped on purpose finishes cancelled, without a result, never as success", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "A long answer.", delayMs: 2_000 }]) });
  try {
    const agent = new HttpAgent({ url: `${rt.url}/api/agui`, threadId: "l6" });
    agent.addMessage(user("u1") as never);
    const running = drive(agent);
    await new Promise((r) => setTimeout(r, 300));
    const cancel = await fetch(`${rt.url}/api/chat/l6/cancel`, { method: "POST" });
    assert.equal(cancel.status, 200);
    const finished = (await running).at(-1);
    assert.equal(finished.type, EventType.RUN_FINISHED);
    assert.deepEqual(finished.outcome, { type: "cancelled" });
    assert.equal("result" in finished, false);
  } finally {
    await rt.close();
  }
});

test("AG-UI L7: a run that fails ends with RUN_ERROR, a message for a person and an open code", async () => {
  const rt = await runtime({ model: scriptedModel([{ error: new Error("provider down") }]) });
  try {
    const { events } = await raw(rt, { threadId: "l7", runId: "r", messages: [user("u1")] });
    const last = events.at(-1);
    assert.equal(last.type, EventType.RUN_ERROR);
    assert.equal(typeof last.message, "string");
    assert.ok(last.message.length > 0);
    assert.equal(typeof last.code, "string");
    assert.equal(events.filter((e) => e.type === EventType.RUN_FINISHED).length, 0);
  } finally {
    await rt.close();
  }
});

test("AG-UI L8: usage is one entry per model, totals in the protocol's accounting, no count it has no data for", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "Hi." }]) });
  try {
    const { events } = await raw(rt, { threadId: "l8", runId: "r", messages: [user("u1")] });
    const [entry] = events.at(-1).usage;
    assert.ok(entry.inputTokens > 0 && entry.outputTokens > 0);
    assert.equal(entry.totalTokens, entry.inputTokens + entry.outputTokens);
    for (const k of ["cachedInputTokens", "cacheWriteInputTokens", "reasoningTokens"]) {
      assert.equal(k in entry, false, `${k}: Tether has no count for it, so none is sent`);
    }
  } finally {
    await rt.close();
  }
});

test("AG-UI L9: absent means absent: no optional field of any event is null, and every event fits the schema", async () => {
  const rt = await runtime({
    model: scriptedModel([
      { reasoning: "Hm.", text: "Looking.", calls: [{ name: "look_at_screen", args: {} }] },
      { text: "Nothing to see.", calls: [{ name: "a", args: { n: 2 } }] },
    ]),
  });
  try {
    const { events } = await raw(rt, {
      threadId: "l9",
      runId: "r",
      tools: [tool("a")],
      messages: [user("u1")],
    });
    assert.ok(events.length > 10);
    for (const e of events) {
      for (const [k, v] of Object.entries(e)) assert.notEqual(v, null, `${e.type}.${k} is null`);
      const parsed = EventSchemas.safeParse(e);
      assert.ok(parsed.success, `${e.type}: ${JSON.stringify(parsed.error?.issues)}`);
    }
  } finally {
    await rt.close();
  }
});

test("AG-UI I1: absent tools and context mean none, the same as empty lists", async () => {
  const model = scriptedModel([{ text: "One." }, { text: "Two." }]);
  const rt = await runtime({ model });
  try {
    const absent = await fetch(`${rt.url}/api/agui`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ threadId: "i1a", runId: "r", messages: [user("u1")] }),
    });
    assert.equal(absent.status, 200);
    await absent.text();
    await raw(rt, { threadId: "i1b", runId: "r", messages: [user("u1")], tools: [], context: [] });
    assert.deepEqual(
      model.prompts[0].tools?.map((t) => t.name),
      model.prompts[1].tools?.map((t) => t.name),
    );
  } finally {
    await rt.close();
  }
});

test("AG-UI I2: every context entry is made available to the model", async () => {
  const model = scriptedModel([{ text: "Ok." }]);
  const rt = await runtime({ model });
  try {
    await raw(rt, {
      threadId: "i2",
      runId: "r",
      context: [{ description: "open tickets", value: "7 waiting" }, {
        description: "region",
        value: "eu",
      }],
      messages: [user("u1")],
    });
    const prompt = JSON.stringify(model.prompts[0].prompt);
    assert.match(prompt, /open tickets: 7 waiting/);
    assert.match(prompt, /region: eu/);
  } finally {
    await rt.close();
  }
});

test("AG-UI I3: input members the protocol does not describe are passed over, never refused", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "Ok." }]) });
  try {
    const r = await raw(rt, {
      threadId: "i3",
      runId: "r",
      messages: [user("u1")],
      laterField: { x: 1 },
    });
    assert.equal(r.status, 200);
    assert.equal(r.events.at(-1).type, EventType.RUN_FINISHED);
  } finally {
    await rt.close();
  }
});

test("AG-UI I4: resume entries for interrupts Tether never raised are passed over; the run proceeds", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "Ok." }]) });
  try {
    const r = await raw(rt, {
      threadId: "i4",
      runId: "r",
      messages: [user("u1")],
      resume: [{ interruptId: "int-1", status: "resolved", payload: { ok: true } }],
    });
    assert.equal(r.status, 200);
    assert.equal(r.events.at(-1).outcome?.type ?? "success", "success");
  } finally {
    await rt.close();
  }
});

test("AG-UI I5: a known field with a value the schema rejects is refused before the run, naming it", async () => {
  const rt = await runtime();
  try {
    const r = await raw(rt, { threadId: "i5", runId: "r", messages: "everything" });
    assert.equal(r.status, 422);
    assert.match(JSON.parse(r.text).error.message, /messages/);
    assert.equal(await rt.engine.repo.record("i5"), null, "nothing is stored");
  } finally {
    await rt.close();
  }
});

test("AG-UI I6: activity messages are the consumer's rendering material, never conversation", async () => {
  const model = scriptedModel([{ text: "Ok." }]);
  const rt = await runtime({ model });
  try {
    const r = await raw(rt, {
      threadId: "i6",
      runId: "r",
      messages: [user("u1", "what now?"), {
        id: "a1",
        role: "activity",
        activityType: "progress",
        content: { step: 2 },
      }],
    });
    assert.equal(r.status, 200);
    assert.doesNotMatch(JSON.stringify(model.prompts[0].prompt), /progress/);
  } finally {
    await rt.close();
  }
});

test("AG-UI I7: a content part the agent cannot use is left out; the run does not fail over it", async () => {
  const model = scriptedModel([{ text: "Heard nothing." }]);
  const rt = await runtime({ model });
  try {
    const r = await raw(rt, {
      threadId: "i7",
      runId: "r",
      messages: [user("u1", [
        { type: "text", text: "what is this sound?" },
        { type: "audio", source: { type: "url", value: "https://example.com/a.mp3" } },
        { type: "image", source: { type: "file", value: "file-abc", provider: "openai" } },
      ])],
    });
    assert.equal(r.status, 200);
    assert.equal(r.events.at(-1).type, EventType.RUN_FINISHED);
    const prompt = JSON.stringify(model.prompts[0].prompt);
    assert.match(prompt, /what is this sound/);
    assert.doesNotMatch(prompt, /a\.mp3|file-abc/);
  } finally {
    await rt.close();
  }
});

test("AG-UI I8: image parts of a user message reach the model", async () => {
  const model = scriptedModel([{ text: "A red pixel." }]);
  const rt = await runtime({ model });
  try {
    await raw(rt, {
      threadId: "i8",
      runId: "r",
      messages: [user("u1", [{ type: "text", text: "what is this?" }, {
        type: "image",
        source: { type: "data", value: PNG, mimeType: "image/png" },
      }])],
    });
    const last = model.prompts[0].prompt.at(-1)!;
    assert.ok(
      (last.content as { type: string }[]).some((p) => p.type === "file" || p.type === "image"),
    );
  } finally {
    await rt.close();
  }
});

test("AG-UI I9: Tether's stored thread is the history; earlier messages in the input are not imported (documented departure)", async () => {
  const model = scriptedModel([{ text: "Ok." }]);
  const rt = await runtime({ model });
  try {
    await raw(rt, {
      threadId: "i9",
      runId: "r",
      messages: [
        user("u0", "my name is Ada"),
        { id: "a0", role: "assistant", content: "Hello Ada." },
        user("u1", "what is my name?"),
      ],
    });
    const prompt = JSON.stringify(model.prompts[0].prompt);
    assert.match(prompt, /what is my name/);
    assert.doesNotMatch(prompt, /my name is Ada/);
  } finally {
    await rt.close();
  }
});

test("AG-UI C1: a tool call opens with its name and parent message, its argument deltas form the JSON arguments, and it closes", async () => {
  const rt = await runtime({
    model: scriptedModel([{ text: "On it.", calls: [{ name: "a", args: { n: 42 } }] }]),
  });
  try {
    const { events } = await raw(rt, {
      threadId: "c1",
      runId: "r",
      tools: [tool("a")],
      messages: [user("u1")],
    });
    const start = events.find((e) => e.type === EventType.TOOL_CALL_START);
    const text = events.find((e) => e.type === EventType.TEXT_MESSAGE_START);
    assert.equal(start.toolCallName, "a");
    assert.equal(
      start.parentMessageId,
      text.messageId,
      "the call belongs to the message that carries it",
    );
    const args = events.filter((e) =>
      e.type === EventType.TOOL_CALL_ARGS && e.toolCallId === start.toolCallId
    )
      .map((e) => e.delta).join("");
    assert.deepEqual(JSON.parse(args), { n: 42 });
    assert.ok(
      events.some((e) => e.type === EventType.TOOL_CALL_END && e.toolCallId === start.toolCallId),
    );
  } finally {
    await rt.close();
  }
});

test("AG-UI C2: a frontend tool call is never answered by the agent, not even by echoing the application's answer", async () => {
  const rt = await runtime({
    model: scriptedModel([
      { calls: [{ name: "a", args: { n: 1 } }, { name: "b", args: { n: 2 } }] },
      { text: "Done." },
    ]),
  });
  try {
    const agent = new HttpAgent({ url: `${rt.url}/api/agui`, threadId: "c2" });
    agent.addMessage(user("u1") as never);
    const first = await drive(agent, { tools: [tool("a"), tool("b")] });
    assert.equal(first.filter((e) => e.type === EventType.TOOL_CALL_RESULT).length, 0);
    const calls = (agent.messages.at(-1) as any).toolCalls;
    for (const c of calls) {
      agent.addMessage({ id: `t-${c.id}`, role: "tool", toolCallId: c.id, content: "{}" } as never);
    }
    const second = await drive(agent, { tools: [tool("a"), tool("b")] });
    assert.equal(second.filter((e) => e.type === EventType.TOOL_CALL_RESULT).length, 0);
    const answers = agent.messages.filter((m: any) => m.role === "tool");
    assert.equal(answers.length, 2, "one tool message per call: the application's own");
  } finally {
    await rt.close();
  }
});

test("AG-UI C3: a run that stops on frontend calls is a success naming exactly the unanswered calls, in order", async () => {
  const rt = await runtime({
    model: scriptedModel([{
      calls: [{ name: "b", args: { n: 1 } }, { name: "a", args: { n: 2 } }],
    }]),
  });
  try {
    const { events } = await raw(rt, {
      threadId: "c3",
      runId: "r",
      tools: [tool("a"), tool("b")],
      messages: [user("u1")],
    });
    const started = events.filter((e) => e.type === EventType.TOOL_CALL_START).map((e) =>
      e.toolCallId
    );
    const end = events.at(-1);
    assert.equal(end.outcome.type, "success");
    assert.notEqual(end.outcome.type, "interrupt");
    assert.deepEqual(end.outcome.pendingToolCallIds, started);
  } finally {
    await rt.close();
  }
});

test("AG-UI C4: @ag-ui/client answers several open calls at once; the agent takes every answer and goes on once", async () => {
  const model = scriptedModel([
    {
      calls: [{ name: "a", args: { n: 1 } }, { name: "b", args: { n: 2 } }, {
        name: "a",
        args: { n: 3 },
      }],
    },
    { text: "All three are done." },
  ]);
  const rt = await runtime({ model });
  try {
    const agent = new HttpAgent({ url: `${rt.url}/api/agui`, threadId: "c4" });
    agent.addMessage(user("u1", "do all three") as never);
    const first = await drive(agent, { tools: [tool("a"), tool("b")] });
    const pending = first.at(-1).outcome.pendingToolCallIds;
    assert.equal(pending.length, 3);
    const calls = (agent.messages.at(-1) as any).toolCalls;
    assert.deepEqual(calls.map((c: any) => c.id), pending);
    for (const c of calls) {
      const n = JSON.parse(c.function.arguments).n;
      agent.addMessage(
        {
          id: `t-${c.id}`,
          role: "tool",
          toolCallId: c.id,
          content: JSON.stringify({ done: n }),
        } as never,
      );
    }
    await drive(agent, { tools: [tool("a"), tool("b")] });
    assert.equal(agent.messages.at(-1)!.content, "All three are done.");
    assert.equal(model.prompts.length, 2, "the model runs once, after all three answers");
    const results = JSON.stringify(model.prompts[1].prompt);
    for (const n of [1, 2, 3]) assert.ok(results.includes(`"done":${n}`), `answer ${n}`);
    const session = await rt.engine.session({ id: "local", roles: [] }, "c4");
    assert.equal(session.has_pending_tool_call, false);
  } finally {
    await rt.close();
  }
});

test("AG-UI C5: the result of a call Tether runs is a tool message of its own, the same shape as the message it mints", async () => {
  const rt = await runtime({
    model: scriptedModel([{ calls: [{ name: "look_at_screen", args: {} }] }, {
      text: "Nothing to see.",
    }]),
  });
  try {
    const agent = new HttpAgent({ url: `${rt.url}/api/agui`, threadId: "c5" });
    agent.addMessage(user("u1") as never);
    const events = await drive(agent);
    const result = events.find((e) => e.type === EventType.TOOL_CALL_RESULT);
    assert.ok(result.messageId && result.messageId !== result.toolCallId, "a message of its own");
    assert.equal(typeof result.content, "string");
    const message = agent.messages.find((m: any) =>
      m.role === "tool" && m.toolCallId === result.toolCallId
    ) as any;
    assert.deepEqual(
      message.content,
      result.content,
      "the tool message minted has the identical shape",
    );
    assert.equal(
      events.filter((e) => e.type === EventType.TOOL_CALL_START).length,
      1,
      "the result does not reopen its call",
    );
  } finally {
    await rt.close();
  }
});

test("AG-UI C6: @ag-ui/client returns a screenshot as an image part for a frontend tool, and the model sees that image", async () => {
  const model = scriptedModel([
    { calls: [{ name: "take_screenshot", args: { n: 1 } }] },
    { calls: [{ name: "look_at_screen", args: {} }] },
    { text: "The page is red." },
  ]);
  const rt = await runtime({ model });
  try {
    const agent = new HttpAgent({ url: `${rt.url}/api/agui`, threadId: "c6" });
    agent.addMessage(user("u1", "look at my page") as never);
    await drive(agent, { tools: [tool("take_screenshot", "Take a screenshot of the page.")] });
    const [call] = (agent.messages.at(-1) as any).toolCalls;
    agent.addMessage({
      id: "shot",
      role: "tool",
      toolCallId: call.id,
      content: [
        { type: "text", text: "The page as the user sees it." },
        { type: "image", source: { type: "data", value: PNG, mimeType: "image/png" } },
      ],
    } as never);
    await drive(agent, { tools: [tool("take_screenshot", "Take a screenshot of the page.")] });
    assert.equal(agent.messages.at(-1)!.content, "The page is red.");
    // The screenshot never goes to the model as text; look_at_screen shows it as an image.
    assert.doesNotMatch(JSON.stringify(model.prompts[1].prompt), new RegExp(PNG.slice(0, 40)));
    const shown = JSON.stringify(model.prompts[2].prompt);
    assert.match(shown, /image/);
    assert.ok(shown.includes(PNG), "the image reached the model");
  } finally {
    await rt.close();
  }
});

test("AG-UI C7: a result whose every part was left out still answers its call, with the empty string", async () => {
  const model = scriptedModel([{ calls: [{ name: "a", args: { n: 1 } }] }, { text: "Ok." }]);
  const rt = await runtime({ model });
  try {
    const first = await raw(rt, {
      threadId: "c7",
      runId: "r1",
      tools: [tool("a")],
      messages: [user("u1")],
    });
    const id = first.events.at(-1).outcome.pendingToolCallIds[0];
    const second = await raw(rt, {
      threadId: "c7",
      runId: "r2",
      tools: [tool("a")],
      messages: [user("u1"), {
        id: "t1",
        role: "tool",
        toolCallId: id,
        content: [{ type: "audio", source: { type: "url", value: "https://example.com/a.mp3" } }],
      }],
    });
    assert.equal(second.status, 200);
    assert.equal(second.events.at(-1).type, EventType.RUN_FINISHED);
    const { messages } = await rt.engine.messages({ id: "local", roles: [] }, "c7") as any;
    const recorded = messages.flatMap((m: any) => m.tool_calls ?? []).find((c: any) =>
      c.call_id === id
    );
    assert.equal(recorded.status, "completed");
    assert.equal(recorded.result, "");
  } finally {
    await rt.close();
  }
});

test("AG-UI C8: a failure is an answer: a tool message with error records the call as failed", async () => {
  const model = scriptedModel([{ calls: [{ name: "a", args: { n: 9 } }] }, { text: "It failed." }]);
  const rt = await runtime({ model });
  try {
    const agent = new HttpAgent({ url: `${rt.url}/api/agui`, threadId: "c8" });
    agent.addMessage(user("u1") as never);
    await drive(agent, { tools: [tool("a")] });
    const id = (agent.messages.at(-1) as any).toolCalls[0].id;
    agent.addMessage(
      { id: "t1", role: "tool", toolCallId: id, content: "", error: "no such item" } as never,
    );
    await drive(agent, { tools: [tool("a")] });
    const { messages } = await rt.engine.messages({ id: "local", roles: [] }, "c8") as any;
    assert.equal(messages[1].tool_calls[0].status, "failed");
    assert.match(JSON.stringify(model.prompts[1].prompt), /no such item/);
  } finally {
    await rt.close();
  }
});

test("AG-UI C9: a call whose arguments break the advertised schema never reaches the application", async () => {
  const model = scriptedModel([{ calls: [{ name: "a", args: { n: "not a number" } }] }, {
    text: "Let me fix that.",
  }]);
  const rt = await runtime({ model });
  try {
    const { events } = await raw(rt, {
      threadId: "c9",
      runId: "r",
      tools: [tool("a")],
      messages: [user("u1")],
    });
    const end = events.at(-1);
    assert.equal(end.type, EventType.RUN_FINISHED);
    assert.equal(
      end.outcome.pendingToolCallIds,
      undefined,
      "nothing is left for the application to run",
    );
    assert.match(JSON.stringify(model.prompts[1].prompt), /n/, "the model was told and went on");
  } finally {
    await rt.close();
  }
});

test("AG-UI T1: text messages open, stream and close by messageId, unique within the thread across runs", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "First." }, { text: "Second." }]) });
  try {
    const agent = new HttpAgent({ url: `${rt.url}/api/agui`, threadId: "t1" });
    agent.addMessage(user("u1") as never);
    const one = await drive(agent);
    agent.addMessage(user("u2") as never);
    const two = await drive(agent);
    const ids = [...one, ...two].filter((e) => e.type === EventType.TEXT_MESSAGE_START).map((e) =>
      e.messageId
    );
    assert.equal(ids.length, 2);
    assert.notEqual(ids[0], ids[1]);
    assert.deepEqual(
      agent.messages.filter((m: any) => m.role === "assistant").map((m) => m.content),
      [
        "First.",
        "Second.",
      ],
    );
  } finally {
    await rt.close();
  }
});

test("AG-UI H1: the response is text/event-stream, one JSON event per data field, LF line endings, no SSE ids", async () => {
  const rt = await runtime({ model: scriptedModel([{ reasoning: "Hm.", text: "Hello there." }]) });
  try {
    const r = await raw(rt, { threadId: "h1", runId: "r", messages: [user("u1")] });
    assert.equal(r.status, 200);
    assert.match(r.type, /^text\/event-stream/);
    assert.equal(r.text.includes("\r"), false, "LF only");
    for (const frame of r.text.split("\n\n").filter(Boolean)) {
      const lines = frame.split("\n");
      assert.ok(lines.every((l) => l.startsWith("data:") || l.startsWith(":")), frame);
      const data = lines.filter((l) => l.startsWith("data:"));
      if (data.length) {
        assert.equal(typeof JSON.parse(data.map((l) => l.slice(5)).join("\n")).type, "string");
      }
    }
    assert.doesNotMatch(r.text, /^(id|event|retry):/m, "the binding has no resumption by event id");
  } finally {
    await rt.close();
  }
});

test("AG-UI H2: beside the binding, Tether's own resumption replays a run's session events by Last-Event-ID", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "Kept." }]) });
  try {
    await raw(rt, { threadId: "h2", runId: "r", messages: [user("u1")] });
    const ctl = new AbortController();
    const res = await fetch(`${rt.url}/api/sessions/h2/events`, {
      headers: { "last-event-id": "0" },
      signal: ctl.signal,
    });
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes("final_response")) {
      text += new TextDecoder().decode((await reader.read()).value);
    }
    ctl.abort();
    assert.match(text, /^id: \d+/m);
    assert.match(text, /Kept\./);
  } finally {
    await rt.close();
  }
});

test("AG-UI H3: a call held for a person's approval keeps the run open until it is decided; then the run goes on and finishes", async () => {
  const rt = await runtime({
    model: scriptedModel([{ calls: [{ name: "look_at_screen", args: {} }] }, { text: "Seen." }]),
    gate: {
      pollMs: 20,
      document: {
        policies: [{
          id: "eyes",
          name: "Looking needs a person",
          type: "tool_permission",
          version: 1,
          config: { requires_approval: ["look_at_screen"] },
        }],
      },
    },
  });
  try {
    const agent = new HttpAgent({ url: `${rt.url}/api/agui`, threadId: "h3" });
    agent.addMessage(user("u1") as never);
    let finished = false;
    const running = drive(agent).then((events) => {
      finished = true;
      return events;
    });
    const approvals = rt.engine.policy!.local!.approvals;
    let pending: Awaited<ReturnType<typeof approvals.pending>> = [];
    for (let i = 0; i < 200 && !pending.length; i++) {
      await new Promise((r) => setTimeout(r, 20));
      pending = await approvals.pending();
    }
    assert.equal(pending.length, 1, "the call is held");
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(finished, false, "the run waits on the hold");
    await approvals.decide(pending[0].request_id, "approve", "ops");
    const events = await running;
    assert.equal(events.at(-1).type, EventType.RUN_FINISHED);
    assert.equal(events.at(-1).outcome?.pendingToolCallIds, undefined);
    assert.ok(events.some((e) => e.type === EventType.TOOL_CALL_RESULT), "the released call ran");
    assert.equal(agent.messages.at(-1)!.content, "Seen.");
    assert.equal(events.filter((e) => e.type === EventType.RUN_STARTED).length, 1, "one run");
  } finally {
    await rt.close();
  }
});

test("AG-UI K1: the agent's capabilities are an AgentCapabilities document, declaring what the stream does", async () => {
  const rt = await runtime();
  try {
    const res = await fetch(`${rt.url}/api/agui/capabilities`);
    assert.equal(res.status, 200);
    const caps = await res.json();
    assert.ok(AgentCapabilitiesSchema.safeParse(caps).success);
    assert.equal(caps.reasoning.streaming, true);
    assert.equal(caps.tools.clientProvided, true);
    assert.equal(caps.transport.resumable, false, "the standard binding resumes nothing");
    assert.equal(caps.humanInTheLoop.interrupts, false, "Tether raises no interrupts");
  } finally {
    await rt.close();
  }
});
