import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError, optionsFromEnv } from "../env.ts";
import { harness } from "../testing/harness.ts";
import { resolvePolicyOptions } from "./options.ts";

test("POLICY__* variables map onto the gate's options", () => {
  const options = optionsFromEnv({
    POLICY__BACKEND: "zentinelle",
    POLICY__ZENTINELLE_URL: "http://127.0.0.1:9",
    POLICY__ZENTINELLE_KEY: "sk_agent_abc",
    POLICY__TIMEOUT_MS: "750",
    POLICY__HARNESS: "my-host",
    POLICY__CWD: "/workspace",
    POLICY__CONTENT_CAPTURE: "full",
    POLICY__AGENT_KEYS: '{"sk_agent_0123456789abcdef":"agent-a"}',
    POLICY__FILE: "policies.json",
  });
  assert.deepEqual(options.gate, {
    backend: "zentinelle",
    zentinelleUrl: "http://127.0.0.1:9",
    zentinelleKey: "sk_agent_abc",
    timeoutMs: 750,
    harness: "my-host",
    cwd: "/workspace",
    contentCapture: "full",
    agentKeys: { sk_agent_0123456789abcdef: "agent-a" },
    file: "policies.json",
  });
});

test("a malformed POLICY__ variable is a ConfigError naming it", () => {
  for (
    const [name, value] of [
      ["POLICY__BACKEND", "opa"],
      ["POLICY__TIMEOUT_MS", "soon"],
      ["POLICY__HARNESS", "Claude Code"],
      ["POLICY__CWD", "workspace"],
      ["POLICY__CONTENT_CAPTURE", "everything"],
      ["POLICY__AGENT_KEYS", "[]"],
      ["POLICY__AGENT_KEYS", '{"short":"a"}'],
      ["POLICY__AGENT_KEYS", '{"not_an_agent_key_0123456789":"a"}'],
      ["POLICY__ZENTINELLE_URL", "zentinelle"],
    ]
  ) {
    assert.throws(
      () => optionsFromEnv({ [name]: value }),
      (e: Error) => e instanceof ConfigError && e.message.includes(name),
      `${name}=${value}`,
    );
  }
});

test("zentinelle without its URL and key stops the start", async () => {
  const h = harness({ gate: { backend: "zentinelle" } });
  await assert.rejects(h.app.engine(), /POLICY__ZENTINELLE_URL and POLICY__ZENTINELLE_KEY/);
});

test("the harness is the agent host's own slug by default, and capture is full (approvers see input)", () => {
  const options = resolvePolicyOptions();
  assert.equal(options.harness, "tether");
  assert.equal(options.contentCapture, "full");
  assert.equal(options.cwd, undefined, "no working directory is claimed unless configured");
});
