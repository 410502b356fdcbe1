/**
 * The policy document (`POLICY__FILE`):
 * `{"compatibility"?: "zentinelle", "policies": [{"id", "name", "type", "version", "config"}]}`.
 * Validated whole before use; every error names the field and what to write.
 * `type` is one of the types in `policy_kinds.ts`. With `"compatibility":
 * "zentinelle"` the document keeps to what Zentinelle itself reads, so the
 * same policies mean the same thing there: Tether's extensions (tool-name
 * patterns) are refused.
 *
 * @module
 */
import { fail, isObject, knownKeys, PolicyFileError } from "./policy_kind.ts";
import { POLICY_KINDS, type PolicyType } from "./policy_kinds.ts";
import type { ToolPermissionConfig } from "./tool_permission.ts";

export { PolicyFileError };
export type { PolicyType, ToolPermissionConfig };
export { parseToolPermissionConfig } from "./tool_permission.ts";

/** One policy. */
export interface Policy {
  id: string;
  name: string;
  type: PolicyType;
  version: number;
  /** The type's config (`ToolPermissionConfig` for `tool_permission`, and so on). */
  // deno-lint-ignore no-explicit-any -- each type reads its own config
  config: Record<string, any>;
  description?: string;
}

/** The whole document. */
export interface PolicyDocument {
  /** `"zentinelle"`: refuse what Zentinelle would not read the same way. */
  compatibility?: "zentinelle";
  policies: Policy[];
}

const TYPES = Object.keys(POLICY_KINDS) as PolicyType[];

/**
 * Validates a parsed document (as given in code, `gate.document`).
 *
 * @example
 * ```ts
 * const doc = checkPolicyDocument({ policies: [] });
 * ```
 */
export function checkPolicyDocument(value: unknown): PolicyDocument {
  if (!isObject(value) || !Array.isArray(value.policies)) {
    fail("policies", 'must be a list: {"policies": [...]}.');
  }
  const extra = Object.keys(value).find((k) => k !== "compatibility" && k !== "policies");
  if (extra) fail(extra, "is not a known field of the policy file; use compatibility or policies.");
  if (value.compatibility !== undefined && value.compatibility !== "zentinelle") {
    fail("compatibility", 'must be "zentinelle" when given.');
  }
  const zentinelle = value.compatibility === "zentinelle";
  const seen = new Set<string>();
  value.policies.forEach((p: unknown, i: number) => {
    const at = `policies[${i}]`;
    if (!isObject(p)) fail(at, "must be an object.");
    knownKeys(p, ["id", "name", "type", "version", "config", "description"], at);
    if (typeof p.id !== "string" || p.id === "") fail(`${at}.id`, "must be a non-empty string.");
    if (seen.has(p.id)) fail(`${at}.id`, `repeats "${p.id}"; ids must be unique.`);
    seen.add(p.id);
    if (typeof p.name !== "string") fail(`${at}.name`, "must be a string.");
    if (!TYPES.includes(p.type as PolicyType)) {
      fail(`${at}.type`, `must be one of ${TYPES.map((t) => `"${t}"`).join(", ")}.`);
    }
    if (!Number.isInteger(p.version) || (p.version as number) < 1) {
      fail(`${at}.version`, "must be a whole number from 1 up.");
    }
    POLICY_KINDS[p.type as PolicyType].parse(p.config, `${at}.config`, { zentinelle });
  });
  return value as unknown as PolicyDocument;
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
  return checkPolicyDocument(value);
}
