import { test } from "node:test";
import assert from "node:assert/strict";
import { harness, ISSUE_CONTEXT } from "./testing/harness.ts";
import { scriptedModel } from "./testing/scripted_model.ts";
import { DEFAULT_LIMITS } from "./config.ts";
import type { BackendTool } from "./tools/backend_tool.ts";

const counter = (): BackendTool & { runs: number } => {
  const tool = {
    runs: 0,
    name: "count",
    description: "Counts.",
    parameters: { type: "object", properties: {} },
    execute: () => ++tool.runs,
  };
  return tool;
};

test("a backend tool runs inside the turn and its result reaches the model", async () => {
  const tool = counter();
  const model = scriptedModel([{ calls: [{ name: "count", args: {} }] }, { text: "counted" }]);
  const h = harness({ model, backendTools: [tool] });
  const res = await h.chat({ session_id: "b", content: "count" });
  assert.equal(res.body.content, "counted");
  assert.equal(tool.runs, 1);
  assert.match(JSON.stringify(model.prompts[1].prompt.at(-1)), /"value":1/);
  await h.close();
});

test("model requests per turn are bounded and the turn ends with usage_limit keeping what was done", async () => {
  const tool = counter();
  const model = scriptedModel([{ calls: [{ name: "count", args: {} }] }]);
  const h = harness({
    model,
    backendTools: [tool],
    limits: { ...DEFAULT_LIMITS, maxModelRequests: 3 },
  });
  const res = await h.chat({ session_id: "u", content: "loop" });
  assert.equal(res.body.error_type, "usage_limit");
  assert.equal(model.prompts.length, 3);
  assert.equal(tool.runs, 3);
  const messages = (await h.call("GET", "/api/sessions/u/messages")).body.messages;
  assert.equal(messages[1].tool_calls.length, 3);
  assert.ok(messages[1].tool_calls.every((c: { status: string }) => c.status === "completed"));
  await h.close();
});

test("tool calls per turn are bounded; calls over the budget are cancelled, never run", async () => {
  const tool = counter();
  const model = scriptedModel([{ calls: [1, 2, 3].map(() => ({ name: "count", args: {} })) }]);
  const h = harness({
    model,
    backendTools: [tool],
    limits: { ...DEFAULT_LIMITS, maxToolCalls: 2 },
  });
  const res = await h.chat({ session_id: "t", content: "go" });
  assert.equal(res.body.error_type, "usage_limit");
  assert.equal(tool.runs, 0, "the batch over budget runs nothing");
  const calls = (await h.call("GET", "/api/sessions/t/messages")).body.messages[1].tool_calls;
  assert.deepEqual(calls.map((c: { status: string }) => c.status), [
    "cancelled",
    "cancelled",
    "cancelled",
  ]);
  await h.close();
});

test("a backend tool that outlives its timeout fails and the model hears why", async () => {
  const slow: BackendTool = {
    name: "slow",
    description: "Slow.",
    parameters: { type: "object", properties: {} },
    execute: (_a, { signal }) =>
      new Promise((r) => {
        const t = setTimeout(r, 5_000);
        signal.addEventListener("abort", () => clearTimeout(t));
      }),
  };
  const model = scriptedModel([{ calls: [{ name: "slow", args: {} }] }, { text: "it timed out" }]);
  const h = harness({
    model,
    backendTools: [slow],
    limits: { ...DEFAULT_LIMITS, toolTimeoutMs: 50 },
  });
  const res = await h.chat({ session_id: "to", content: "go" });
  assert.equal(res.body.content, "it timed out");
  const calls = (await h.call("GET", "/api/sessions/to/messages")).body.messages[1].tool_calls;
  assert.equal(calls[0].status, "failed");
  assert.match(calls[0].error, /within 50 ms/);
  await h.close();
});

test("page scopes limit backend tools by view name; without a context every tool is offered", async () => {
  const tool = counter();
  const seen: string[][] = [];
  const model = scriptedModel((o) => {
    seen.push((o.tools ?? []).map((t) => t.name).sort());
    return { text: "ok" };
  });
  const h = harness({ model, backendTools: [tool], pageScopes: { count: ["reports"] } });
  await h.chat({ session_id: "ps1", content: "a", host_context: ISSUE_CONTEXT });
  await h.chat({ session_id: "ps2", content: "a", host_context: { view: { name: "reports" } } });
  await h.chat({ session_id: "ps3", content: "a" });
  assert.ok(!seen[0].includes("count"));
  assert.ok(seen[1].includes("count"));
  assert.ok(seen[2].includes("count"));
  await h.close();
});

test("configured host tools are offered every turn and a colliding context action is ignored with a warning", async () => {
  const seen: string[][] = [];
  const model = scriptedModel((o) => {
    seen.push((o.tools ?? []).map((t) => t.name));
    return { text: "ok" };
  });
  const h = harness({
    model,
    hostTools: [{
      name: "select_issue",
      description: "Configured.",
      parameters: { type: "object", properties: {} },
    }],
  });
  await h.chat({ session_id: "ht", content: "a", host_context: ISSUE_CONTEXT });
  await h.chat({ session_id: "ht2", content: "a" });
  assert.equal(seen[0].filter((n) => n === "select_issue").length, 1);
  assert.ok(seen[1].includes("select_issue"));
  assert.ok(h.warnings.some((w) => w.includes("select_issue")));
  const tools = (await Promise.resolve(model.prompts[0].tools)) ?? [];
  assert.match(JSON.stringify(tools), /Configured\./);
  await h.close();
});

test("a screenshot in a host result is hidden from the model and shown through look_at_screen", async () => {
  const shot = "data:image/png;base64,iVBORw0KGgo=";
  const model = scriptedModel([
    { calls: [{ name: "select_issue", args: { number: 1 } }] },
    { calls: [{ name: "look_at_screen", args: {} }] },
    { text: "I see it" },
  ]);
  const h = harness({ model });
  const first = await h.chat({ session_id: "shot", content: "go", host_context: ISSUE_CONTEXT });
  const res = await h.chat({
    session_id: "shot",
    content: "",
    tool_call_id: first.body.pending_tool_call.call_id,
    tool_result: { ok: true, screenshot: shot },
  });
  assert.equal(res.body.content, "I see it");
  const second = JSON.stringify(model.prompts[1].prompt);
  assert.ok(!second.includes("iVBORw0KGgo"), "the model never reads the data URI in the result");
  assert.match(second, /look_at_screen/);
  const third = model.prompts[2].prompt;
  const looked = JSON.stringify(third.at(-1));
  assert.match(looked, /iVBORw0KGgo/, "look_at_screen shows the image");
  const stored = JSON.stringify((await h.call("GET", "/api/sessions/shot/messages")).body);
  assert.ok(!stored.includes("iVBORw0KGgo"), "screenshots are not stored");
  await h.close();
});
