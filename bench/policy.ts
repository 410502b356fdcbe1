/**
 * The embedded policy engine's speed: evaluations per second and the p50/p99
 * latency of one evaluation, on one core, over a mix of shell commands
 * (pipes, `sh -c`, substitutions, blocked tails) and paths (relative,
 * `..`, apply_patch headers), every call allowed or denied by argument rules.
 *
 * @module
 */
import { memoryStore } from "../server/kv/memory.ts";
import type { EvaluateBody } from "../server/policy/contract.ts";
import { LocalPolicyEngine } from "../server/policy/local_engine.ts";
import { percentile, table } from "./_stats.ts";

const POLICIES = {
  policies: [{
    id: "bench",
    name: "Bench",
    type: "tool_permission" as const,
    version: 1,
    config: {
      denied_tools: ["WebFetch", "mcp__prod__*"],
      tool_configs: {
        Bash: {
          blocked_commands: ["rm -rf *", "curl *", "* | sh", "sudo *", "git push --force*"],
          allowed_commands: [
            "npm test",
            "npm run *",
            "ls*",
            "git status",
            "git diff*",
            "cat *",
            "grep *",
            "wc *",
          ],
        },
        Write: {
          allowed_paths: ["/workspace"],
          blocked_paths: ["/workspace/.git", "/workspace/secrets"],
        },
        apply_patch: { allowed_paths: ["/workspace"] },
      },
    },
  }],
};

const PATCH =
  "*** Begin Patch\n*** Update File: src/app.ts\n@@\n-a\n+b\n*** Add File: test/app.test.ts\n+x\n*** End Patch";

const INPUTS: [string, Record<string, unknown>][] = [
  ["Bash", { command: "npm test" }],
  ["Bash", { command: "npm run build && npm run lint" }],
  ["Bash", { command: "git diff HEAD~1 -- src | grep -n TODO | wc -l" }],
  ["Bash", { command: "sh -c 'npm test && rm -rf /'" }],
  ["Bash", { command: 'bash -lc "ls -la; cat package.json"' }],
  ["Bash", { command: "npm run $(whoami)" }],
  ["Bash", { command: "sudo rm -rf /var/lib" }],
  ["Bash", { command: "cat <<EOF\nhello\nEOF" }],
  ["Bash", { cmd: ["git", "status"] }],
  ["Bash", { command: "ls src && git status; npm run test -- --watch=false 2>&1" }],
  ["Write", { file_path: "/workspace/src/a.ts" }],
  ["Write", { file_path: "src/../../etc/passwd", cwd: "/workspace" }],
  ["Write", { file_path: "/workspace/.git/config" }],
  ["Write", { paths: ["/workspace/a", "/workspace/b/c", "/workspace/secrets/key"] }],
  ["apply_patch", { input: PATCH, workdir: "/workspace" }],
  ["Read", { file_path: "/etc/hosts" }],
  ["WebFetch", { url: "https://example.com" }],
];

const bodies: EvaluateBody[] = INPUTS.map(([tool, input], i) => ({
  action: "tool_call",
  user_id: "bench",
  context: {
    harness: "bench",
    session_id: "bench",
    tool_call_id: `c${i}`,
    tool_name: tool,
    tool_input: input,
  },
}));

/**
 * Prints evaluations per second and latency percentiles.
 *
 * @example
 * ```ts
 * await benchPolicy();
 * ```
 */
export async function benchPolicy(): Promise<void> {
  const engine = new LocalPolicyEngine({ store: memoryStore(), policies: POLICIES, log: () => {} });
  const decisions = new Map<string, number>();
  for (let i = 0; i < 5_000; i++) await engine.evaluate(bodies[i % bodies.length], "bench");
  const n = 200_000;
  const times = new Float64Array(n);
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const answer = await engine.evaluate(bodies[i % bodies.length], "bench");
    times[i] = performance.now() - t;
    decisions.set(answer.decision, (decisions.get(answer.decision) ?? 0) + 1);
  }
  const seconds = (performance.now() - started) / 1000;
  const list = Array.from(times);
  console.log(`\n## Policy engine (local, one core; ${bodies.length} calls in rotation)\n`);
  table(["evaluations", "per second", "p50", "p99", "allow / deny"], [[
    n,
    Math.round(n / seconds).toLocaleString("en"),
    `${(percentile(list, 50) * 1000).toFixed(1)} µs`,
    `${(percentile(list, 99) * 1000).toFixed(1)} µs`,
    `${decisions.get("allow") ?? 0} / ${decisions.get("deny") ?? 0}`,
  ]]);
}
