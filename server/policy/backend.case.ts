/**
 * The contract every policy backend passes (run by `local_backend.test.ts`
 * and `zentinelle_backend.test.ts`): a backend whose policy denies `Write`
 * and holds `Bash` for approval, and leaves other tools alone.
 *
 * @module
 */
// deno-lint-ignore-file no-explicit-any -- wire answers are read field by field
import { test } from "node:test";
import assert from "node:assert/strict";
import type { PolicyBackend } from "./backend.ts";
import type { EvaluateBody } from "./contract.ts";

/** A backend under test, with the operator's hands. */
export interface BackendFixture {
  backend: PolicyBackend;
  approve(requestId: string): Promise<void>;
  deny(requestId: string, reason: string): Promise<void>;
  close(): Promise<void>;
}

const body = (tool: string, input: unknown, extra: Record<string, unknown> = {}): EvaluateBody => ({
  action: "tool_call",
  user_id: "dev@example.com",
  context: {
    harness: "claude",
    session_id: "a41f0c2e",
    chat_id: "a41f0c2e-1",
    tool_call_id: "toolu_01",
    tool_name: tool,
    tool_input: input,
    ...extra,
  },
});

/**
 * Registers the shared backend tests.
 *
 * @example
 * ```ts
 * backendCases("local", async () => ({ backend, approve, deny, close }));
 * ```
 */
export function backendCases(name: string, make: () => Promise<BackendFixture>): void {
  const withFixture = (title: string, fn: (f: BackendFixture) => Promise<void>) =>
    test(`${name}: ${title}`, async () => {
      const f = await make();
      try {
        await fn(f);
      } finally {
        await f.close();
      }
    });

  withFixture("allow and deny come back with allowed set only for allow", async ({ backend }) => {
    const allow: any = await backend.evaluate(body("Read", { file_path: "/x" }));
    assert.equal(allow.decision, "allow");
    assert.equal(allow.allowed, true);
    const deny: any = await backend.evaluate(body("Write", { file_path: "/x" }));
    assert.equal(deny.decision, "deny");
    assert.equal(deny.allowed, false);
    assert.match(deny.reason, /Write/);
  });

  withFixture(
    "ask opens a request; approved gives a token that releases the exact call once",
    async (f) => {
      const ask: any = await f.backend.evaluate(body("Bash", { command: "npm test" }));
      assert.equal(ask.decision, "ask");
      assert.equal(ask.allowed, false);
      const id = ask.approval.request_id;
      assert.equal(ask.approval.status, "pending");
      assert.ok(ask.approval.timeout_seconds > 0 && ask.approval.timeout_seconds <= 300);
      assert.equal(((await f.backend.approval(id)) as any).status, "pending");
      await f.approve(id);
      const approved: any = await f.backend.approval(id);
      assert.equal(approved.status, "approved");
      assert.equal(typeof approved.approval_token, "string");
      const token = approved.approval_token;
      const retry: any = await f.backend.evaluate(
        body("Bash", { command: "npm test" }, { approval_token: token }),
      );
      assert.equal(retry.decision, "allow");
      const replay: any = await f.backend.evaluate(
        body("Bash", { command: "npm test" }, { approval_token: token }),
      );
      assert.equal(replay.decision, "deny", "a token works once");
    },
  );

  withFixture("a retry with changed input is denied, never asked again", async (f) => {
    const ask: any = await f.backend.evaluate(body("Bash", { command: "npm test" }));
    await f.approve(ask.approval.request_id);
    const { approval_token }: any = await f.backend.approval(ask.approval.request_id);
    const changed: any = await f.backend.evaluate(
      body("Bash", { command: "npm test -- --all" }, { approval_token }),
    );
    assert.equal(changed.decision, "deny");
    const otherSession: any = await f.backend.evaluate(
      {
        ...body("Bash", { command: "npm test" }, { approval_token }),
        context: {
          ...body("Bash", { command: "npm test" }).context,
          session_id: "other",
          approval_token,
        },
      },
    );
    assert.equal(otherSession.decision, "deny");
  });

  withFixture("a denied request says so, with the operator's reason", async (f) => {
    const ask: any = await f.backend.evaluate(body("Bash", { command: "npm test" }));
    await f.deny(ask.approval.request_id, "Not on the release branch");
    const denied: any = await f.backend.approval(ask.approval.request_id);
    assert.equal(denied.status, "denied");
    assert.match(denied.reason, /release branch/);
  });
}

/** The policy document the shared cases expect of a backend. */
export const CASE_POLICIES = {
  policies: [{
    id: "case-policy",
    name: "Shared backend cases",
    type: "tool_permission" as const,
    version: 1,
    config: { denied_tools: ["Write"], requires_approval: ["Bash"] },
  }],
};
