/**
 * The double's policy engine, ported from Zentinelle's
 * `services/policy_engine.py`, `services/approvals.py` and the evaluators
 * (`tool_permission.py`, `agent_capability.py`, `human_oversight.py`) as
 * the stored sources show them, for three releases:
 *
 * - `current` (#415): argument rules (#384) judged before approval, `ask`
 *   for approval-only failures, `enforcement` (#396);
 * - `pre-384` (#377): `ask` and the hold, but `requires_approval` checked
 *   before `tool_configs`, and `tool_configs` read only for `execute_sql`
 *   (`read_only`) and `read_file`/`write_file`/`delete_file` (path prefixes
 *   of `tool_args.path`);
 * - `pre-377`: no `ask`; a call needing approval is denied.
 *
 * Every policy is evaluated; the reason is the last enforced failure's
 * message, as in Zentinelle. The #384 command and path rules are the one
 * part not ported: the stored sources hold the contract's text of them but
 * not their code, so the double borrows Tether's reading of that text
 * (`server/policy/arguments.ts`), and the argument-rule vectors in
 * tests/conformance/ are what pins that reading down.
 *
 * @module
 */
import { checkArguments, compileToolRules } from "../../server/policy/arguments.ts";
import { compileFnmatch, fnmatch } from "../../server/policy/fnmatch.ts";

/** Which Zentinelle the double behaves like. */
export type Release = "current" | "pre-384" | "pre-377";

/** A policy as Zentinelle stores it. */
export interface DoublePolicy {
  id: string;
  name: string;
  policy_type: "tool_permission" | "agent_capability" | "human_oversight";
  version: number;
  config: Record<string, unknown>;
  enforcement?: "enforce" | "audit" | "disabled";
  priority?: number;
}

/** A granted approval (`ExecutionApproval`). */
export interface Grant {
  id: string;
  tenant_id: string;
  subject: string;
  action: string;
  digest: string;
  endpoint: string;
  policy_versions: Record<string, number>;
  created_at: number;
  expires_at: number;
  consumed_at?: number;
}

/** One policy's result. */
interface Result {
  passed: boolean;
  message?: string;
  approvalRequired?: boolean;
}

/** What an evaluation produced. */
export interface Evaluation {
  allowed: boolean;
  reason: string | null;
  policies_evaluated: Record<string, unknown>[];
  warnings: string[];
  context: Record<string, unknown>;
  coverage: Record<string, unknown>;
  approval_required: boolean;
  /** The decided action (#396): the strongest failing rule's. */
  enforcement: Record<string, unknown>;
}

/** What validating an approval needs from the double. */
export interface GrantBook {
  find(token: unknown, match: Omit<Grant, "id" | "created_at" | "expires_at" | "policy_versions">):
    | Grant
    | null;
  consume(ids: string[], tenant: string): boolean;
  now(): number;
}

