import { test } from "node:test";
import assert from "node:assert/strict";
import type { SessionEvent } from "../events/hub.ts";
import { harness, ISSUE_CONTEXT } from "../testing/harness.ts";
import { scriptedModel } from "../testing/scripted_model.ts";
import type { BackendTool } from "../tools/backend_tool.ts";
import type { PolicyHook } from "../tools/policy.ts";

/** A test policy hook that answers ask for every call. */
const askAlways: PolicyHook = () => ({
  decision: "ask",
  reason: "A reviewer must look first.",
  approval: { request_id: "apr_test", timeout_seconds: 60 },
});

async function watch(h: ReturnType<typeof harness>, sid: string) {
  const events: SessionEvent[] = [];
  (await h.app.engine()).hub.subscribe(sid, (e) => events.push(e));
  return events;
}

test("a call the policy asks about is held: approval on the tool call, waiting_for approval on the pending call", async () => {
  const model = scriptedModel([{ calls: [{ name: "select_issue", args: { number: 42 } }] }]);
  const h = harness({ model, policy: askAlways });
  const events = await watch(h, "held1");
  const res = await h.chat({ session_id: "held1", content: "go", host_context: ISSUE_CONTEXT });
  const pending = res.body.pending_tool_call;
  assert.equal(pending.waiting_for, "approval");
  assert.equal(pending.category, "host");
  assert.equal(pending.approval.status, "pending");
  assert.equal(pending.approval.request_id, "apr_test");
  assert.equal(pending.approval.reason, "A reviewer must look first.");
  assert.equal(pending.approval.timeout_seconds, 60);
  assert.ok(Date.parse(pending.approval.expires_at) > Date.now());
  const call = events.find((e) => e.event === "assistant:tool_call")!.payload;
  assert.deepEqual(call.approval, pending.approval);
  const view = (await h.call("GET", "/api/sessions/held1")).body;
  assert.equal(view.pending_action.waiting_for, "approval");
  assert.deepEqual(view.pending_action.approval, pending.approval);
  await h.close();
});

test("no client continuation releases a held call: 409 session_error, and the call stays held", async () => {
  const model = scriptedModel([{ calls: [{ name: "select_issue", args: { number: 42 } }] }]);
  const h = harness({ model, policy: askAlways });
  const res = await h.chat({ session_id: "held2", content: "go", host_context: ISSUE_CONTEXT });
  const callId = res.body.pending_tool_call.call_id;
  const again = await h.chat({
    session_id: "held2",
    content: "",
    tool_call_id: callId,
    tool_result: { selected: 42 },
  });
  assert.equal(again.status, 409);
  assert.equal(again.body.error.type, "session_error");
  assert.match(again.body.error.message, /approval/);
  const view = (await h.call("GET", "/api/sessions/held2")).body;
  assert.equal(view.pending_action.tool_call_id, callId);
  await h.close();
});

test("an allowed hold proceeds as if allowed at first: a host call becomes pending for the host", async () => {
  const model = scriptedModel([
    { calls: [{ name: "select_issue", args: { number: 42 } }] },
    { text: "Selected." },
  ]);
  const h = harness({ model, policy: askAlways });
  const res = await h.chat({ session_id: "held3", content: "go", host_context: ISSUE_CONTEXT });
  const callId = res.body.pending_tool_call.call_id;
  const events = await watch(h, "held3");
  const engine = await h.app.engine();
  const released = await engine.resumeHeld("held3", callId, { decision: "allow" });
  assert.equal(released.pending_tool_call?.call_id, callId);
  assert.equal(released.pending_tool_call?.waiting_for, "host");
  assert.ok(!("approval" in released.pending_tool_call!));
  assert.deepEqual(events.map((e) => e.event), [
    "assistant:status",
    "assistant:final_response",
    "assistant:status",
  ]);
  assert.equal(model.prompts.length, 1, "the model does not run while the host acts");
  const done = await h.chat({
    session_id: "held3",
    content: "",
    tool_call_id: callId,
    tool_result: { selected: 42 },
  });
  assert.equal(done.body.content, "Selected.");
  await h.close();
});

test("an allowed hold of a backend tool runs it and resumes the model", async () => {
  let ran = 0;
  const tool: BackendTool = {
    name: "count",
    description: "Counts.",
    parameters: { type: "object", properties: {} },
    execute: () => ++ran,
  };
  const model = scriptedModel([{ calls: [{ name: "count", args: {} }] }, { text: "Counted." }]);
  const h = harness({ model, policy: askAlways, backendTools: [tool] });
  const res = await h.chat({ session_id: "held4", content: "go" });
  assert.equal(res.body.pending_tool_call.category, "backend");
  assert.equal(ran, 0, "a held backend tool does not run");
  const engine = await h.app.engine();
  const released = await engine.resumeHeld("held4", res.body.pending_tool_call.call_id, {
    decision: "allow",
  });
  assert.equal(ran, 1);
  assert.equal(released.content, "Counted.");
  assert.equal(released.pending_tool_call, null);
  await h.close();
});

