/**
 * The `tool_permission` policy: denied and allowed tools, tools that need a
 * human's approval, and argument rules per tool (#384). Zentinelle matches
 * tool names exactly; a `*` in a name list is a Tether extension (a glob,
 * `*` matching anything), refused in a document that asks for Zentinelle
 * compatibility. Argument rules come first, so a call its arguments refuse
 * is deny, never ask. Judging is synchronous and pure.
 *
 * @module
 */
import { checkArguments, compileToolRules, type ToolConfig, type ToolRules } from "./arguments.ts";
import { compileGlob, type Glob, matchesAny } from "./glob.ts";
import {
  approvalTimeout,
  fail,
  isObject,
  type Judgement,
  knownKeys,
  type PolicyKind,
  strings,
} from "./policy_kind.ts";

/** The `config` of a `tool_permission` policy. */
export interface ToolPermissionConfig {
  denied_tools?: string[];
  allowed_tools?: string[];
  requires_approval?: string[];
  tool_configs?: Record<string, ToolConfig>;
  /** The approval window in seconds (at most 300 is used). */
  approval_timeout_seconds?: number;
}

const CONFIG_KEYS = [
  "denied_tools",
  "allowed_tools",
  "requires_approval",
  "tool_configs",
  "approval_timeout_seconds",
];
const RULE_KEYS = ["blocked_commands", "allowed_commands", "allowed_paths", "blocked_paths"];
const NAME_LISTS = ["denied_tools", "allowed_tools", "requires_approval"] as const;

/**
 * Validates a `tool_permission` config (the conformance files' `policy` objects are such configs).
 *
 * @example
 * ```ts
 * const config = parseToolPermissionConfig({ denied_tools: ["Bash"] }, "config");
 * ```
 */
export function parseToolPermissionConfig(
  value: unknown,
  field: string,
  options = { zentinelle: false },
): ToolPermissionConfig {
  if (!isObject(value)) fail(field, "must be an object.");
  knownKeys(value, CONFIG_KEYS, field);
  for (const key of NAME_LISTS) {
    if (value[key] === undefined) continue;
    const names = strings(value[key], `${field}.${key}`);
    const glob = names.findIndex((n) => n.includes("*"));
    if (options.zentinelle && glob >= 0) {
      fail(
        `${field}.${key}[${glob}]`,
        `is a pattern ("${
          names[glob]
        }"), but Zentinelle matches tool names exactly; list the names, or drop "compatibility": "zentinelle" to use Tether's patterns.`,
      );
    }
  }
  approvalTimeout(value, field);
  if (value.tool_configs !== undefined) {
    if (!isObject(value.tool_configs)) {
      fail(`${field}.tool_configs`, "must map tool names to rules.");
    }
    for (const [tool, rules] of Object.entries(value.tool_configs)) {
      const at = `${field}.tool_configs.${tool}`;
      if (!isObject(rules)) fail(at, "must be an object of rules.");
      knownKeys(rules, RULE_KEYS, at);
      for (const key of RULE_KEYS) {
        if (rules[key] !== undefined) strings(rules[key], `${at}.${key}`, key.endsWith("_paths"));
      }
    }
  }
  return value as ToolPermissionConfig;
}

interface Compiled {
  denied: Glob[];
  allowed: Glob[] | null;
  allowedNames: string[];
  approval: Glob[];
  rules: Map<string, ToolRules>;
}

function judgeTool(p: Compiled, action: string, context: Record<string, unknown>): Judgement {
  if (action !== "tool_call") return { result: "pass" };
  const name = context.tool_name || context.tool;
  if (typeof name !== "string" || !name) {
    return { result: "deny", message: "The call names no tool, so it cannot be judged." };
  }
  if (matchesAny(p.denied, name)) {
    return { result: "deny", message: `Tool '${name}' is explicitly denied.` };
  }
  if (p.allowed && !matchesAny(p.allowed, name)) {
    return {
      result: "deny",
      message: `Tool '${name}' is not in the allowed list (${p.allowedNames.join(", ")}).`,
    };
  }
  const rules = p.rules.get(name);
  if (rules) {
    const inputs = [context.tool_input, context.tool_args].filter((v) => v !== undefined);
    for (const input of inputs.length ? inputs : [{}]) {
      const refusal = checkArguments(rules, name, input, context.cwd);
      if (refusal) return { result: "deny", message: refusal };
    }
  }
  if (matchesAny(p.approval, name)) {
    return {
      result: "ask",
      message: `Tool '${name}' requires approval. Request approval before proceeding.`,
    };
  }
  return { result: "pass" };
}

/** The `tool_permission` type. */
export const toolPermission: PolicyKind<ToolPermissionConfig> = {
  parse: parseToolPermissionConfig,
  compile(c) {
    const compiled: Compiled = {
      denied: (c.denied_tools ?? []).map(compileGlob),
      allowed: c.allowed_tools?.length ? c.allowed_tools.map(compileGlob) : null,
      allowedNames: c.allowed_tools ?? [],
      approval: (c.requires_approval ?? []).map(compileGlob),
      rules: new Map(
        Object.entries(c.tool_configs ?? {}).map(([t, r]) => [t, compileToolRules(r)]),
      ),
    };
    return (call) => judgeTool(compiled, call.action, call.context);
  },
};
