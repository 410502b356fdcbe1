// deno-lint-ignore-file no-explicit-any -- wire payloads are read field by field
/**
 * Finding 8 of the second hardening round, against a real runtime on
 * loopback (header access mode, the embedded policy engine from a policy
 * file, the offline model calling the page's `select_issue`, which the
 * policy holds for approval):
 *
 * - an operator of another workspace neither sees nor decides a call (404, as
 *   an id never issued), in Tether's inbox and in Zentinelle's;
 * - a principal who holds the operator role cannot approve its own call;
 * - a request opened by an external agent key shows the agent (and marks the
 *   user and session it named as unverified), and only an admin decides it.
 *
 * Bounds: every answer within 3 s, `/health` within 100 ms during each attack.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ISSUE_CONTEXT } from "../../server/transports/_test_kit.ts";
import { startTarget, type Target } from "./_kit.ts";
import { withinBounds } from "./_bounds.ts";

const AGENT_KEY = "sk_agent_scope_0123456789abcdef";
const POLICY = {
  policies: [{
    id: "hold-select",
    name: "Selecting an issue needs a person",
    type: "tool_permission",
    version: 1,
    config: { requires_approval: ["select_issue"] },
  }],
};

const who = (id: string, workspace: string, roles = "") => ({
  "x-tether-principal": id,
  "x-tether-workspace": workspace,
  ...(roles ? { "x-tether-roles": roles } : {}),
});
async function call(target: Target, method: string, path: string, headers: any, body?: unknown) {
  const res = await fetch(`${target.url}${path}`, {
    method,
    headers: { ...headers, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
const inbox = (t: Target, h: any) => call(t, "GET", "/api/approvals", h);
const zinbox = (t: Target, h: any) => call(t, "GET", "/api/zentinelle/v1/approvals/requests", h);
const decide = (t: Target, h: any, id: string, zentinelle = false) =>
  call(
    t,
    "POST",
    `${zentinelle ? "/api/zentinelle/v1/approvals/requests" : "/api/approvals"}/${id}/decision`,
    h,
    { decision: "approve" },
  );

async function withTarget(run: (t: Target) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), "tether-scope-"));
  writeFileSync(join(dir, "policies.json"), JSON.stringify(POLICY));
  const target = await startTarget({
    ACCESS__MODE: "header",
    POLICY__FILE: join(dir, "policies.json"),
    POLICY__AGENT_KEYS: JSON.stringify({ [AGENT_KEY]: "ci-bot" }),
  });
  try {
    await run(target);
  } finally {
    await target.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Alice (workspace acme) asks for select_issue; resolves with the held request's id. */
async function held(target: Target, sid: string): Promise<string> {
  const res = await call(target, "POST", "/api/chat", who("alice", "acme"), {
    session_id: sid,
    content: "select issue 42",
    host_context: ISSUE_CONTEXT,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.pending_tool_call?.approval?.request_id;
  assert.ok(id, `the call is held for approval: ${JSON.stringify(res.body)}`);
  return id;
}

test("an operator of another workspace neither sees nor decides a call", async () => {
  await withTarget(async (target) => {
    const id = await held(target, "scope-1");
    const olga = who("olga", "globex", "operator");
    const [mine, theirs, zTheirs, decided, zDecided] = await withinBounds(
      target.url,
      () =>
        Promise.all([
          inbox(target, who("oscar", "acme", "operator")),
          inbox(target, olga),
          zinbox(target, olga),
          decide(target, olga, id),
          decide(target, olga, id, true),
        ]),
    );
    assert.deepEqual(mine.body.requests.map((r: any) => r.request_id), [id]);
    assert.deepEqual(mine.body.requests[0].requested_by, {
      kind: "session",
      principal: "alice",
      workspace: "acme",
    });
    assert.deepEqual(theirs.body.requests, []);
    assert.deepEqual(zTheirs.body.requests, []);
    assert.equal(decided.status, 404);
    assert.equal(zDecided.status, 404);
    // Still pending: the operator of acme decides it.
    const oscar = await decide(target, who("oscar", "acme", "operator"), id);
    assert.equal(oscar.status, 200, JSON.stringify(oscar.body));
    assert.equal(oscar.body.status, "approved");
  });
});

test("a principal with the operator role cannot approve its own call", async () => {
  await withTarget(async (target) => {
    const id = await held(target, "scope-2");
    const [own, zOwn] = await withinBounds(target.url, () =>
      Promise.all([
        decide(target, who("alice", "acme", "operator"), id),
        decide(target, who("alice", "acme", "operator"), id, true),
      ]));
    assert.equal(own.status, 403, JSON.stringify(own.body));
    assert.match(own.body.error.message, /POLICY__SELF_APPROVAL/);
    assert.equal(zOwn.status, 403);
    const still = await inbox(target, who("oscar", "acme", "operator"));
    assert.deepEqual(still.body.requests.map((r: any) => r.request_id), [id], "still pending");
  });
});

test("a request an external agent opened shows the agent, and only an admin decides it", async () => {
  await withTarget(async (target) => {
    // The agent names Alice and one of her sessions: its own word, not Tether's.
    const opened = await call(target, "POST", "/api/zentinelle/v1/evaluate", {
      "x-zentinelle-key": AGENT_KEY,
    }, {
      action: "tool_call",
      user_id: "alice",
      context: {
        harness: "claude",
        session_id: "scope-3",
        tool_call_id: "toolu_1",
        tool_name: "select_issue",
        tool_input: { number: 42 },
      },
    });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const id = opened.body.approval?.request_id;
    assert.ok(id, JSON.stringify(opened.body));
    const [operator, admin, decided] = await withinBounds(target.url, () =>
      Promise.all([
        inbox(target, who("oscar", "acme", "operator")),
        inbox(target, who("root", "acme", "admin")),
        decide(target, who("oscar", "acme", "operator"), id),
      ]));
    assert.deepEqual(operator.body.requests, []);
    assert.equal(decided.status, 404);
    const entry = admin.body.requests.find((r: any) => r.request_id === id);
    assert.deepEqual(entry.requested_by, {
      kind: "agent",
      agent_id: "ci-bot",
      unverified: ["user_id", "context"],
    });
    assert.equal(entry.agent_id, "ci-bot");
    const byAdmin = await decide(target, who("root", "acme", "admin"), id);
    assert.equal(byAdmin.status, 200);
  });
});
