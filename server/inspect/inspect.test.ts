// deno-lint-ignore-file no-explicit-any -- JSON read back from the runtime
/**
 * `GET /api/sessions/{id}/inspect` through the real app: off unless
 * `DEBUG__INSPECT=true` (and nothing recorded then), the owner's alone, and
 * what it shows of a turn: the context blocks exactly as the model received
 * them, their size, the tools offered with their kinds, each call with its
 * status, what it waits for and the policy's decision and reason, the
 * model's usage and timings, the pending call now; never a configured secret.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, optionsFromEnv } from "../env.ts";
import { memoryStore } from "../kv/memory.ts";
import { harness, ISSUE_CONTEXT } from "../testing/harness.ts";
import { scriptedModel } from "../testing/scripted_model.ts";
import type { PolicyHook } from "../tools/policy.ts";

const inspecting = { debug: { inspect: true } };

test("DEBUG__INSPECT is read as true or false, and the route is off by default", async () => {
  assert.deepEqual(optionsFromEnv({ DEBUG__INSPECT: "true" }).debug, { inspect: true });
  assert.deepEqual(optionsFromEnv({ DEBUG__INSPECT: "false" }).debug, { inspect: false });
  assert.throws(() => optionsFromEnv({ DEBUG__INSPECT: "yes" }), ConfigError);
  assert.throws(() => optionsFromEnv({ DEBUG__INSPECT: "yes" }), /DEBUG__INSPECT/);
  const store = memoryStore();
  const h = harness({ store });
  try {
    await h.chat({ session_id: "off", content: "select issue 42", host_context: ISSUE_CONTEXT });
    const { status, body } = await h.call("GET", "/api/sessions/off/inspect");
    assert.equal(status, 404);
    assert.match(body.error.message, /DEBUG__INSPECT=true/);
    assert.deepEqual(await store.list(["inspect"]), [], "nothing is recorded while it is off");
  } finally {
    await h.close();
  }
});

test("a turn's record: the context as the model received it, tools, calls, usage and timings", async () => {
  const model = scriptedModel([
    { calls: [{ name: "select_issue", args: { number: 42 }, id: "call_sel" }] },
    { text: "Selected." },
  ]);
  const h = harness({ model, modelName: "scripted", ...inspecting });
  try {
    const first = await h.chat({
      session_id: "i1",
      content: "select issue 42",
      host_context: ISSUE_CONTEXT,
    });
    assert.equal(first.body.pending_tool_call.call_id, "call_sel");
    let view = (await h.call("GET", "/api/sessions/i1/inspect")).body;
    assert.equal(view.runs.length, 1);
    const [run] = view.runs;
    assert.equal(run.turn, 1);
    assert.equal(run.model, "scripted");
    const block = run.context.find((b: any) => b.tag === "host_context");
    assert.ok(block, "the host context block is recorded");
    const sent = JSON.stringify(model.prompts[0].prompt);
    assert.ok(sent.includes(JSON.stringify(block.text).slice(1, -1)), "exactly what the model got");
    assert.match(block.text, /^<host_context>\n[\s\S]*\n<\/host_context>$/);
    assert.match(block.text, /view: tasks/);
    assert.equal(block.tokens, Math.ceil(block.text.length / 4));
    assert.deepEqual(
      run.tools.find((t: any) => t.name === "select_issue"),
      { name: "select_issue", kind: "host", description: "Select an issue in the list." },
    );
    assert.equal(run.requests.length, 1);
    assert.ok(run.requests[0].tools.includes("select_issue"));
    assert.deepEqual(run.requests[0].usage, {
      input_tokens: 10,
      output_tokens: 5,
      cached_input_tokens: 0,
    });
    assert.equal(run.requests[0].finish_reason, "tool-calls");
    assert.equal(typeof run.requests[0].first_chunk_ms, "number");
    assert.equal(typeof run.requests[0].duration_ms, "number");
    assert.deepEqual(run.calls, [{
      call_id: "call_sel",
      tool_name: "select_issue",
      kind: "host",
      status: "pending",
      waiting_for: "host",
      policy: { decision: "allow", reason: null },
    }]);
    assert.equal(run.usage.model_requests, 1);
    assert.equal(view.pending.tool_call_id, "call_sel");
    assert.equal(view.pending.waiting_for, "host");

    // The continuation is a run of its own, in the same turn.
    await h.chat({
      session_id: "i1",
      content: "",
      tool_call_id: "call_sel",
      tool_result: { selected: 42 },
    });
    view = (await h.call("GET", "/api/sessions/i1/inspect")).body;
    assert.equal(view.runs.length, 2);
    assert.equal(view.runs[1].turn, 1);
    assert.equal(view.runs[1].calls[0].status, "completed");
    assert.equal(view.runs[1].requests[0].finish_reason, "stop");
    assert.equal(view.pending, null);
  } finally {
    await h.close();
  }
});

test("a held call shows the policy's decision and reason, and the hold pending now", async () => {
  const policy: PolicyHook = (r) =>
    r.toolName === "select_issue"
      ? { decision: "ask", reason: "Selecting an issue needs a second look." }
      : { decision: "allow" };
  const h = harness({ policy, ...inspecting });
  try {
    await h.chat({ session_id: "held", content: "select issue 42", host_context: ISSUE_CONTEXT });
    const view = (await h.call("GET", "/api/sessions/held/inspect")).body;
    const call = view.runs[0].calls[0];
    assert.equal(call.tool_name, "select_issue");
    assert.equal(call.waiting_for, "approval");
    assert.deepEqual(call.policy, {
      decision: "ask",
      reason: "Selecting an issue needs a second look.",
    });
    assert.equal(view.pending.waiting_for, "approval");
    assert.equal(view.pending.approval.reason, "Selecting an issue needs a second look.");
  } finally {
    await h.close();
  }
});

test("only the session's owner may inspect it, not another principal, not the admin role", async () => {
  const h = harness({ access: { mode: "header" } as never, ...inspecting });
  try {
    const ann = { "x-tether-principal": "ann" };
    await h.chat({ session_id: "ann-s", content: "hello" }, ann);
    assert.equal((await h.call("GET", "/api/sessions/ann-s/inspect", undefined, ann)).status, 200);
    const bob = await h.call("GET", "/api/sessions/ann-s/inspect", undefined, {
      "x-tether-principal": "bob",
    });
    assert.equal(bob.status, 403);
    const admin = await h.call("GET", "/api/sessions/ann-s/inspect", undefined, {
      "x-tether-principal": "root",
      "x-tether-roles": "admin",
    });
    assert.equal(admin.status, 403);
    const missing = await h.call("GET", "/api/sessions/nobody/inspect", undefined, ann);
    assert.equal(missing.status, 404);
  } finally {
    await h.close();
  }
});

test("no configured secret, key or tool server secret reaches the inspector", async () => {
  const key = "sk-live-inspector-test-key-0123456789";
  const toolSecret = "tool-server-secret-abcdef-987654";
  const h = harness({ ...inspecting, env: { OPENAI_API_KEY: key } });
  try {
    const engine = await h.app.engine();
    await engine.remote.integrations.add({
      provider: "generic-rest",
      workspace_id: "default",
      base_url: "http://127.0.0.1:9",
      secret: toolSecret,
      allowed_tools: [],
    });
    // A page that puts them in its own context cannot make the inspector show them either.
    const context = {
      ...ISSUE_CONTEXT,
      view: { ...ISSUE_CONTEXT.view, data: { note: `${key} and ${toolSecret}` } },
    };
    await h.chat({ session_id: "sec", content: "what is on screen?", host_context: context });
    const { status, body } = await h.call("GET", "/api/sessions/sec/inspect");
    assert.equal(status, 200);
    const text = JSON.stringify(body);
    assert.ok(body.runs[0].context.length > 0);
    assert.ok(!text.includes(key), "no provider key");
    assert.ok(!text.includes(toolSecret), "no tool server secret");
    assert.match(text, /\[redacted\] and \[redacted\]/);
  } finally {
    await h.close();
  }
});

test("deleting a session deletes its records; a session keeps its last 20 runs", async () => {
  const store = memoryStore();
  const h = harness({ store, ...inspecting });
  try {
    for (let i = 0; i < 22; i++) await h.chat({ session_id: "many", content: `message ${i}` });
    await new Promise((r) => setTimeout(r, 20));
    const view = (await h.call("GET", "/api/sessions/many/inspect")).body;
    assert.equal(view.runs.length, 20);
    assert.equal(view.runs[0].turn, 3, "the oldest went first");
    await h.call("DELETE", "/api/sessions/many");
    assert.deepEqual(await store.list(["inspect", "many"]), []);
  } finally {
    await h.close();
  }
});
