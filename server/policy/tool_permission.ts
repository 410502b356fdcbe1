/**
 * The `tool_permission` policy: denied and allowed tools, tools that need a
 * human's approval, and argument rules per tool. Judging is synchronous and
 * pure; approvals are the engine's business.
 *
 * @module
 */
import { checkArguments, compileToolRules, type ToolRules } from "./arguments.ts";
import type { ToolCallContext } from "./contract.ts";
import { compileGlob, type Glob, matchesAny } from "./glob.ts";
import type { Policy } from "./policy_file.ts";

/** A policy compiled once per load. */
export interface CompiledPolicy {
  policy: Policy;
  denied: Glob[];
  allowed: Glob[] | null;
  approval: Glob[];
  rules: Map<string, ToolRules>;
}

/** How one policy judged a call: pass, a refusal (deny), or a missing approval (ask). */
export type Verdict =
  | { result: "pass" }
  | { result: "deny"; message: string }
  | { result: "ask"; message: string };

/**
 * Compiles a policy's tool lists and rules.
 *
 * @example
 * ```ts
 * const compiled = compilePolicy({ id: "p", name: "P", type: "tool_permission", version: 1, config: { denied_tools: ["Bash"] } });
 * ```
 */
export function compilePolicy(policy: Policy): CompiledPolicy {
  const c = policy.config;
  return {
    policy,
    denied: (c.denied_tools ?? []).map(compileGlob),
    allowed: c.allowed_tools ? c.allowed_tools.map(compileGlob) : null,
    approval: (c.requires_approval ?? []).map(compileGlob),
    rules: new Map(Object.entries(c.tool_configs ?? {}).map(([t, r]) => [t, compileToolRules(r)])),
  };
}

/**
 * Judges one call under one policy.
 *
 * @example
 * ```ts
 * judge(compiled, { harness: "claude", session_id: "s", tool_name: "Bash", tool_input: { command: "ls" } });
 * ```
 */
export function judge(p: CompiledPolicy, context: ToolCallContext): Verdict {
  const tool = context.tool_name;
  if (matchesAny(p.denied, tool)) {
    return { result: "deny", message: `Tool '${tool}' is explicitly denied.` };
  }
  if (p.allowed && !matchesAny(p.allowed, tool)) {
    return { result: "deny", message: `Tool '${tool}' is not among the allowed tools.` };
  }
  const rules = p.rules.get(tool);
  if (rules) {
    const inputs = [context.tool_input, context.tool_args].filter((v) => v !== undefined);
    for (const input of inputs.length ? inputs : [{}]) {
      const refusal = checkArguments(rules, tool, input, context.cwd);
      if (refusal) return { result: "deny", message: refusal };
    }
  }
  if (matchesAny(p.approval, tool)) {
    return {
      result: "ask",
      message: `Tool '${tool}' requires approval. Request approval before proceeding.`,
    };
  }
  return { result: "pass" };
}
