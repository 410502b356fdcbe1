import { test } from "node:test";
import assert from "node:assert/strict";
import { startNode } from "../runtime/node.ts";
import { backendCases, CASE_POLICIES } from "./backend.case.ts";
import { type DoublePolicy, zentinelleDouble } from "../../tests/zentinelle/double.ts";
import { reasonOf, zentinelleBackend } from "./zentinelle_backend.ts";
import { PolicyUnavailable } from "./backend.ts";
import { serveLoopback } from "../testing/loopback.ts";

const KEY = "sk_agent_test_key_0123456789";

// The client against Tether's own policy service, over HTTP on loopback.
backendCases("zentinelle backend against Tether's policy service", async () => {
  const rt = await startNode({
    port: 0,
    socketIo: false,
    env: { STORE__URL: "memory:", MODEL__DEFAULT: "offline" },
    gate: { document: CASE_POLICIES, agentKeys: { [KEY]: "agent-a" } },
    warn: () => {},
  });
  const approvals = (await rt.app.engine()).policy!.local!.approvals;
  return {
    backend: zentinelleBackend({ url: rt.url, key: KEY, timeoutMs: 5_000 }),
    approve: async (id) => void (await approvals.decide(id, "approve", "ops")),
    deny: async (id, reason) => void (await approvals.decide(id, "deny", "ops", reason)),
    close: () => rt.close(),
  };
});

/** The shared cases' policy as Zentinelle stores it. */
export const DOUBLE_POLICIES: DoublePolicy[] = CASE_POLICIES.policies.map((p) => ({
  id: p.id,
  name: p.name,
  policy_type: p.type,
  version: p.version,
  config: p.config,
}));

// The same client against the Zentinelle double.
backendCases("zentinelle backend against the Zentinelle double", async () => {
  const z = await zentinelleDouble();
  z.policies = DOUBLE_POLICIES;
  return {
    backend: zentinelleBackend({ url: z.url, key: z.key, timeoutMs: 5_000 }),
    approve: (id) => Promise.resolve(z.approve(id)),
    deny: (id, reason) => Promise.resolve(z.deny(id, reason)),
    close: () => z.close(),
  };
});

test("a refusal's reason is read in every shape Zentinelle gives it", () => {
  assert.equal(reasonOf({ detail: "Invalid API key" }), "Invalid API key");
  assert.equal(reasonOf({ error: "Agent ID mismatch" }), "Agent ID mismatch");
  assert.equal(
    reasonOf({
      error: "Invalid agent host tool_call context",
      context: { harness: ["This field is required."] },
    }),
    "Invalid agent host tool_call context: harness: This field is required.",
  );
  assert.equal(
    reasonOf({ user_id: ["Ensure this field has no more than 255 characters."] }),
    "user_id: Ensure this field has no more than 255 characters.",
  );
  assert.equal(
    reasonOf({ decision: "deny", reason: "Policy evaluation unavailable" }),
    "Policy evaluation unavailable",
  );
  assert.equal(reasonOf("<html>"), "");
});

test("over the wire, Zentinelle's 400 and 401 reasons reach the denial", async () => {
  const z = await zentinelleDouble();
  try {
    const backend = zentinelleBackend({ url: z.url, key: z.key, timeoutMs: 2_000 });
    await assert.rejects(
      backend.evaluate({
        action: "tool_call",
        user_id: "u".repeat(256),
        context: { harness: "tether", session_id: "s", tool_name: "Bash" },
      }),
      /400 \(user_id: Ensure this field has no more than 255 characters\.\)/,
    );
    const stranger = zentinelleBackend({ url: z.url, key: "sk_agent_unknown", timeoutMs: 2_000 });
    await assert.rejects(stranger.approval("x"), /401 \(Invalid API key\)/);
  } finally {
    await z.close();
  }
});

test("a redirect is a failure: the key is not sent on and the answer behind it is not trusted", async () => {
  const z = await zentinelleDouble();
  z.policies = DOUBLE_POLICIES;
  const before = z.received.length;
  const redirector = await serveLoopback((req) =>
    new Response(null, {
      status: 307,
      headers: { location: `${z.url}${new URL(req.url).pathname}` },
    })
  );
  try {
    const backend = zentinelleBackend({ url: redirector.url, key: z.key, timeoutMs: 5_000 });
    await assert.rejects(
      backend.evaluate({ action: "tool_call", user_id: "u", context: {} } as never),
      (error: Error) => error instanceof PolicyUnavailable && /redirect/.test(error.message),
    );
    assert.equal(z.received.length, before, "nothing reached the address the redirect named");
  } finally {
    await redirector.close();
    await z.close();
  }
});
