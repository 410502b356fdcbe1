// Whether POLICY__FILE was read shows at start (one log line) and in /health.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { harness } from "../testing/harness.ts";
import type { PolicyDocument } from "./policy_file.ts";

const DOC: PolicyDocument = {
  policies: [{
    id: "dev",
    name: "Developer machine",
    type: "tool_permission",
    version: 1,
    config: { requires_approval: ["select_issue"] },
  }],
};

test("a loaded policy file is logged at start and reported by /health", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-policy-status-"));
  const file = join(dir, "policy.json");
  await writeFile(file, JSON.stringify(DOC));
  const h = harness({ gate: { file, reloadMs: 60_000 } });
  try {
    const health = await h.call("GET", "/health");
    assert.deepEqual(health.body.policy, { backend: "local", source: "file", policies: 1 });
    const loaded = h.warnings.map((line) => JSON.parse(line)).filter((l) =>
      l.msg === "policy file loaded"
    );
    assert.equal(loaded.length, 1, h.warnings.join("\n"));
    assert.equal(loaded[0].file, file);
    assert.equal(loaded[0].policies, 1);
  } finally {
    await h.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("without a policy file /health says every call is allowed, and in-code policies are counted", async () => {
  const none = harness();
  const inCode = harness({ gate: { document: DOC } });
  try {
    assert.deepEqual((await none.call("GET", "/health")).body.policy, {
      backend: "local",
      source: "none",
      policies: 0,
    });
    assert.deepEqual((await inCode.call("GET", "/health")).body.policy, {
      backend: "local",
      source: "options",
      policies: 1,
    });
    assert.ok(!none.warnings.some((line) => line.includes("policy file loaded")));
  } finally {
    await none.close();
    await inCode.close();
  }
});
