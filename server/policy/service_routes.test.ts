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
      "enforcement",
    ]
  ) {
    assert.ok(field in res.body, field);
  }
  assert.equal(res.body.subject.agent_id, "agent-a");
  assert.equal(res.body.subject.user_id, "dev@example.com");
  assert.deepEqual(res.body.resource, { type: "tool", id: "Read" });
  assert.equal(res.body.context.trace_id, res.body.trace_id);
  assert.equal(res.body.decision, "allow");
  assert.match(res.body.subject.endpoint_id, /^[0-9a-f]{8}-[0-9a-f]{4}-/);
  assert.deepEqual(res.body.context.taxonomy, { supported: [], unsupported: [] });
  assert.equal(res.body.enforcement.action, null, "an allow decides no action");
  await h.close();
});

test("deny and ask carry Zentinelle's enforcement: block, or require_approval falling back to block", async () => {
  const { h, post } = service();
  const deny = await post(A, {
    action: "tool_call",
    user_id: "u",
    context: { ...context, tool_name: "Write" },
  });
  assert.equal(deny.body.enforcement.action, "block");
  assert.equal(deny.body.enforcement.block_level, "tool_call");
  assert.deepEqual(deny.body.enforcement.rule, {
    id: "case-policy",
    name: "Shared backend cases",
    type: "tool_permission",
  });
  const ask = await post(A, { action: "tool_call", user_id: "u", context });
  assert.equal(ask.body.enforcement.action, "require_approval");
  assert.deepEqual(ask.body.enforcement.fallback_chain.map((o: { action: string }) => o.action), [
    "require_approval",
    "block",
  ]);
  await h.close();
});

test("inputs Zentinelle accepts are accepted: an empty user, a numeric session, an action alias, a cwd", async () => {
  const { h, post } = service();
  const empty = await post(A, {
    action: "tool_call",
    user_id: "",
    context: { ...context, tool_name: "Read" },
  });
  assert.equal(empty.status, 200);
  assert.equal(empty.body.subject.user_id, "");
  const numeric = await post(A, {
    action: "tool_call",
    context: { ...context, session_id: 42, tool_name: "Read" },
  });
  assert.equal(numeric.status, 200);
  assert.equal(numeric.body.context.session_id, 42, "the context is evaluated as sent");
  const alias = await post(A, {
    action: " Tool.Invoke ",
    context: { ...context, tool_name: "Write" },
  });
  assert.equal(alias.status, 200);
  assert.equal(alias.body.action, "tool_call");
  assert.equal(alias.body.decision, "deny", "the alias is judged as the tool call it is");
  const other = await post(A, { action: "llm:invoke", context: { model: "x" } });
  assert.equal(other.status, 200, "an action other than tool_call is evaluated too");
  assert.equal(other.body.resource.type, "model");
  const cwd = await post(A, {
    action: "tool_call",
    context: { ...context, tool_name: "Read", cwd: "x".repeat(5_000) },
  });
  assert.equal(cwd.status, 200);
  await h.close();
});

test("refusals carry Zentinelle's bodies: DRF's detail for 401, field lists for 400", async () => {
  const { h, post } = service();
  const none = await post(null, { action: "tool_call", context });
  assert.deepEqual([none.status, none.body], [401, {
    detail: "Authentication credentials were not provided.",
  }]);
  const shaped = await post("not-an-agent-key-0123", { action: "tool_call", context });
  assert.deepEqual(shaped.body, { detail: "Invalid API key format" });
  const unknown = await post("sk_agent_nope_0123456789", { action: "tool_call", context });
  assert.deepEqual(unknown.body, { detail: "Invalid API key" });
  const long = await post(A, { action: "tool_call", user_id: "u".repeat(256), context });
  assert.deepEqual([long.status, long.body], [400, {
    user_id: ["Ensure this field has no more than 255 characters."],
  }]);
  const missing = await post(A, { context });
  assert.deepEqual(missing.body, { action: ["This field is required."] });
  const nullInput = await post(A, {
    action: "tool_call",
    context: { ...context, tool_input: null },
  });
  assert.deepEqual(nullInput.body.context, { tool_input: ["This field may not be null."] });
  const version = await post(A, {
    action: "tool_call",
    context: { ...context, schema_version: 2 },
  });
  assert.equal(version.status, 200);
  assert.equal(
    version.body.decision,
    "deny",
    "an unsupported schema version is a denial, as in Zentinelle",
  );
  await h.close();
});

test("an engine that fails answers Zentinelle's structured 503 deny, never a 500", async () => {
  const { h, post } = service();
  const engine = await h.app.engine();
  engine.policy!.local!.evaluate = () => Promise.reject(new Error("store down"));
  const res = await post(A, { action: "tool_call", user_id: "u", context });
  assert.equal(res.status, 503);
  assert.equal(res.body.decision, "deny");
  assert.equal(res.body.allowed, false);
  assert.equal(res.body.reason, "Policy evaluation unavailable");
  assert.deepEqual(res.body.coverage, { status: "unknown" });
  assert.equal(res.body.enforcement.action, "block");
  assert.equal(res.body.trace_id, res.body.context.trace_id);
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
  assert.deepEqual(res.body.context.harness, ["This value does not match the required pattern."]);
  assert.equal((await post(A, "not json{")).status, 400);
  const other = await post(A, { action: "tool_call", agent_id: "agent-b", context });
  assert.deepEqual([other.status, other.body], [403, { error: "Agent ID mismatch" }]);
  assert.equal((await post(A, { action: "tool_call", agent_id: "agent-a", context })).status, 200);
  assert.equal((await post(A, { action: "tool_call", agent_id: "", context })).status, 200);
  await h.close();
});

