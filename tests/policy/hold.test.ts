/**
 * The oversight hold end to end: a real runtime on loopback, real
 * socket.io-client, the embedded engine, the operator routes, and a manual
 * clock for the windows.
 */
// deno-lint-ignore-file no-explicit-any -- wire payloads are read field by field
import { test } from "node:test";
import assert from "node:assert/strict";
import { ADMIN, ask, count, holdPolicy, holdRuntime, operator } from "./_hold_kit.ts";
import { ISSUE_CONTEXT } from "../../server/testing/harness.ts";

test("ask holds the call; the operator approves; the retry with the token is allowed and the call runs once", async () => {
  const { rt, clock, runs } = await holdRuntime({ document: holdPolicy() });
  try {
    const { c, call } = await ask(rt, "hold-approve");
    await clock.sleepers();
    assert.equal(call.approval.status, "pending");
    assert.match(call.approval.reason, /requires approval/);
    assert.equal(call.approval.timeout_seconds, 300);
    const final = c.events.find((e) => e.event === "assistant:final_response")!.payload;
    assert.equal(final.pending_tool_call.waiting_for, "approval");
    assert.deepEqual(final.pending_tool_call.approval, call.approval);
    assert.deepEqual(runs, []);

    // A client continuation does not release it.
    const refused = await c.ask("assistant_message", {
      session_id: "hold-approve",
      content: "",
      tool_call_id: call.call_id,
      tool_result: { ok: true },
    });
    assert.equal(refused.ok, false);

    // The session's own client has no role: the inbox is closed to it.
    assert.equal((await operator(rt, "GET", "/api/approvals", undefined, {})).status, 403);
    const inbox = await operator(rt, "GET", "/api/approvals");
    assert.equal(inbox.status, 200);
    const listed = inbox.body.requests.find((r: any) => r.request_id === call.approval.request_id);
    assert.ok(listed, "the held call is in the inbox");
    assert.equal(listed.context.tool_name, "run_command");
    assert.ok(listed.seconds_left > 0 && listed.seconds_left <= 300);

    const decided = await operator(
      rt,
      "POST",
      `/api/approvals/${call.approval.request_id}/decision`,
      {
        decision: "approve",
        reason: "expected test run",
      },
    );
    assert.equal(decided.status, 200);
    assert.equal(decided.body.status, "approved");
    const again = await operator(
      rt,
      "POST",
      `/api/approvals/${call.approval.request_id}/decision`,
      {
        decision: "deny",
      },
    );
    assert.equal(again.status, 409);

    // A retry with changed input is refused, and does not use the token up.
    const policy = rt.engine.policy!;
    const status = await policy.local!.approval(call.approval.request_id, "tether");
    const token = status!.approval_token!;
    const held = {
      sessionId: "hold-approve",
      userId: "local",
      callId: call.call_id,
      toolName: "run_command",
    };
    const changed = await policy.gate.evaluate(
      { ...held, input: { command: "npm publish" } },
      token,
    );
    assert.equal(changed.decision, "deny");

    clock.advance(2_000);
    await c.until((e) => e.event === "assistant:tool_result");
    await c.until(() => count(c, "assistant:status", "completed") === 2);
    assert.deepEqual(runs, [{ command: "npm test" }]);
    const result = c.events.find((e) => e.event === "assistant:tool_result")!.payload;
    assert.equal(result.call_id, call.call_id);

    // The token was used by the runtime's retry: a replay is refused.
    const replay = await policy.gate.evaluate({ ...held, input: { command: "npm test" } }, token);
    assert.equal(replay.decision, "deny");
    assert.match((replay as any).reason, /already used/);
    c.close();
  } finally {
    await rt.close();
  }
});

test("an operator's denial ends the hold: tool_error with policy deny and the reason, nothing run", async () => {
  const { rt, clock, runs } = await holdRuntime({ document: holdPolicy() });
  try {
    const { c, call } = await ask(rt, "hold-deny");
    await clock.sleepers();
    await operator(rt, "POST", `/api/approvals/${call.approval.request_id}/decision`, {
      decision: "deny",
      reason: "not during the release freeze",
    });
    clock.advance(2_000);
    const error = (await c.until((e) => e.event === "assistant:tool_error")).payload;
    assert.equal(error.policy, "deny");
    assert.equal(error.call_id, call.call_id);
    assert.match(error.error, /release freeze/);
    await c.until(() => count(c, "assistant:status", "completed") === 2);
    assert.deepEqual(runs, []);
    c.close();
  } finally {
    await rt.close();
  }
});

test("a request that expires denies the call; the operator can no longer decide it", async () => {
  const { rt, clock, runs } = await holdRuntime({ document: holdPolicy(30) });
  try {
    const { c, call } = await ask(rt, "hold-expire");
    assert.equal(call.approval.timeout_seconds, 30);
    await clock.sleepers();
    clock.advance(30_000);
    const error = (await c.until((e) => e.event === "assistant:tool_error")).payload;
    assert.equal(error.policy, "deny");
    assert.match(error.error, /expired/);
    const late = await operator(rt, "POST", `/api/approvals/${call.approval.request_id}/decision`, {
      decision: "approve",
    });
    assert.equal(late.status, 409);
    assert.deepEqual(runs, []);
    c.close();
  } finally {
    await rt.close();
  }
});

test("only admin or operator roles reach the inbox; decisions are checked", async () => {
  const { rt } = await holdRuntime({ document: holdPolicy() });
  try {
    const { c, call } = await ask(rt, "hold-roles");
    const path = `/api/approvals/${call.approval.request_id}/decision`;
    assert.equal((await operator(rt, "POST", path, { decision: "approve" }, {})).status, 403);
    assert.equal((await operator(rt, "POST", path, { decision: "maybe" })).status, 422);
    assert.equal(
      (await operator(rt, "POST", "/api/approvals/nope/decision", { decision: "deny" })).status,
      404,
    );
    assert.equal(
      (await operator(rt, "GET", "/api/approvals", undefined, {
        authorization: `Bearer ${ADMIN}x`,
      })).status,
      403,
    );
    c.close();
  } finally {
    await rt.close();
  }
});

test("an approved host action proceeds as if allowed at first: pending for the host, then its result resumes the model", async () => {
  const policy = holdPolicy();
  policy.policies[0].config.requires_approval = ["select_issue"];
  const { rt, clock, model } = await holdRuntime({ document: policy }, {}, {
    name: "select_issue",
    args: { number: 42 },
  });
  try {
    const { c, call } = await ask(rt, "hold-host", ISSUE_CONTEXT);
    assert.equal(call.category, "host");
    assert.equal(call.approval.status, "pending");
    await clock.sleepers();
    await operator(rt, "POST", `/api/approvals/${call.approval.request_id}/decision`, {
      decision: "approve",
    });
    clock.advance(2_000);
    await c.until(() => count(c, "assistant:status", "completed") === 2);
    const finals = c.events.filter((e) => e.event === "assistant:final_response");
    const pending = finals.at(-1)!.payload.pending_tool_call;
    assert.equal(pending.call_id, call.call_id);
    assert.equal(pending.waiting_for, "host");
    assert.equal(pending.approval, undefined);
    const answered = await c.ask("assistant_message", {
      session_id: "hold-host",
      content: "",
      tool_call_id: call.call_id,
      tool_result: { selected: 42 },
    });
    assert.equal(answered.ok, true);
    assert.equal(answered.content, "Done.");
    assert.equal(model.prompts.length, 2);
    c.close();
  } finally {
    await rt.close();
  }
});
