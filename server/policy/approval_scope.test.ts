// deno-lint-ignore-file no-explicit-any -- wire payloads are read field by field
/** The operator inbox's scope: workspace, self-approval, and who asked. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { harness } from "../testing/harness.ts";
import { policyOptionsFromEnv } from "./env.ts";
import type { CallOrigin } from "./backend.ts";

const POLICY = {
  policies: [{
    id: "ask",
    name: "Ask",
    type: "tool_permission" as const,
    version: 1,
    config: { requires_approval: ["Bash"] },
  }],
};

function inbox(selfApproval?: boolean) {
  const h = harness({
    access: {
      mode: "custom",
      authenticate: (req: Request) => ({
        id: req.headers.get("x-user") ?? "nobody",
        roles: (req.headers.get("x-roles") ?? "").split(",").filter(Boolean),
        ...(req.headers.get("x-ws") ? { workspace: req.headers.get("x-ws")! } : {}),
      }),
    } as never,
    gate: { document: POLICY, ...(selfApproval === undefined ? {} : { selfApproval }) },
  });
  const open = async (origin?: CallOrigin) => {
    const local = (await h.app.engine()).policy!.local!;
    const answer = await local.evaluate(
      {
        action: "tool_call",
        user_id: origin?.principal ?? "claimed-user",
        context: { harness: "t", session_id: "s", tool_call_id: "c", tool_name: "Bash" },
      },
      origin ? "tether" : "other-agent",
      { origin },
    );
    return answer.approval!.request_id;
  };
  const as = (user: string, roles: string, ws?: string) => ({
    "x-user": user,
    "x-roles": roles,
    ...(ws ? { "x-ws": ws } : {}),
  });
  const list = (headers: Record<string, string>) =>
    h.call("GET", "/api/approvals", undefined, headers);
  const decide = (id: string, headers: Record<string, string>) =>
    h.call("POST", `/api/approvals/${id}/decision`, { decision: "approve" }, headers);
  return { h, open, as, list, decide };
}

test("operators see their workspace's calls; the default workspace is one workspace", async () => {
  const { h, open, as, list, decide } = inbox();
  const acme = await open({ principal: "ann", workspace: "acme" });
  const plain = await open({ principal: "bob" });
  const ids = async (headers: Record<string, string>) =>
    (await list(headers)).body.requests.map((r: any) => r.request_id).sort();
  assert.deepEqual(await ids(as("op", "operator", "acme")), [acme]);
  assert.deepEqual(await ids(as("op", "operator")), [plain]);
  assert.deepEqual(await ids(as("op", "operator", "default")), [plain], "absent is the default");
  assert.deepEqual(await ids(as("root", "admin", "elsewhere")), [acme, plain].sort());
  assert.equal((await decide(acme, as("op", "operator"))).status, 404);
  assert.equal((await decide(acme, as("op", "operator", "acme"))).status, 200);
  await h.close();
});

test("self-approval is refused unless configured; an admin is refused too", async () => {
  const refused = inbox();
  const id = await refused.open({ principal: "ann" });
  const own = await refused.decide(id, refused.as("ann", "admin"));
  assert.equal(own.status, 403);
  assert.match(own.body.error.message, /POLICY__SELF_APPROVAL=allow/);
  await refused.h.close();
  const allowed = inbox(true);
  const mine = await allowed.open({ principal: "ann" });
  assert.equal((await allowed.decide(mine, allowed.as("ann", "operator"))).status, 200);
  await allowed.h.close();
  assert.equal(policyOptionsFromEnv({ POLICY__SELF_APPROVAL: "allow" })?.selfApproval, true);
  assert.equal(policyOptionsFromEnv({ POLICY__SELF_APPROVAL: "refuse" })?.selfApproval, false);
  assert.throws(() => policyOptionsFromEnv({ POLICY__SELF_APPROVAL: "yes" }), /allow or refuse/);
});

test("a request an agent opened names the agent and is an admin's to decide", async () => {
  const { h, open, as, list } = inbox();
  const id = await open();
  assert.deepEqual((await list(as("op", "operator"))).body.requests, []);
  const [entry] = (await list(as("root", "admin"))).body.requests;
  assert.equal(entry.request_id, id);
  assert.deepEqual(entry.requested_by, {
    kind: "agent",
    agent_id: "other-agent",
    unverified: ["user_id", "context"],
  });
  await h.close();
});
