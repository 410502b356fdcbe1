import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parsePolicyDocument, PolicyFileError } from "./policy_file.ts";
import { watchPolicyFile } from "./file_source.ts";

const policy = (config: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    policies: [{ id: "p1", name: "P", type: "tool_permission", version: 1, config, ...extra }],
  });

test("a valid document loads", () => {
  const doc = parsePolicyDocument(policy({
    denied_tools: ["Bash"],
    tool_configs: { Write: { allowed_paths: ["/workspace"] } },
    approval_timeout_seconds: 60,
  }));
  assert.equal(doc.policies[0].config.approval_timeout_seconds, 60);
});

test("every error names the field at fault", () => {
  const cases: [string, RegExp][] = [
    ["{", /not valid JSON/],
    ["{}", /^policies must be a list/],
    [
      policy({}, { type: "opa" }),
      /^policies\[0\]\.type must be one of "tool_permission", "agent_capability", "human_oversight"/,
    ],
    [
      policy({ require_approval: ["tool_call"], denied: [] }, { type: "agent_capability" }),
      /^policies\[0\]\.config\.denied is not a known field/,
    ],
    [
      policy({ require_approval_for: ["always"] }, { type: "human_oversight" }),
      /require_approval_for\[0\] must be one of high_cost/,
    ],
    [JSON.stringify({ compatibility: "opa", policies: [] }), /^compatibility must be "zentinelle"/],
    [
      JSON.stringify({ policies: [], version: 2 }),
      /^version is not a known field of the policy file/,
    ],
    [policy({}, { version: 0 }), /^policies\[0\]\.version/],
    [policy({ denied_tools: "Bash" }), /^policies\[0\]\.config\.denied_tools must be a list/],
    [policy({ denyed_tools: [] }), /^policies\[0\]\.config\.denyed_tools is not a known field/],
    [
      policy({ tool_configs: { Bash: { blocked_commands: [1] } } }),
      /^policies\[0\]\.config\.tool_configs\.Bash\.blocked_commands\[0\]/,
    ],
    [
      policy({ tool_configs: { Write: { allowed_paths: ["src"] } } }),
      /allowed_paths\[0\] must be an absolute path/,
    ],
    [
      policy({ approval_timeout_seconds: 1.5 }),
      /approval_timeout_seconds must be a positive whole number/,
    ],
    [
      JSON.stringify({
        policies: [{ id: "a", name: "A", type: "tool_permission", version: 1, config: {} }, {
          id: "a",
          name: "B",
          type: "tool_permission",
          version: 1,
          config: {},
        }],
      }),
      /^policies\[1\]\.id repeats/,
    ],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => parsePolicyDocument(text),
      (e: Error) => e instanceof PolicyFileError && message.test(e.message),
      text,
    );
  }
});

test("tool-name patterns are Tether's extension: refused in a document that asks for Zentinelle compatibility", () => {
  const doc = (config: unknown) =>
    JSON.stringify({
      compatibility: "zentinelle",
      policies: [{ id: "p1", name: "P", type: "tool_permission", version: 1, config }],
    });
  assert.throws(
    () => parsePolicyDocument(doc({ requires_approval: ["Bash", "mcp__*"] })),
    /policies\[0\]\.config\.requires_approval\[1\] is a pattern \("mcp__\*"\), but Zentinelle matches tool names exactly/,
  );
  assert.equal(
    parsePolicyDocument(doc({ requires_approval: ["Bash"] })).compatibility,
    "zentinelle",
  );
  // Without the flag the same pattern is Tether's glob.
  assert.equal(parsePolicyDocument(policy({ requires_approval: ["mcp__*"] })).policies.length, 1);
  // agent_capability's patterns are Zentinelle's own (fnmatch), so they stay.
  assert.equal(
    parsePolicyDocument(JSON.stringify({
      compatibility: "zentinelle",
      policies: [{
        id: "c",
        name: "C",
        type: "agent_capability",
        version: 1,
        config: { require_approval: ["tool:*"] },
      }],
    })).policies[0].type,
    "agent_capability",
  );
});

test("the policy file reloads without a restart; a bad edit is reported and the last good policies stay", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tether-policy-"));
  const path = join(dir, "policies.json");
  const seen: string[][] = [];
  const errors: string[] = [];
  try {
    await writeFile(path, policy({ denied_tools: ["Bash"] }));
    const file = await watchPolicyFile({
      path,
      intervalMs: 60_000,
      onChange: (doc) => seen.push(doc.policies[0].config.denied_tools ?? []),
      onError: (m) => errors.push(m),
    });
    try {
      assert.deepEqual(file.initial.policies[0].config.denied_tools, ["Bash"]);
      await file.check();
      assert.deepEqual(seen, [], "an unchanged file is not reloaded");
      await writeFile(path, policy({ denied_tools: ["Bash", "Write"] }));
      await file.check();
      assert.deepEqual(seen, [["Bash", "Write"]]);
      await writeFile(path, policy({ denied_tools: "everything" }));
      await file.check();
      await file.check();
      assert.deepEqual(seen, [["Bash", "Write"]], "the bad edit changed nothing");
      assert.equal(errors.length, 1, "reported once");
      assert.match(errors[0], /policies\[0\]\.config\.denied_tools.*last good policies stay/);
    } finally {
      file.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a policy file that is wrong at start stops the start, naming the variable and the field", async () => {
  await assert.rejects(
    watchPolicyFile({
      path: "/nonexistent/policies.json",
      intervalMs: 1_000,
      onChange() {},
      onError() {},
    }),
    /POLICY__FILE \(\/nonexistent\/policies.json\) cannot be read/,
  );
});
