import { test } from "node:test";
import assert from "node:assert/strict";
import { harness } from "../testing/harness.ts";
import { CASE_POLICIES } from "./backend.case.ts";

const A = "sk_agent_key_a_0123456789";
const B = "sk_agent_key_b_0123456789";
const context = {
  harness: "claude",
  session_id: "a41f0c2e",
  tool_call_id: "toolu_01",
  tool_name: "Bash",
  tool_input: { command: "npm test" },
};

function service() {
  const h = harness({
    gate: { document: CASE_POLICIES, agentKeys: { [A]: "agent-a", [B]: "agent-b" } },
  });
  const post = (key: string | null, body: unknown) =>
    h.call("POST", "/api/zentinelle/v1/evaluate", body, key ? { "x-zentinelle-key": key } : {});
  const get = (key: string, id: string) =>
    h.call("GET", `/api/zentinelle/v1/approvals/requests/${id}`, undefined, {
      "x-zentinelle-key": key,
    });
  return { h, post, get };
}

test("the policy service answers with the contract's full shape", async () => {
  const { h, post } = service();
  const res = await post(A, {
    action: "tool_call",
    user_id: "dev@example.com",
    context: { ...context, tool_name: "Read" },
  });
  assert.equal(res.status, 200);
  for (
    const field of [
      "contract_version",
      "subject",
      "action",
      "resource",
      "context",
      "trace_id",
      "decision",
      "allowed",
      "reason",
      "policies_evaluated",
      "coverage",
      "warnings",
      "output_filter_required",
    ]
  ) {
    assert.ok(field in res.body, field);
  }
  assert.equal(res.body.subject.agent_id, "agent-a");
  assert.equal(res.body.subject.user_id, "dev@example.com");
  assert.deepEqual(res.body.resource, { type: "tool", id: "Read" });
  assert.equal(res.body.context.trace_id, res.body.trace_id);
  assert.equal(res.body.decision, "allow");
  await h.close();
});

test("a missing or unknown key is 401, and no key is ever accepted when none is configured", async () => {
  const { h, post } = service();
  assert.equal((await post(null, { action: "tool_call", context })).status, 401);
  assert.equal(
    (await post("sk_agent_nope_0123456789", { action: "tool_call", context })).status,
    401,
  );
  const bare = harness();
  const res = await bare.call("POST", "/api/zentinelle/v1/evaluate", {
    action: "tool_call",
    context,
  }, { "x-zentinelle-key": "" });
  assert.equal(res.status, 401);
  await bare.close();
  await h.close();
});

test("an invalid agent host context is 400 naming each field", async () => {
  const { h, post } = service();
  const res = await post(A, {
    action: "tool_call",
    context: { harness: "Claude Code", tool_name: "Bash" },
  });
  assert.equal(res.status, 400);
  assert.equal(res.body.error, "Invalid agent host tool_call context");
  assert.deepEqual(res.body.context.session_id, ["This field is required."]);
  assert.ok(res.body.context.harness[0].includes("lowercase"));
  assert.equal((await post(A, { action: "chat", context })).status, 400);
  assert.equal((await post(A, "not json{")).status, 400);
  assert.equal((await post(A, { action: "tool_call", agent_id: "agent-b", context })).status, 403);
  await h.close();
});

test("an approval request is readable only with the key that opened it (404 for another)", async () => {
  const { h, post, get } = service();
  const ask = await post(A, { action: "tool_call", user_id: "u", context });
  assert.equal(ask.body.decision, "ask");
  const id = ask.body.approval.request_id;
  assert.equal((await get(A, id)).body.status, "pending");
  assert.equal((await get(B, id)).status, 404);
  assert.equal((await get(A, "no-such-request")).status, 404);
  await h.close();
});

test("with Zentinelle as the backend, Tether's own policy service and inbox are off (404)", async () => {
  const h = harness({
    gate: {
      backend: "zentinelle",
      zentinelleUrl: "http://127.0.0.1:9",
      zentinelleKey: "sk_agent_x_0123456789",
      agentKeys: { [A]: "agent-a" },
    },
    access: { adminToken: "admin-token-0123456789" } as never,
  });
  const evaluate = await h.call("POST", "/api/zentinelle/v1/evaluate", {
    action: "tool_call",
    context,
  }, { "x-zentinelle-key": A });
  assert.equal(evaluate.status, 404);
  const inbox = await h.call("GET", "/api/approvals", undefined, {
    authorization: "Bearer admin-token-0123456789",
  });
  assert.equal(inbox.status, 404);
  assert.match(inbox.body.error.message, /Zentinelle/);
  await h.close();
});
