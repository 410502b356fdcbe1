import { test } from "node:test";
import assert from "node:assert/strict";
import { PolicyGate, readDecision } from "./gate.ts";
import { fakeZentinelle, refusedUrl } from "./testing/fake_zentinelle.ts";
import { zentinelleBackend } from "./zentinelle_backend.ts";

const call = {
  sessionId: "s1",
  userId: "ann",
  callId: "c1",
  toolName: "Bash",
  input: { command: "ls" },
};

test("the gate sends the contract's body: action, user, harness, session, call, tool and input", async () => {
  const z = await fakeZentinelle();
  try {
    const gate = new PolicyGate(
      zentinelleBackend({ url: z.url, key: z.key, timeoutMs: 2_000 }),
      "anthropic",
    );
    assert.deepEqual(await gate.evaluate({ ...call, chatId: "s1:3", cwd: "/w" }), {
      decision: "allow",
    });
    assert.deepEqual(z.received[0], {
      action: "tool_call",
      user_id: "ann",
      context: {
        harness: "anthropic",
        session_id: "s1",
        chat_id: "s1:3",
        tool_call_id: "c1",
        tool_name: "Bash",
        tool_input: { command: "ls" },
        cwd: "/w",
      },
    });
  } finally {
    await z.close();
  }
});

for (const mode of ["timeout", "unavailable", "garbage", "no_decision"] as const) {
  test(`Zentinelle failing with ${mode} is a denial with a reason`, async () => {
    const z = await fakeZentinelle();
    z.mode = mode;
    try {
      const gate = new PolicyGate(
        zentinelleBackend({ url: z.url, key: z.key, timeoutMs: 200 }),
        "x",
      );
      const d = await gate.evaluate(call);
      assert.equal(d.decision, "deny");
      assert.ok(d.decision === "deny" && d.reason.length > 10);
      if (mode === "unavailable") {
        assert.match((d as { reason: string }).reason, /503.*Policy evaluation unavailable/);
      }
      if (mode === "timeout") assert.match((d as { reason: string }).reason, /200 ms/);
    } finally {
      await z.close();
    }
  });
}

test("a refused connection and a wrong key are denials", async () => {
  const refused = new PolicyGate(
    zentinelleBackend({ url: await refusedUrl(), key: "k", timeoutMs: 2_000 }),
    "x",
  );
  assert.equal((await refused.evaluate(call)).decision, "deny");
  const z = await fakeZentinelle();
  try {
    const wrong = new PolicyGate(
      zentinelleBackend({ url: z.url, key: "sk_wrong", timeoutMs: 2_000 }),
      "x",
    );
    const d = await wrong.evaluate(call);
    assert.ok(d.decision === "deny" && /401/.test(d.reason));
  } finally {
    await z.close();
  }
});

test("answers are read strictly: only a clear allow allows", () => {
  assert.equal(readDecision({ decision: "allow", allowed: true }, false).decision, "allow");
  assert.equal(readDecision({ decision: "allow", allowed: false }, false).decision, "deny");
  assert.equal(readDecision({ allowed: true }, false).decision, "deny");
  assert.equal(readDecision({ decision: "maybe" }, false).decision, "deny");
  assert.equal(readDecision(null, false).decision, "deny");
  assert.equal(
    readDecision({ decision: "ask", allowed: false }, false).decision,
    "deny",
    "ask needs a request",
  );
  const ask = {
    decision: "ask",
    allowed: false,
    reason: "r",
    approval: { request_id: "q", timeout_seconds: 60 },
  };
  assert.equal(readDecision(ask, false).decision, "ask");
  assert.equal(readDecision(ask, true).decision, "deny", "with a token, ask again is a denial");
});
