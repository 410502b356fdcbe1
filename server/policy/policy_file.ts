/**
 * The policy document (`POLICY__FILE`):
 * `{"policies": [{"id", "name", "type": "tool_permission", "version", "config"}]}`.
 * Validated whole before use; every error names the field and what to write.
 *
 * @module
 */
import type { ToolConfig } from "./arguments.ts";

/** The `config` of a `tool_permission` policy. */
export interface ToolPermissionConfig {
  denied_tools?: string[];
  allowed_tools?: string[];
  requires_approval?: string[];
  tool_configs?: Record<string, ToolConfig>;
  /** The approval window in seconds (at most 300 is used). */
  approval_timeout_seconds?: number;
}

/** One policy. */
export interface Policy {
  id: string;
  name: string;
  type: "tool_permission";
  version: number;
  config: ToolPermissionConfig;
}

/** The whole document. */
export interface PolicyDocument {
  policies: Policy[];
}

/** A policy document that breaks the rules; the message names the field. */
export class PolicyFileError extends Error {
  override name = "PolicyFileError";
}

const CONFIG_KEYS = [
  "denied_tools",
  "allowed_tools",
  "requires_approval",
  "tool_configs",
  "approval_timeout_seconds",
];
const RULE_KEYS = ["blocked_commands", "allowed_commands", "allowed_paths", "blocked_paths"];
const MAX_ITEMS = 1_000;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function fail(field: string, what: string): never {
  throw new PolicyFileError(`${field} ${what}`);
}

function strings(value: unknown, field: string, absolute = false): string[] {
  if (!Array.isArray(value) || value.length > MAX_ITEMS) {
    fail(field, `must be a list of at most ${MAX_ITEMS} strings.`);
  }
  value.forEach((s, i) => {
    if (typeof s !== "string" || s === "" || s.length > 4_096) {
      fail(`${field}[${i}]`, "must be a non-empty string of at most 4,096 characters.");
    }
    if (absolute && !s.startsWith("/")) fail(`${field}[${i}]`, 'must be an absolute path ("/…").');
  });
  return value as string[];
}

function unknownKeys(value: Record<string, unknown>, allowed: string[], field: string): void {
  const extra = Object.keys(value).find((k) => !allowed.includes(k));
  if (extra) fail(`${field}.${extra}`, `is not a known field; use one of ${allowed.join(", ")}.`);
}

/**
 * Validates a `tool_permission` config (the conformance file's `policy` objects are such configs).
 *
 * @example
 * ```ts
 * const config = parseToolPermissionConfig({ denied_tools: ["Bash"] }, "config");
 * ```
 */
export function parseToolPermissionConfig(value: unknown, field: string): ToolPermissionConfig {
  if (!isObject(value)) fail(field, "must be an object.");
  unknownKeys(value, CONFIG_KEYS, field);
  for (const key of ["denied_tools", "allowed_tools", "requires_approval"]) {
    if (value[key] !== undefined) strings(value[key], `${field}.${key}`);
  }
  const timeout = value.approval_timeout_seconds;
  if (timeout !== undefined && !(Number.isInteger(timeout) && (timeout as number) > 0)) {
    fail(`${field}.approval_timeout_seconds`, "must be a positive whole number of seconds.");
  }
  if (value.tool_configs !== undefined) {
    if (!isObject(value.tool_configs)) {
      fail(`${field}.tool_configs`, "must map tool names to rules.");
    }
    for (const [tool, rules] of Object.entries(value.tool_configs)) {
      const at = `${field}.tool_configs.${tool}`;
      if (!isObject(rules)) fail(at, "must be an object of rules.");
      unknownKeys(rules, RULE_KEYS, at);
      for (const key of RULE_KEYS) {
        if (rules[key] !== undefined) strings(rules[key], `${at}.${key}`, key.endsWith("_paths"));
      }
    }
  }
  return value as ToolPermissionConfig;
}

/**
 * Parses and validates a policy document from its JSON text.
 *
 * @example
 * ```ts
 * const doc = parsePolicyDocument('{"policies": []}');
 * ```
 */
export function parsePolicyDocument(text: string): PolicyDocument {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    fail("The policy file", `is not valid JSON (${(error as Error).message}).`);
  }
  if (!isObject(value) || !Array.isArray(value.policies)) {
    fail("policies", 'must be a list: {"policies": [...]}.');
  }
  const seen = new Set<string>();
  value.policies.forEach((p: unknown, i: number) => {
    const at = `policies[${i}]`;
    if (!isObject(p)) fail(at, "must be an object.");
    unknownKeys(p, ["id", "name", "type", "version", "config", "description"], at);
    if (typeof p.id !== "string" || p.id === "") fail(`${at}.id`, "must be a non-empty string.");
    if (seen.has(p.id)) fail(`${at}.id`, `repeats "${p.id}"; ids must be unique.`);
    seen.add(p.id);
    if (typeof p.name !== "string") fail(`${at}.name`, "must be a string.");
    if (p.type !== "tool_permission") fail(`${at}.type`, 'must be "tool_permission".');
    if (!Number.isInteger(p.version) || (p.version as number) < 1) {
      fail(`${at}.version`, "must be a whole number from 1 up.");
    }
    parseToolPermissionConfig(p.config, `${at}.config`);
  });
  return value as unknown as PolicyDocument;
}
