/**
 * The minimum Zentinelle, checked at start, against the Zentinelle double
 * in each of its releases; and the two failures the check keeps out, shown
 * by a client that skips it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { harness } from "../testing/harness.ts";
import { PolicyGate } from "./gate.ts";
import { type Release, zentinelleDouble } from "../../tests/zentinelle/double.ts";
import { zentinelleBackend } from "./zentinelle_backend.ts";
import { probeZentinelle } from "./zentinelle_version.ts";

const viaDouble = (url: string, key: string) => ({
  backend: "zentinelle" as const,
  zentinelleUrl: url,
  zentinelleKey: key,
  timeoutMs: 2_000,
});

const probe = (url: string, key: string) =>
  probeZentinelle(zentinelleBackend({ url, key, timeoutMs: 2_000 }), "tether");

test("a current Zentinelle passes the probe and the runtime starts", async () => {
  const z = await zentinelleDouble();
  try {
    assert.deepEqual(await probe(z.url, z.key), { ok: true });
    const h = harness({ gate: viaDouble(z.url, z.key) });
    await h.app.engine();
    await h.close();
    assert.equal(z.requests.size, 0, "the probe opens no approval request");
    assert.equal(
      z.events.filter((e) =>
        (e.payload.context as { tool_name?: string }).tool_name !== "tether_version_probe"
      ).length,
      0,
      "the probe's one evaluation names itself",
    );
  } finally {
    await z.close();
  }
});

const outdated: [Release, RegExp][] = [
  ["pre-377", /predates the agent-host contract \(#377\).*requires agent_id/],
  [
    "pre-384",
    /without enforcement.*before #384 hold, as ask, calls their argument rules should refuse/,
  ],
];

for (const [release, lacks] of outdated) {
  test(`a ${release} Zentinelle stops the start with an error naming what it lacks`, async () => {
    const z = await zentinelleDouble({ release });
    try {
      const result = await probe(z.url, z.key);
      assert.ok(!result.ok && result.final, JSON.stringify(result));
      assert.match(result.reason, lacks);
      assert.match(result.reason, /upgrade Zentinelle/);
      const h = harness({ gate: viaDouble(z.url, z.key) });
      await assert.rejects(h.app.engine(), (e: Error) => lacks.test(e.message));
    } finally {
      await z.close();
    }
  });
}

test("a key whose endpoint is not an agent host stops the start, saying how to register it", async () => {
  const z = await zentinelleDouble();
  try {
    const key = z.register("claude-hook", "claude_code");
    const result = await probe(z.url, key);
    assert.ok(!result.ok && result.final);
    assert.match(result.reason, /agent_type agent_host/);
  } finally {
    await z.close();
  }
});

test("a refused key stops the start with Zentinelle's own reason", async () => {
  const z = await zentinelleDouble();
  try {
    const result = await probe(z.url, "sk_agent_not_registered");
    assert.ok(!result.ok && result.final);
    assert.match(result.reason, /401: Invalid API key/);
  } finally {
    await z.close();
  }
});

test("an unreachable Zentinelle does not stop the start: calls are refused until it answers", async () => {
  const z = await zentinelleDouble();
  try {
    z.failure = "unavailable";
    const result = await probe(z.url, z.key);
    assert.ok(!result.ok && !result.final, JSON.stringify(result));
    const h = harness({ gate: viaDouble(z.url, z.key) });
    const engine = await h.app.engine();
    const gate = engine.policy!.gate;
    const call = { sessionId: "s", userId: "u", callId: "c", toolName: "Bash", input: {} };
    assert.equal((await gate.evaluate(call)).decision, "deny");
    await h.close();
  } finally {
    await z.close();
  }
});

// What the check keeps out: the same gate without it, against each old release.
const unchecked = (url: string, key: string) => {
  const { probe: _skipped, ...backend } = zentinelleBackend({ url, key, timeoutMs: 2_000 });
  return new PolicyGate(backend, { harness: "tether" });
};

test("without the check, a pre-#377 Zentinelle denies every call", async () => {
  const z = await zentinelleDouble({ release: "pre-377" });
  try {
    const gate = unchecked(z.url, z.key);
    for (const toolName of ["Read", "Bash"]) {
      const d = await gate.evaluate({
        sessionId: "s",
        userId: "u",
        callId: "c",
        toolName,
        input: {},
      });
      assert.equal(d.decision, "deny", toolName);
      assert.match((d as { reason: string }).reason, /agent_id: This field is required/);
    }
  } finally {
    await z.close();
  }
});

test("without the check, a pre-#384 Zentinelle holds as ask a call its argument rules should refuse", async () => {
  const policy = {
    id: "p1",
    name: "Shell with rules",
    policy_type: "tool_permission" as const,
    version: 1,
    config: {
      requires_approval: ["Bash"],
      tool_configs: { Bash: { blocked_commands: ["rm -rf *"] } },
    },
  };
  const call = {
    sessionId: "s",
    userId: "u",
    callId: "c",
    toolName: "Bash",
    input: { command: "rm -rf /" },
  };
  const old = await zentinelleDouble({ release: "pre-384" });
  const current = await zentinelleDouble();
  try {
    old.policies = [policy];
    current.policies = [policy];
    assert.equal((await unchecked(old.url, old.key).evaluate(call)).decision, "ask");
    const d = await unchecked(current.url, current.key).evaluate(call);
    assert.equal(d.decision, "deny", "a current release refuses it outright");
    assert.match((d as { reason: string }).reason, /rm -rf \*/);
  } finally {
    await old.close();
    await current.close();
  }
});