const canonical = (v: unknown): string => {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${
      Object.keys(v).sort().map((k) =>
        `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`
      ).join(",")
    }}`;
  }
  return JSON.stringify(v);
};

/** `context_digest`: SHA-256 of the context's canonical JSON, without the fields a retry may change. */
export async function contextDigest(context: Record<string, unknown>): Promise<string> {
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(context)) {
    if (!k.startsWith("_") && !["approval_token", "request_id", "trace_id"].includes(k)) {
      kept[k] = v;
    }
  }
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical(kept)));
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** `approval_timeout`: the shortest window of the effective policies, 1 to 300 seconds. */
export function approvalTimeout(policies: DoublePolicy[]): number {
  const windows = policies.map((p) => Number(p.config.approval_timeout_seconds ?? 300));
  return Math.max(1, Math.min(300, ...windows));
}

function validateApproval(
  policy: DoublePolicy,
  action: string,
  userId: string | null,
  context: Record<string, unknown>,
  book: GrantBook,
): Result {
  const grant = book.find(context.approval_token, {
    tenant_id: String(context._tenant_id),
    subject: userId ?? "",
    action,
    digest: String(context._approval_digest),
    endpoint: String(context._endpoint_id),
  });
  if (!grant || grant.policy_versions[policy.id] !== policy.version) {
    return {
      passed: false,
      message: "A current approval for this identity and exact action is required",
    };
  }
  const window = Number(policy.config.approval_timeout_seconds ?? 300);
  if ((book.now() - grant.created_at) / 1000 > window) {
    return { passed: false, message: "Approval has expired" };
  }
  const ids = (context._validated_approval_ids ??= []) as string[];
  if (!ids.includes(grant.id)) ids.push(grant.id);
  return { passed: true };
}

/** What an evaluator judges: the release, the policy, the call, and the approvals. */
interface Judging {
  release: Release;
  policy: DoublePolicy;
  action: string;
  userId: string | null;
  context: Record<string, unknown>;
  book: GrantBook;
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

function toolPermission(
  { release, policy, action, userId, context, book }: Judging,
): Result {
  const config = policy.config;
  if (action !== "tool_call") return { passed: true };
  const tool = release === "pre-377" ? context.tool_name : (context.tool_name || context.tool);
  if (!tool) {
    return release === "pre-377"
      ? { passed: true }
      : { passed: false, message: "Tool name is required" };
  }
  const name = String(tool);
  if (list(config.denied_tools).includes(name)) {
    return { passed: false, message: `Tool '${name}' is explicitly denied` };
  }
  const allowed = list(config.allowed_tools);
  if (allowed.length && !allowed.includes(name)) {
    return {
      passed: false,
      message: `Tool '${name}' is not in allowed list. Allowed: ${allowed.join(", ")}`,
    };
  }
  const configs = (config.tool_configs ?? {}) as Record<string, Record<string, unknown>>;
  const rules = configs[name];
  if (release === "current" && rules) {
    // #384: the argument rules come first, so a call they refuse is never held.
    const compiled = compileToolRules(rules as never);
    const inputs = [context.tool_input, context.tool_args].filter((v) => v !== undefined);
    for (const input of inputs.length ? inputs : [{}]) {
      const refusal = checkArguments(compiled, name, input, context.cwd);
      if (refusal) return { passed: false, message: refusal };
    }
  }
  if (list(config.requires_approval).includes(name)) {
    if (!context.approval_token) {
      return {
        passed: false,
        message: `Tool '${name}' requires approval. Request approval before proceeding.`,
        approvalRequired: release !== "pre-377",
      };
    }
    if (release === "pre-377") {
      return { passed: false, message: "Invalid approval token. Please request proper approval." };
    }
    const checked = validateApproval(policy, action, userId, context, book);
    if (!checked.passed) return checked;
  }
  if (release !== "current" && rules) return legacyToolArgs(name, rules, context.tool_args);
  return { passed: true };
}

/** The validators before #384: SQL read-only and file path prefixes of `tool_args`. */
function legacyToolArgs(name: string, rules: Record<string, unknown>, raw: unknown): Result {
  const args = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  if (name === "execute_sql") {
    const query = String(args.query ?? "").toUpperCase();
    if (rules.read_only) {
      for (const word of ["INSERT", "UPDATE", "DELETE", "DROP", "CREATE", "ALTER", "TRUNCATE"]) {
        if (query.includes(word)) {
          return {
            passed: false,
            message: `SQL query contains '${word}' but database is read-only`,
          };
        }
      }
    }
    return { passed: true };
  }
  if (["read_file", "write_file", "delete_file"].includes(name)) {
    const path = String(args.path ?? "");
    const allowed = list(rules.allowed_paths);
    if (allowed.length && !allowed.some((p) => path.startsWith(p))) {
      return { passed: false, message: `File path '${path}' is not in allowed paths` };
    }
    if (list(rules.blocked_paths).some((p) => path.startsWith(p))) {
      return { passed: false, message: `File path '${path}' is in blocked paths` };
    }
  }
  return { passed: true };
}

function agentCapability(
  { release, policy, action, userId, context, book }: Judging,
): Result {
  const acted = typeof context.action === "string" ? context.action : action;
  const matches = (key: string) =>
    list(policy.config[key]).some((p) => fnmatch(compileFnmatch(p), acted));
  if (matches("denied_actions")) {
    return {
      passed: false,
      message: `Action '${acted}' is explicitly denied by policy '${policy.name}'`,
    };
  }
  if (matches("require_approval")) {
    if (!context.approval_token) {
      return {
        passed: false,
        message:
          `Action '${acted}' requires human approval. Provide a valid approval_token to proceed.`,
        approvalRequired: release !== "pre-377",
      };
    }
    if (release === "pre-377") {
      return { passed: false, message: "Invalid approval token. Please request proper approval." };
    }
    const checked = validateApproval(policy, action, userId, context, book);
    if (!checked.passed) return checked;
  }
  const allowed = list(policy.config.allowed_actions);
  if (allowed.length && !matches("allowed_actions")) {
    return {
      passed: false,
      message: `Action '${acted}' is not in the allowed actions list. Allowed: ${
        allowed.join(", ")
      }`,
    };
  }
  return { passed: true };
}

function humanOversight(
  { release, policy, action, userId, context, book }: Judging,
): Result {
  const config = policy.config;
  const cost = typeof context.estimated_cost_usd === "number"
    ? context.estimated_cost_usd
    : undefined;
  const floor = config.auto_approve_below_cost_usd;
  if (typeof floor === "number" && cost !== undefined && cost < floor) return { passed: true };
  if (context.approval_token && release !== "pre-377") {
    if (validateApproval(policy, action, userId, context, book).passed) return { passed: true };
  }
  const wanted = list(config.require_approval_for);
  const triggered: string[] = [];
  if (wanted.includes("high_cost") && cost !== undefined && cost > 1) {
    triggered.push(`high_cost (estimated $${cost.toFixed(4)} > $1.00)`);
  }
  if (wanted.includes("sensitive_data") && context.has_sensitive_data) {
    triggered.push("sensitive_data");
  }
  if (wanted.includes("external_calls") && context.is_external_call) {
    triggered.push("external_calls");
  }
  if (!triggered.length) return { passed: true };
  return {
    passed: false,
    message: `Human approval required for: ${
      triggered.join(", ")
    }. Surface this to a human approver and retry with a valid approval_token.`,
    // A presented token that failed its check releases nothing: the failure is not approval-only.
    approvalRequired: release !== "pre-377" && !context.approval_token,
  };
}

const EVALUATORS = {
  tool_permission: toolPermission,
  agent_capability: agentCapability,
  human_oversight: humanOversight,
};

/** `normalize_context`: the schema version and the text fields; a failure is a denial. */
function normalize(context: Record<string, unknown>): Record<string, unknown> | string {
  const version = context.schema_version;
  if (version !== undefined && version !== 1) {
    return "Unsupported evaluation context schema_version";
  }
  for (const key of ["input_text", "output_text"]) {
    if (key in context && typeof context[key] !== "string") return `${key} must be text`;
  }
  const out = { ...context };
  for (const key of ["tool_outputs", "rag_context"]) {
    if (!(key in out)) continue;
    if (typeof out[key] === "string") out[key] = [out[key]];
    else if (
      !Array.isArray(out[key]) || (out[key] as unknown[]).some((i) => typeof i !== "string")
    ) {
      return `${key} must be text or a list of texts`;
    }
  }
  return out;
}

/** The all-null `enforcement` of an evaluation no rule decided. */
const NO_ENFORCEMENT = {
  action: null,
  block_level: null,
  message: null,
  rule: null,
  mode: null,
  configured_action: null,
  escalation: null,
  capped_from: null,
  fallback_chain: [],
  selected: null,
  fallback: null,
};

/** The `enforcement` of a call refused before any rule decided (an outage). */
export const REFUSAL_ENFORCEMENT = {
  ...NO_ENFORCEMENT,
  action: "block",
  block_level: "tool_call",
  mode: "enforce",
  fallback_chain: [{ action: "block", block_level: "tool_call", requires: null }],
};

/**
 * `PolicyEngine.evaluate` for one endpoint.
 *
 * @example
 * ```ts
 * const result = await evaluate("current", policies, { action: "tool_call", userId: "u", context, tenant: "t", endpoint: "e" }, book);
 * ```
 */
export async function evaluate(
  release: Release,
  policies: DoublePolicy[],
  call: {
    action: string;
    userId: string | null;
    context: Record<string, unknown>;
    tenant: string;
    endpoint: string;
  },
  book: GrantBook,
): Promise<Evaluation> {
  const normalized = normalize(call.context);
  if (typeof normalized === "string") {
    return {
      allowed: false,
      reason: normalized,
      policies_evaluated: [],
      warnings: [],
      context: {},
      coverage: {},
      approval_required: false,
      enforcement: NO_ENFORCEMENT,
    };
  }
  const context: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(normalized)) if (!k.startsWith("_")) context[k] = v;
  context._approval_digest = await contextDigest(context);
  context._tenant_id = call.tenant;
  context._endpoint_id = call.endpoint;
  context.taxonomy = { supported: [], unsupported: [] };
  const ordered = [...policies].sort((a, b) =>
    (a.priority ?? 0) - (b.priority ?? 0) || a.id.localeCompare(b.id)
  );
  const results: Record<string, unknown>[] = [];
  const warnings: string[] = [];
  let allowed = true;
  let reason: string | null = null;
  let approvalOnly = true;
  let deciding: DoublePolicy | null = null;
  let enforced = 0;
  for (const policy of ordered) {
    const mode = policy.enforcement ?? "enforce";
    if (mode === "disabled") continue;
    if (mode === "enforce") enforced++;
    const result = EVALUATORS[policy.policy_type]({
      release,
      policy,
      action: call.action,
      userId: call.userId,
      context,
      book,
    });
    results.push(
      release === "pre-377"
        ? {
          id: policy.id,
          name: policy.name,
          type: policy.policy_type,
          result: result.passed ? "pass" : "fail",
          message: result.message ?? null,
        }
        : {
          id: policy.id,
          version: policy.version,
          name: policy.name,
          type: policy.policy_type,
          result: result.passed ? "pass" : "fail",
          message: result.message ?? null,
          matched_selectors: [],
          coverage: mode === "enforce" ? "enforced" : "observation_only",
        },
    );
    if (result.passed) continue;
    if (mode === "enforce") {
      allowed = false;
      reason = result.message ?? null;
      deciding = policy;
      if (!result.approvalRequired) approvalOnly = false;
    } else warnings.push(`[Audit] ${policy.name}: ${result.message}`);
  }
  if (allowed) {
    const ids = (context._validated_approval_ids ?? []) as string[];
    if (ids.length && !book.consume(ids, call.tenant)) {
      allowed = false;
      reason = "Approval has already been used or expired";
      approvalOnly = false;
    }
  }
  const approvalRequired = !allowed && approvalOnly;
  return {
    allowed,
    reason,
    policies_evaluated: results,
    warnings,
    context,
    coverage: {
      status: enforced ? "enforced" : "unknown",
      counts: { enforced, observation_only: results.length - enforced, unsupported: 0 },
    },
    approval_required: approvalRequired,
    enforcement: allowed ? NO_ENFORCEMENT : {
      ...NO_ENFORCEMENT,
      action: approvalRequired ? "require_approval" : "block",
      block_level: approvalRequired ? null : "tool_call",
      message: reason,
      rule: deciding ? { id: deciding.id, name: deciding.name, type: deciding.policy_type } : null,
      mode: "enforce",
      configured_action: approvalRequired ? "require_approval" : "block",
      fallback_chain: approvalRequired
        ? [
          { action: "require_approval", block_level: null, requires: "supports_approval" },
          { action: "block", block_level: "tool_call", requires: null },
        ]
        : [{ action: "block", block_level: "tool_call", requires: null }],
    },
  };
}