test("an approval request is readable only with the key that opened it (404 for another)", async () => {
  const { h, post, get } = service();
  const ask = await post(A, { action: "tool_call", user_id: "u", context });
  assert.equal(ask.body.decision, "ask");
  const id = ask.body.approval.request_id;
  assert.equal((await get(A, id)).body.status, "pending");
  assert.deepEqual(await get(B, id).then((r) => [r.status, r.body]), [404, {
    error: "Approval request not found",
  }]);
  assert.equal((await get(A, "no-such-request")).status, 404);
  await h.close();
});

test("operators decide at Zentinelle's paths too, with its bodies; a workload key cannot", async () => {
  const TOKEN = "admin-token-0123456789";
  const h = harness({
    gate: { document: CASE_POLICIES, agentKeys: { [A]: "agent-a" } },
    access: { adminToken: TOKEN } as never,
  });
  const ask = await h.call("POST", "/api/zentinelle/v1/evaluate", {
    action: "tool_call",
    user_id: "dev",
    context,
  }, {
    "x-zentinelle-key": A,
  });
  const id = ask.body.approval.request_id;
  const op = { authorization: `Bearer ${TOKEN}` };
  const listed = await h.call("GET", "/api/zentinelle/v1/approvals/requests", undefined, op);
  assert.equal(listed.status, 200);
  const [item] = listed.body.requests;
  assert.deepEqual(Object.keys(item).sort(), [
    "action",
    "agent_id",
    "context",
    "created_at",
    "expires_at",
    "reason",
    "request_id",
    "trace_id",
    "user_id",
  ]);
  assert.equal(item.trace_id, ask.body.trace_id);
  assert.equal(item.context.tool_name, "Bash");
  assert.deepEqual(
    item.context.tool_input,
    context.tool_input,
    "the approver sees the input whole",
  );
  const asWorkload = await h.call("POST", `/api/zentinelle/v1/approvals/requests/${id}/decision`, {
    decision: "approve",
  }, {
    "x-zentinelle-key": A,
  });
  assert.deepEqual([asWorkload.status, asWorkload.body], [401, {
    detail: "Authentication credentials were not provided.",
  }]);
  const bad = await h.call("POST", `/api/zentinelle/v1/approvals/requests/${id}/decision`, {
    decision: "maybe",
  }, op);
  assert.deepEqual([bad.status, bad.body], [400, { decision: ['"maybe" is not a valid choice.'] }]);
  const decided = await h.call("POST", `/api/zentinelle/v1/approvals/requests/${id}/decision`, {
    decision: "approve",
    reason: "fine",
  }, op);
  assert.equal(decided.status, 200);
  assert.deepEqual(Object.keys(decided.body).sort(), ["decided_at", "request_id", "status"]);
  const again = await h.call("POST", `/api/zentinelle/v1/approvals/requests/${id}/decision`, {
    decision: "deny",
  }, op);
  assert.deepEqual([again.status, again.body], [409, {
    error: "Approval request is approved, not pending",
  }]);
  const unknown = await h.call("POST", "/api/zentinelle/v1/approvals/requests/nope/decision", {
    decision: "deny",
  }, op);
  assert.deepEqual([unknown.status, unknown.body], [404, { error: "Approval request not found" }]);
  const tether = await h.call("GET", "/api/approvals", undefined, op);
  assert.equal(tether.status, 200, "Tether's own inbox stays where it was");
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

test("a body past the cap is refused while it is still arriving, never read whole first", {
  timeout: 10_000,
}, async () => {
  const TOKEN = "admin-token-0123456789";
  const h = harness({
    gate: { document: CASE_POLICIES, agentKeys: { [A]: "agent-a" } },
    access: { adminToken: TOKEN } as never,
  });
  // 64 KiB chunks without end: a route that reads the whole body first never answers.
  let pulled = 0;
  const endless = () =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 65_536;
        controller.enqueue(new Uint8Array(65_536).fill(0x20));
      },
    });
  const routes: [string, Record<string, string>][] = [
    ["/api/zentinelle/v1/evaluate", { "x-zentinelle-key": A }],
    ["/api/zentinelle/v1/approvals/requests/x/decision", { authorization: `Bearer ${TOKEN}` }],
    ["/api/approvals/x/decision", { authorization: `Bearer ${TOKEN}` }],
  ];
  for (const [path, auth] of routes) {
    pulled = 0;
    const res = await h.app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: endless(),
      duplex: "half",
    } as RequestInit);
    assert.equal(res.status, 413, path);
    assert.match(JSON.stringify(await res.json()), /larger than/, path);
    assert.ok(pulled < 4_000_000, `${path} read about as far as its cap (${pulled} bytes)`);
  }
  await h.close();
});
