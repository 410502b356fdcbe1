/**
 * The gate against Zentinelle (the double rebuilt from Zentinelle's own
 * sources, tests/zentinelle/double.ts), end to end over Socket.IO: the hold
 * released by Zentinelle's approval, the runtime's own timeout, and every
 * failure answer ending in a denial with nothing run.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ask, count, holdRuntime } from "./_hold_kit.ts";
import { refusedUrl, zentinelleDouble } from "../zentinelle/double.ts";

const viaFake = (url: string, key: string, timeoutMs = 2_000) => ({
  backend: "zentinelle" as const,
  zentinelleUrl: url,
  zentinelleKey: key,
  timeoutMs,
});

const commandsNeedApproval = {
  id: "commands",
  name: "Commands need a human",
  policy_type: "tool_permission" as const,
  version: 1,
  config: { requires_approval: ["run_command"] },
};

/** The evaluations of one session (the version probe's are its own). */
const sent = (z: Awaited<ReturnType<typeof zentinelleDouble>>, session: string) =>
  z.received.filter((r) => (r.body.context as { session_id?: string })?.session_id === session);

test("Zentinelle's ask holds the call; its approval and the retry with the token run it", async () => {
  const z = await zentinelleDouble();
  z.policies = [commandsNeedApproval];
  const { rt, clock, runs } = await holdRuntime(viaFake(z.url, z.key));
  try {
    const { c, call } = await ask(rt, "z-approve");
    assert.equal(call.approval.status, "pending");
    assert.equal(call.approval.request_id, [...z.requests.keys()][0]);
    assert.deepEqual(sent(z, "z-approve")[0].body.context, {
      harness: "tether",
      session_id: "z-approve",
      chat_id: "z-approve",
      tool_call_id: call.call_id,
      tool_name: "run_command",
      tool_input: { command: "npm test" },
    });
    assert.equal(sent(z, "z-approve")[0].body.user_id, "local");
    await clock.sleepers();
    z.approve(call.approval.request_id);
    clock.advance(2_000);
    await c.until(() => count(c, "assistant:status", "completed") === 2);
    assert.deepEqual(runs, [{ command: "npm test" }]);
    const retry = sent(z, "z-approve").at(-1)!.body;
    assert.equal(typeof (retry.context as { approval_token?: unknown }).approval_token, "string");
    assert.equal(
      sent(z, "z-approve").length,
      2,
      "one evaluation, one retry: one approval request per held call",
    );
    c.close();
  } finally {
    await rt.close();
    await z.close();
  }
});

test("the runtime's own clock ends a hold Zentinelle never decides: denied, nothing run", async () => {
  const z = await zentinelleDouble();
  z.policies = [commandsNeedApproval];
  const { rt, clock, runs } = await holdRuntime(viaFake(z.url, z.key));
  try {
    const { c } = await ask(rt, "z-timeout");
    await clock.sleepers();
    clock.advance(300_000);
    const error = (await c.until((e) => e.event === "assistant:tool_error")).payload;
    assert.equal(error.policy, "deny");
    assert.match(error.error, /300 seconds/);
    await c.until(() => count(c, "assistant:status", "completed") === 2);
    assert.deepEqual(runs, []);
    c.close();
  } finally {
    await rt.close();
    await z.close();
  }
});

test("every failure answer of Zentinelle is a denial with a reason, and nothing runs", async () => {
  const z = await zentinelleDouble();
  const { rt, runs } = await holdRuntime(viaFake(z.url, z.key, 300));
  try {
    for (const mode of ["timeout", "unavailable", "garbage", "no_decision"] as const) {
      z.failure = mode;
      const { c, call } = await ask(rt, `z-${mode.replace("_", "-")}`);
      assert.equal(call, undefined, `${mode}: no tool_call is announced`);
      const error = c.events.find((e) => e.event === "assistant:tool_error")!.payload;
      assert.equal(error.policy, "deny", mode);
      assert.match(error.error, /policy/i, mode);
      c.close();
    }
    assert.deepEqual(runs, []);
  } finally {
    await rt.close();
    await z.close();
  }
});

test("a refused connection to Zentinelle is a denial, and nothing runs", async () => {
  const { rt, runs } = await holdRuntime(viaFake(await refusedUrl(), "sk_agent_x_0123456789"));
  try {
    const { c } = await ask(rt, "z-refused");
    const error = c.events.find((e) => e.event === "assistant:tool_error")!.payload;
    assert.equal(error.policy, "deny");
    assert.match(error.error, /could not be reached/);
    assert.deepEqual(runs, []);
    c.close();
  } finally {
    await rt.close();
  }
});
