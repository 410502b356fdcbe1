import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_LIMITS } from "./config.ts";
import { harness, ISSUE_CONTEXT } from "./testing/harness.ts";
import { scriptedModel } from "./testing/scripted_model.ts";
import type { BackendTool } from "./tools/backend_tool.ts";

const count: BackendTool = {
  name: "count",
  description: "Counts.",
  parameters: { type: "object", properties: {} },
  execute: () => 1,
};

test("a request's config may lower the limits", async () => {
  const model = scriptedModel([{ calls: [{ name: "count", args: {} }] }]);
  const h = harness({ model, backendTools: [count] });
  const res = await h.chat({
    session_id: "lower",
    content: "loop",
    config: { max_model_requests: 2 },
  });
  assert.equal(res.body.error_type, "usage_limit");
  assert.equal(model.prompts.length, 2);
  await h.close();
});

test("a request's config cannot raise the limits", async () => {
  const model = scriptedModel([{ calls: [{ name: "count", args: {} }] }]);
  const h = harness({
    model,
    backendTools: [count],
    limits: {
      ...DEFAULT_LIMITS,
      maxModelRequests: 2,
      maxBodyBytes: 1 << 20,
      eventLogSize: 100,
    },
  });
  const res = await h.chat({
    session_id: "raise",
    content: "loop",
    config: { max_model_requests: 50 },
  });
  assert.equal(res.body.error_type, "usage_limit");
  assert.equal(model.prompts.length, 2);
  await h.close();
});

test("config.model picks only an allowed model; another is a 422 naming the field", async () => {
  const h = harness({
    model: scriptedModel([{ text: "scripted" }]),
    modelName: "scripted",
    allowedModels: ["offline"],
  });
  const offline = await h.chat({
    session_id: "m1",
    content: "hello",
    config: { model: "offline" },
    host_context: ISSUE_CONTEXT,
  });
  assert.equal(offline.status, 200);
  assert.equal(offline.body.model, "offline");
  const refused = await h.chat({
    session_id: "m2",
    content: "hello",
    config: { model: "openai:gpt-4o" },
  });
  assert.equal(refused.status, 422);
  assert.match(refused.body.error.message, /config\.model/);
  assert.equal(
    (await h.call("GET", "/api/sessions/m2")).status,
    404,
    "nothing stored for a refused request",
  );
  await h.close();
});

test("steering that arrives while host calls are planned is delivered when the model resumes", async () => {
  const model = scriptedModel([{
    calls: [{ name: "select_issue", args: { number: 1 } }],
    delayMs: 100,
  }, { text: "ok" }]);
  const h = harness({ model });
  const engine = await h.app.engine();
  const turn = h.chat({ session_id: "steer", content: "go", host_context: ISSUE_CONTEXT });
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(engine.steer("steer", "also look at issue 2"), true);
  const first = await turn;
  assert.equal(engine.steer("steer", "too late"), false, "an idle session takes no steering");
  await h.chat({
    session_id: "steer",
    content: "",
    tool_call_id: first.body.pending_tool_call.call_id,
    tool_result: 1,
  });
  const resumed = JSON.stringify(model.prompts[1].prompt);
  assert.match(resumed, /also look at issue 2/);
  assert.doesNotMatch(resumed, /too late/);
  await h.close();
});
