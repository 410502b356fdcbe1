/**
 * What a policy type is to the embedded engine: how its `config` is checked
 * when the policy file loads, and how a compiled policy judges a call. The
 * types themselves (`tool_permission`, `agent_capability`,
 * `human_oversight`) are one file each, listed in `policy_kinds.ts`.
 *
 * @module
 */

/** A call as every policy type sees it: the canonical action, the user and the context as sent. */
export interface JudgedCall {
  action: string;
  userId: string | null;
  context: Record<string, unknown>;
}

/**
 * How one policy of the embedded engine judged a call: pass (no objection, the next
 * policy judges), a refusal (deny), or a missing human approval (ask). The engine folds
 * them into one answer of the allow/deny/ask family (`protocol/verdict.ts`).
 */
export type Judgement =
  | { result: "pass" }
  | { result: "deny"; message: string }
  | { result: "ask"; message: string };

/** How the policy file was written: Zentinelle-compatible files refuse Tether's extensions. */
export interface ParseOptions {
  /** `"compatibility": "zentinelle"` at the top of the document. */
  zentinelle: boolean;
}

/**
 * A policy type.
 *
 * @example
 * ```ts
 * const kind: PolicyKind<{ denied: string[] }> = {
 *   parse: (value, field) => value as { denied: string[] },
 *   compile: (config) => (call) => config.denied.includes(call.action) ? { result: "deny", message: "No." } : { result: "pass" },
 * };
 * ```
 */
export interface PolicyKind<C> {
  /** Validates a `config`; throws `PolicyFileError` naming the field at fault. */
  parse(value: unknown, field: string, options: ParseOptions): C;
  /** Compiles a validated config once per load. */
  compile(config: C, name: string): (call: JudgedCall) => Judgement;
}

/** A policy document that breaks the rules; the message names the field. */
export class PolicyFileError extends Error {
  override name = "PolicyFileError";
}

/** Throws a `PolicyFileError` for a field. */
export function fail(field: string, what: string): never {
  throw new PolicyFileError(`${field} ${what}`);
}

/** Whether a value is a plain object. */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const MAX_ITEMS = 1_000;

/**
 * A list of non-empty strings (at most 1,000, each at most 4,096 characters).
 *
 * @example
 * ```ts
 * strings(["Bash"], "config.denied_tools"); // ["Bash"]
 * ```
 */
export function strings(value: unknown, field: string, absolute = false): string[] {
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

/** Refuses a key the config does not know, naming it and the keys it does. */
export function knownKeys(value: Record<string, unknown>, allowed: string[], field: string): void {
  const extra = Object.keys(value).find((k) => !allowed.includes(k));
  if (extra) fail(`${field}.${extra}`, `is not a known field; use one of ${allowed.join(", ")}.`);
}

/** Checks `approval_timeout_seconds`, which every type may carry: a positive whole number. */
export function approvalTimeout(value: Record<string, unknown>, field: string): void {
  const timeout = value.approval_timeout_seconds;
  if (timeout !== undefined && !(Number.isInteger(timeout) && (timeout as number) > 0)) {
    fail(`${field}.approval_timeout_seconds`, "must be a positive whole number of seconds.");
  }
}