test("a denied hold fails the call with policy deny, the model is told, and a second verdict is refused", async () => {
  const model = scriptedModel([
    { calls: [{ name: "select_issue", args: { number: 42 } }] },
    { text: "Not allowed." },
  ]);
  const h = harness({ model, policy: askAlways });
  const res = await h.chat({ session_id: "held5", content: "go", host_context: ISSUE_CONTEXT });
  const callId = res.body.pending_tool_call.call_id;
  const events = await watch(h, "held5");
  const engine = await h.app.engine();
  const released = await engine.resumeHeld("held5", callId, {
    decision: "deny",
    reason: "The reviewer said no.",
  });
  assert.equal(released.content, "Not allowed.");
  const error = events.find((e) => e.event === "assistant:tool_error")!.payload;
  assert.equal(error.policy, "deny");
  assert.match(String(error.error), /The reviewer said no/);
  assert.match(JSON.stringify(model.prompts[1].prompt.at(-1)), /The reviewer said no/);
  await assert.rejects(
    engine.resumeHeld("held5", callId, { decision: "allow" }),
    (e: Error & { status?: number }) => e.status === 409,
  );
  await h.close();
});

test("a denial at once is a tool_error marked policy deny; a host call pends waiting for the host", async () => {
  const deny: PolicyHook = (r) =>
    r.arguments.number === 1 ? { decision: "deny", reason: "Not issue 1." } : { decision: "allow" };
  const model = scriptedModel([{
    calls: [{ name: "select_issue", args: { number: 1 } }, {
      name: "select_issue",
      args: { number: 2 },
    }],
  }]);
  const h = harness({ model, policy: deny });
  const events = await watch(h, "held6");
  const res = await h.chat({ session_id: "held6", content: "go", host_context: ISSUE_CONTEXT });
  const error = events.find((e) => e.event === "assistant:tool_error")!.payload;
  assert.equal(error.policy, "deny");
  assert.equal(res.body.pending_tool_call.category, "host");
  assert.equal(res.body.pending_tool_call.waiting_for, "host");
  assert.deepEqual(res.body.pending_tool_call.arguments, { number: 2 });
  await h.close();
});

test("a verdict for a held call queued behind a host call is kept and applied when the queue reaches it", async () => {
  const askSecond: PolicyHook = (r) =>
    r.arguments.number === 2
      ? { decision: "ask", reason: "Issue 2 needs a look." }
      : { decision: "allow" };
  const twoCalls = {
    calls: [{ name: "select_issue", args: { number: 1 } }, {
      name: "select_issue",
      args: { number: 2 },
    }],
  };
  for (const verdict of ["allow", "deny"] as const) {
    const model = scriptedModel([twoCalls, { text: "Both handled." }]);
    const h = harness({ model, policy: askSecond });
    const sid = `queued-${verdict}`;
    const res = await h.chat({ session_id: sid, content: "go", host_context: ISSUE_CONTEXT });
    const first = res.body.pending_tool_call;
    assert.equal(first.waiting_for, "host");
    assert.equal(first.queued.length, 1);
    const heldId = first.queued[0];
    const engine = await h.app.engine();
    const kept = await engine.resumeHeld(
      sid,
      heldId,
      verdict === "allow" ? { decision: "allow" } : { decision: "deny", reason: "Not 2." },
    );
    assert.equal(kept.pending_tool_call?.call_id, first.call_id, "the host call stays pending");
    await assert.rejects(
      engine.resumeHeld(sid, heldId, { decision: "allow" }),
      (e: Error & { status?: number }) => e.status === 409,
      "a second verdict is refused",
    );
    const events = await watch(h, sid);
    const next = await h.chat({
      session_id: sid,
      content: "",
      tool_call_id: first.call_id,
      tool_result: { selected: 1 },
    });
    if (verdict === "allow") {
      assert.equal(next.body.pending_tool_call.call_id, heldId);
      assert.equal(next.body.pending_tool_call.waiting_for, "host");
      assert.equal(model.prompts.length, 1);
    } else {
      assert.equal(next.body.pending_tool_call, null);
      assert.equal(next.body.content, "Both handled.");
      const denied = events.find((e) => e.event === "assistant:tool_error")!.payload;
      assert.equal(denied.policy, "deny");
      assert.equal(denied.call_id, heldId);
    }
    await h.close();
  }
});
