import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { registerSecret } from "../log.ts";
import { memoryStore } from "../kv/memory.ts";
import { ApprovalConflict } from "./approvals.ts";
import { MAX_INPUT_CHARS } from "./content_capture.ts";
import type { EvaluateBody } from "./contract.ts";
import { LocalPolicyEngine } from "./local_engine.ts";
import type { PolicyDocument } from "./policy_file.ts";

const doc = (version = 1, timeouts: number[] = []): PolicyDocument => ({
  policies: [
    {
      id: "shell",
      name: "Shell needs a human",
      type: "tool_permission",
      version,
      config: { requires_approval: ["Bash"] },
    },
    ...timeouts.map((t, i) => ({
      id: `t${i}`,
      name: "window",
      type: "tool_permission" as const,
      version: 1,
      config: { approval_timeout_seconds: t },
    })),
  ],
});
const body = (input: unknown = { command: "npm test" }, token?: string): EvaluateBody => ({
  action: "tool_call",
  user_id: "ann",
  context: {
    harness: "offline",
    session_id: "s1",
    tool_call_id: "c1",
    tool_name: "Bash",
    tool_input: input,
    ...(token ? { approval_token: token } : {}),
  },
});

function setup(policies = doc(), contentCapture?: "metadata" | "redacted" | "full") {
  let now = Date.parse("2026-09-22T20:00:00Z");
  const logged: Record<string, unknown>[] = [];
  const store = memoryStore();
  const engine = new LocalPolicyEngine({
    store,
    policies,
    now: () => now,
    log: (_m, f) => logged.push(f),
    contentCapture,
  });
  return { engine, store, logged, now: () => now, advance: (ms: number) => (now += ms) };
}

async function approvedToken(engine: LocalPolicyEngine, input?: unknown) {
  const ask = await engine.evaluate(body(input), "tether");
  await engine.approvals.decide(ask.approval!.request_id, "approve", "ops-ann", "looks fine");
  const status = await engine.approval(ask.approval!.request_id, "tether");
  return { id: ask.approval!.request_id, token: status!.approval_token! };
}

test("the window is the shortest approval_timeout_seconds, at most 300", async () => {
  for (const [timeouts, want] of [[[], 300], [[900], 300], [[120, 45], 45]] as const) {
    const { engine } = setup(doc(1, [...timeouts]));
    const ask = await engine.evaluate(body(), "tether");
    assert.equal(ask.approval!.timeout_seconds, want);
    assert.equal(
      Date.parse(ask.approval!.expires_at) - Date.parse("2026-09-22T20:00:00Z"),
      want * 1000,
    );
  }
});

test("a decision is logged with who made it, and a second one is a 409", async () => {
  const { engine, logged } = setup();
  const { id } = await approvedToken(engine);
  assert.equal(logged[0].decided_by, "ops-ann");
  assert.equal(logged[0].status, "approved");
  await assert.rejects(
    engine.approvals.decide(id, "deny", "ops-bob"),
    (e: ApprovalConflict) => e.status === 409,
  );
});

test("a request expires on the engine's clock: status expired, no decision accepted, not in the inbox", async () => {
  const { engine, advance } = setup(doc(1, [60]));
  const ask = await engine.evaluate(body(), "tether");
  assert.equal((await engine.approvals.pending()).length, 1);
  advance(60_000);
  const status = await engine.approval(ask.approval!.request_id, "tether");
  assert.equal(status!.status, "expired");
  assert.equal((await engine.approvals.pending()).length, 0);
  await assert.rejects(
    engine.approvals.decide(ask.approval!.request_id, "approve", "ops"),
    (e: ApprovalConflict) => e.status === 409,
  );
});

test("a token is bound to the policy version: a changed policy refuses the retry", async () => {
  const { engine } = setup();
  const { token } = await approvedToken(engine);
  engine.setPolicies(doc(2));
  const retry = await engine.evaluate(body(undefined, token), "tether");
  assert.equal(retry.decision, "deny");
});

test("a token expires 300 seconds after the approval", async () => {
  const { engine, advance } = setup();
  const { token } = await approvedToken(engine);
  advance(300_000);
  assert.equal((await engine.evaluate(body(undefined, token), "tether")).decision, "deny");
});

test("a token lives no longer than the policies' window (as Zentinelle grants it)", async () => {
  const { engine, advance, now } = setup(doc(1, [60]));
  const { id, token } = await approvedToken(engine);
  const status = await engine.approval(id, "tether");
  assert.equal(Date.parse(status!.approval_expires_at!) - now(), 60_000);
  advance(60_000);
  const retry = await engine.evaluate(body(undefined, token), "tether");
  assert.equal(retry.decision, "deny");
  assert.match(retry.reason!, /expired/);
});

test("another agent cannot read or redeem a request", async () => {
  const { engine } = setup();
  const { id, token } = await approvedToken(engine);
  assert.equal(await engine.approval(id, "agent-b"), null);
  assert.equal((await engine.evaluate(body(undefined, token), "agent-b")).decision, "deny");
  assert.equal((await engine.evaluate(body(undefined, token), "tether")).decision, "allow");
});

