import { test } from "node:test";
import assert from "node:assert/strict";
import { fitId, PolicyGate, readDecision } from "./gate.ts";
import { refusedUrl, zentinelleDouble } from "../../tests/zentinelle/double.ts";
import { zentinelleBackend } from "./zentinelle_backend.ts";

const call = {
  sessionId: "s1",
  userId: "ann",
  callId: "c1",
  toolName: "Bash",
  input: { command: "ls" },
};

const client = (url: string, key: string, timeoutMs = 2_000) =>
  zentinelleBackend({ url, key, timeoutMs, harness: "tether" });

test("the gate sends the contract's body: action, user, the host's harness, session, call, tool, input, cwd", async () => {
  const z = await zentinelleDouble();
  try {
    const gate = new PolicyGate(client(z.url, z.key), { harness: "tether", cwd: "/workspace" });
    assert.deepEqual(await gate.evaluate({ ...call, chatId: "s1:3" }), { decision: "allow" });
    const sent = z.received.find((r) =>
      (r.body.context as { session_id: string }).session_id === "s1"
    );
    assert.deepEqual(sent?.body, {
      action: "tool_call",
      user_id: "ann",
      context: {
        harness: "tether",
        session_id: "s1",
        chat_id: "s1:3",
        tool_call_id: "c1",
        tool_name: "Bash",
        tool_input: { command: "ls" },
        cwd: "/workspace",
      },
    });
  } finally {
    await z.close();
  }
});

test("identifiers over 255 characters go out shortened but stable; a tool name that long is refused here", async () => {
  const z = await zentinelleDouble();
  try {
    const gate = new PolicyGate(client(z.url, z.key), { harness: "tether" });
    const long = `user-${"x".repeat(400)}`;
    assert.deepEqual(await gate.evaluate({ ...call, userId: long, callId: long }), {
      decision: "allow",
    });
    const sent = z.received.at(-1)!.body as { user_id: string; context: { tool_call_id: string } };
    assert.ok(sent.user_id.length <= 255, "Zentinelle takes up to 255 characters");
    assert.equal(sent.user_id, await fitId(long), "the same user always reads the same");
    assert.ok(sent.user_id.startsWith(long.slice(0, 200)));
    assert.notEqual(await fitId(`${long}y`), sent.user_id, "two users never share a shortened id");
    assert.ok(sent.context.tool_call_id.length <= 255);
    const before = z.received.length;
    const refused = await gate.evaluate({ ...call, toolName: "t".repeat(256) });
    assert.equal(refused.decision, "deny");
    assert.match((refused as { reason: string }).reason, /255 characters/);
    assert.equal(z.received.length, before, "nothing is sent for it");
  } finally {
    await z.close();
  }
});

for (const failure of ["timeout", "unavailable", "garbage", "no_decision"] as const) {
  test(`Zentinelle failing with ${failure} is a denial with a reason`, async () => {
    const z = await zentinelleDouble();
    try {
      const gate = new PolicyGate(client(z.url, z.key, 300), { harness: "tether" });
      assert.equal((await gate.probe()).ok, true);
      z.failure = failure;
      const d = await gate.evaluate(call);
      assert.equal(d.decision, "deny");
      assert.ok(d.decision === "deny" && d.reason.length > 10);
      if (failure === "unavailable") {
        assert.match((d as { reason: string }).reason, /503.*Policy evaluation unavailable/);
      }
      if (failure === "timeout") assert.match((d as { reason: string }).reason, /300 ms/);
    } finally {
      await z.close();
    }
  });
}

test("a refused connection and a wrong key are denials, the key's with Zentinelle's own reason", async () => {
  const refused = new PolicyGate(client(await refusedUrl(), "sk_agent_x"), { harness: "tether" });
  assert.equal((await refused.evaluate(call)).decision, "deny");
  const z = await zentinelleDouble();
  try {
    for (
      const [key, said] of [["sk_wrong", /Invalid API key format/], [
        "sk_agent_nobody",
        /Invalid API key/,
      ]] as const
    ) {
      const d = await new PolicyGate(client(z.url, key), { harness: "tether" }).evaluate(call);
      assert.ok(
        d.decision === "deny" && /401/.test(d.reason) && said.test(d.reason),
        JSON.stringify(d),
      );
    }
  } finally {
    await z.close();
  }
});

test("a probe that could not reach the service is tried again, not trusted", async () => {
  let now = 0;
  const z = await zentinelleDouble();
  try {
    z.failure = "unavailable";
    const gate = new PolicyGate(client(z.url, z.key), { harness: "tether", now: () => now });
    const first = await gate.evaluate(call);
    assert.ok(first.decision === "deny" && /cannot be used/.test(first.reason));
    z.failure = "none";
    assert.equal((await gate.evaluate(call)).decision, "deny", "within 30 s the failure stands");
    now += 30_000;
    assert.equal((await gate.evaluate(call)).decision, "allow", "then the probe runs again");
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
