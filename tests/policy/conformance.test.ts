/**
 * Every case of the policy conformance vectors (tests/conformance/policy.json),
 * for the embedded engine in process and through Tether's own
 * `POST /api/zentinelle/v1/evaluate`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { memoryStore } from "../../server/kv/memory.ts";
import { LocalPolicyEngine } from "../../server/policy/local_engine.ts";
import { parseToolPermissionConfig } from "../../server/policy/policy_file.ts";
import type { EvaluateBody } from "../../server/policy/contract.ts";
import { startNode } from "../../server/runtime/node.ts";

interface Case {
  name: string;
  tool_name: string;
  tool_input?: unknown;
  tool_args?: unknown;
  cwd?: string;
  expect: "allow" | "deny" | "ask";
}
interface Suite {
  policy: unknown;
  cases: Case[];
}

const vectors = JSON.parse(
  readFileSync(new URL("../conformance/policy.json", import.meta.url), "utf8"),
) as { suites: Suite[] };

/** The policy document of a suite: its `policy` is one tool_permission config. */
export function documentOf(suite: Suite, index: number) {
  return {
    policies: [{
      id: `conformance-${index}`,
      name: `Conformance suite ${index}`,
      type: "tool_permission" as const,
      version: 1,
      config: parseToolPermissionConfig(suite.policy, `suites[${index}].policy`),
    }],
  };
}

/** The evaluation body of a case. */
export function bodyOf(c: Case, i: number): EvaluateBody {
  return {
    action: "tool_call",
    user_id: "dev@example.com",
    context: {
      harness: "conformance",
      session_id: "conformance-session",
      tool_call_id: `call-${i}`,
      tool_name: c.tool_name,
      ...(c.tool_input !== undefined ? { tool_input: c.tool_input } : {}),
      ...(c.tool_args !== undefined ? { tool_args: c.tool_args } : {}),
      ...(c.cwd !== undefined ? { cwd: c.cwd } : {}),
    },
  };
}

test("the conformance file has cases for allow, deny and ask", () => {
  const expects = new Set(vectors.suites.flatMap((s) => s.cases.map((c) => c.expect)));
  assert.deepEqual([...expects].sort(), ["allow", "ask", "deny"]);
});

vectors.suites.forEach((suite, s) => {
  test(`conformance suite ${s}: every case in process`, async () => {
    const engine = new LocalPolicyEngine({
      store: memoryStore(),
      policies: documentOf(suite, s),
      log: () => {},
    });
    const wrong: string[] = [];
    for (const [i, c] of suite.cases.entries()) {
      const answer = await engine.evaluate(bodyOf(c, i), "conformance-agent");
      if (answer.decision !== c.expect) {
        wrong.push(`${c.name}: expected ${c.expect}, got ${answer.decision} (${answer.reason})`);
      }
      assert.equal(answer.allowed, answer.decision === "allow");
    }
    assert.deepEqual(wrong, []);
  });
});

vectors.suites.forEach((suite, s) => {
  test(`conformance suite ${s}: every case through POST /api/zentinelle/v1/evaluate`, async () => {
    const key = "sk_agent_conformance_0123456789";
    const rt = await startNode({
      port: 0,
      socketIo: false,
      env: { STORE__URL: "memory:", MODEL__DEFAULT: "offline" },
      gate: { document: documentOf(suite, s), agentKeys: { [key]: "conformance-agent" } },
      warn: () => {},
    });
    try {
      const wrong: string[] = [];
      for (const [i, c] of suite.cases.entries()) {
        const res = await fetch(`${rt.url}/api/zentinelle/v1/evaluate`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-zentinelle-key": key },
          body: JSON.stringify(bodyOf(c, i)),
        });
        assert.equal(res.status, 200, c.name);
        const answer = await res.json();
        if (answer.decision !== c.expect) {
          wrong.push(`${c.name}: expected ${c.expect}, got ${answer.decision} (${answer.reason})`);
        }
        assert.equal(answer.allowed, answer.decision === "allow");
        assert.equal(answer.contract_version, "1");
        assert.equal(answer.policies_evaluated[0].id, `conformance-${s}`);
        if (c.expect === "ask") assert.equal(answer.approval.status, "pending");
      }
      assert.deepEqual(wrong, []);
    } finally {
      await rt.close();
    }
  });
});