test("a forged token (right id, wrong mac) is denied", async () => {
  const { engine } = setup();
  const { token } = await approvedToken(engine);
  const forged = token.replace(/\.[^.]+$/, ".AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  assert.equal((await engine.evaluate(body(undefined, forged), "tether")).decision, "deny");
  assert.equal((await engine.evaluate(body(undefined, "garbage"), "tether")).decision, "deny");
});

test("approvals live in the store: another engine on the same store redeems the token once", async () => {
  const { engine, store, now } = setup();
  const { token } = await approvedToken(engine);
  const other = new LocalPolicyEngine({ store, policies: doc(), now, log: () => {} });
  assert.equal((await other.evaluate(body(undefined, token), "tether")).decision, "allow");
  assert.equal((await engine.evaluate(body(undefined, token), "tether")).decision, "deny");
});

test("under metadata capture the inbox shows the call's tool and session but not its input, newest first", async () => {
  const { engine, advance } = setup(doc(), "metadata");
  await engine.evaluate(body({ command: "npm test" }), "tether");
  advance(1_000);
  await engine.evaluate(body({ command: "npm run build", token: "tok" }), "tether");
  const inbox = await engine.approvals.pending();
  assert.equal(inbox.length, 2);
  assert.ok(inbox[0].created_at > inbox[1].created_at, "newest first");
  for (const r of inbox) {
    assert.equal(r.context.session_id, "s1");
    assert.equal(r.context.tool_name, "Bash");
    assert.equal("tool_input" in r.context, false, "metadata capture keeps no arguments");
    assert.equal(r.context.input_withheld, true);
  }
  assert.match(inbox[0].reason, /requires approval/);
  // Nobody saw the input, so nobody may release it; a denial stays possible.
  await assert.rejects(
    engine.approvals.decide(inbox[0].request_id, "approve", "ops"),
    (error: Error) => error instanceof ApprovalConflict && /metadata/.test(error.message),
  );
  assert.equal(
    (await engine.approvals.decide(inbox[0].request_id, "deny", "ops")).status,
    "denied",
  );
});

test("by default the input is kept whole, however long, and shown whole to the approver", async () => {
  const { engine } = setup();
  const command = `npm test ${"x".repeat(5_000)} && also wire 10,000 USD`;
  await engine.evaluate(body({ command, password: "hunter22" }), "tether");
  const [r] = await engine.approvals.pending();
  assert.deepEqual(r.context.tool_input, { command, password: "[REDACTED]" });
  assert.equal(r.context.input_withheld, undefined);
  await engine.approvals.decide(r.request_id, "approve", "ops");
});

test("an input too long to show whole is withheld, never clipped, and cannot be approved", async () => {
  const { engine } = setup();
  await engine.evaluate(body({ command: "a".repeat(MAX_INPUT_CHARS + 1) }), "tether");
  const [r] = await engine.approvals.pending();
  assert.equal("tool_input" in r.context, false);
  assert.match(String(r.context.input_withheld_reason), /too long to show whole/);
  await assert.rejects(engine.approvals.decide(r.request_id, "approve", "ops"), ApprovalConflict);
});

test("redacted capture masks a key that looks secret whole, even when a configured secret is inside it", async () => {
  // A configured secret of this test alone (secrets stay registered for the process), inside a
  // key the patterns know: redacted first, it would split the key and leave its ends readable.
  const secret = randomBytes(8).toString("hex");
  registerSecret(secret);
  const redacted = setup(doc(), "redacted");
  await redacted.engine.evaluate(
    body({ command: `deploy --key sk-live_${secret}tail0123` }),
    "tether",
  );
  const kept = (await redacted.engine.approvals.pending())[0].context.tool_input as Record<
    string,
    unknown
  >;
  assert.equal(kept.command, "deploy --key [REDACTED]");
});

test("full capture keeps the input; redacted masks what looks secret or personal", async () => {
  const full = setup(doc(), "full");
  await full.engine.evaluate(body({ command: "npm test", mail: "ann@example.com" }), "tether");
  assert.deepEqual((await full.engine.approvals.pending())[0].context.tool_input, {
    command: "npm test",
    mail: "ann@example.com",
  });
  const redacted = setup(doc(), "redacted");
  await redacted.engine.evaluate(
    body({
      command: "deploy --key sk-live_0123456789abcdef0123",
      mail: "ann@example.com",
      password: "hunter2",
    }),
    "tether",
  );
  const kept = (await redacted.engine.approvals.pending())[0].context.tool_input as Record<
    string,
    unknown
  >;
  assert.equal(kept.command, "deploy --key [REDACTED]");
  assert.equal(kept.mail, "[REDACTED]");
  assert.equal(kept.password, "[REDACTED]", "secret fields show as masked, never as sent");
});
