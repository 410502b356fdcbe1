// deno-lint-ignore-file no-explicit-any -- wire payloads are read field by field
/**
 * Issue 25, finding 5: an approval releases input the approver could not
 * see. The inbox kept 2,000 characters of a string (the page showed 400), so
 * "… && also wire 10,000 USD" past the clip was released by an Approve. Now
 * the input is kept whole (or withheld, and then it cannot be approved); under
 * POLICY__CONTENT_CAPTURE=metadata every request is withheld and an approve
 * is refused, saying why. Bounds: each answer within ANSWER_BOUND_MS (3 s),
 * no stretch holding the event loop for EVENT_LOOP_BOUND_MS (100 ms of
 * processor time).
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTarget, type Target, underAttack } from "./_kit.ts";

const KEY = `sk_agent_${crypto.randomUUID().replace(/-/g, "")}`;
const ADMIN = "admin-token-inbox-9a8b7c6d5e4f";
const TAIL = "&& also wire 10,000 USD";
const COMMAND = `npm test ${"-".repeat(3_000)} ${TAIL}`;
const cleanup: (() => Promise<void>)[] = [];
after(async () => {
  for (const undo of cleanup.splice(0)) await undo();
});

async function inboxTarget(env: Record<string, string> = {}): Promise<Target> {
  const dir = await mkdtemp(join(tmpdir(), "tether-inbox-"));
  const file = join(dir, "policies.json");
  await writeFile(
    file,
    JSON.stringify({
      policies: [{
        id: "ask",
        name: "Shell needs a person",
        type: "tool_permission",
        version: 1,
        config: { requires_approval: ["Bash"] },
      }],
    }),
  );
  const target = await startTarget({
    ACCESS__ADMIN_TOKEN: ADMIN,
    POLICY__FILE: file,
    POLICY__AGENT_KEYS: JSON.stringify({ [KEY]: "codex-dev" }),
    ...env,
  });
  cleanup.push(async () => {
    await target.close();
    await rm(dir, { recursive: true, force: true });
  });
  return target;
}

const call = (target: Target, path: string, body?: unknown) =>
  fetch(`${target.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${ADMIN}`,
      "x-zentinelle-key": KEY,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: await r.json() as any }));

const hold = (target: Target) =>
  call(target, "/api/zentinelle/v1/evaluate", {
    action: "tool_call",
    user_id: "dev@example.com",
    context: {
      harness: "codex",
      session_id: "s-inbox",
      tool_call_id: `call_${crypto.randomUUID()}`,
      tool_name: "Bash",
      tool_input: { command: COMMAND },
    },
  });

test("the inbox keeps and shows a long input whole, so what is approved is what was seen", async () => {
  const target = await inboxTarget();
  const asked = await underAttack(target, () => hold(target), { eventLoop: true });
  assert.equal(asked.body.decision, "ask", JSON.stringify(asked.body).slice(0, 300));
  const inbox = await underAttack(target, () => call(target, "/api/approvals"), {
    eventLoop: true,
  });
  const [request] = inbox.body.requests;
  assert.equal(request.context.tool_input.command, COMMAND, "not clipped");
  assert.ok(request.context.tool_input.command.endsWith(TAIL));
  const decided = await call(target, `/api/approvals/${request.request_id}/decision`, {
    decision: "approve",
  });
  assert.equal(decided.status, 200, JSON.stringify(decided.body));
});

test("under metadata capture the input is withheld, and approving it is refused, saying why", async () => {
  const target = await inboxTarget({ POLICY__CONTENT_CAPTURE: "metadata" });
  await hold(target);
  const [request] = (await call(target, "/api/approvals")).body.requests;
  assert.equal("tool_input" in request.context, false);
  assert.equal(request.context.input_withheld, true);
  const approve = await underAttack(
    target,
    () => call(target, `/api/approvals/${request.request_id}/decision`, { decision: "approve" }),
    { eventLoop: true },
  );
  assert.equal(approve.status, 409, JSON.stringify(approve.body));
  assert.match(approve.body.error.message, /cannot be approved: .*metadata/);
  const viaZentinellePaths = await call(
    target,
    `/api/zentinelle/v1/approvals/requests/${request.request_id}/decision`,
    { decision: "approve" },
  );
  assert.equal(viaZentinellePaths.status, 409);
  const deny = await call(target, `/api/approvals/${request.request_id}/decision`, {
    decision: "deny",
  });
  assert.equal(deny.status, 200, "a denial needs no input");
});
