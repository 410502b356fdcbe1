/**
 * The wire shapes of the agent host contract's evaluation and approval
 * routes (`POST /api/zentinelle/v1/evaluate`,
 * `GET /api/zentinelle/v1/approvals/requests/{id}`), shared by the Zentinelle
 * client, the embedded engine and Tether's own policy service, and the full
 * answer Zentinelle gives, built the way its evaluate view builds it.
 *
 * @module
 */
import type { PolicyAnswer } from "../../protocol/mod.ts";

/** `context` of a tool_call evaluation. Other fields pass through. */
export interface ToolCallContext {
  harness: string;
  session_id: string;
  chat_id?: string;
  tool_call_id?: string;
  tool_name: string;
  tool_input?: unknown;
  /** The older name of `tool_input`; when both are present each must pass. */
  tool_args?: unknown;
  cwd?: string;
  /** Added on the retry that releases an approved call. */
  approval_token?: string;
  [field: string]: unknown;
}

/** The body of `POST /api/zentinelle/v1/evaluate` (the action already in canonical form). */
export interface EvaluateBody {
  action: string;
  user_id?: string;
  agent_id?: string;
  context: ToolCallContext;
}

/** One policy's part in a decision. */
export interface PolicyEvaluated {
  id: string;
  version: number;
  name: string;
  type: string;
  result: "pass" | "fail";
  message: string | null;
  matched_selectors: string[];
  coverage: "enforced";
}

/** The approval request an `ask` opened. */
export interface ApprovalOffer {
  request_id: string;
  status: "pending";
  expires_at: string;
  timeout_seconds: number;
}

/** The answer of /evaluate (the fields the gate reads; the service adds the rest of the contract's shape). */
export interface EvaluateAnswer {
  decision: PolicyAnswer;
  allowed: boolean;
  reason: string | null;
  policies_evaluated: PolicyEvaluated[];
  approval?: ApprovalOffer;
  [field: string]: unknown;
}

/** `GET /api/zentinelle/v1/approvals/requests/{id}`. */
export interface ApprovalStatus {
  request_id: string;
  status: "pending" | "approved" | "denied" | "expired";
  expires_at: string;
  approval_token?: string;
  approval_expires_at?: string;
  reason?: string;
}

/** Longest approval window and token life, in seconds. */
export const MAX_APPROVAL_SECONDS = 300;

/** Zentinelle's spellings of actions, and the canonical action each stands for. */
const ACTION_ALIASES: Record<string, string> = {
  "tool.invoke": "tool_call",
  "mcp.tool_call": "tool_call",
  "retrieve": "retrieval",
  "rag.retrieve": "retrieval",
  "data_access": "retrieval",
  "workflow_step": "workflow.transition",
  "workflow": "workflow.transition",
  "network.egress": "egress",
  "llm_call": "llm:invoke",
  "ai_request": "llm:invoke",
};

/**
 * The canonical action, as Zentinelle reads one: trimmed, lowercase, aliases resolved.
 *
 * @example
 * ```ts
 * canonicalAction(" Tool.Invoke "); // "tool_call"
 * ```
 */
export function canonicalAction(action: string): string {
  const value = action.trim().toLowerCase();
  return ACTION_ALIASES[value] ?? value;
}

/**
 * The resource class of an action (`tool` for a tool call).
 *
 * @example
 * ```ts
 * resourceTypeFor("tool_call"); // "tool"
 * ```
 */
export function resourceTypeFor(action: string): string {
  if (action === "tool_call") return "tool";
  if (action === "retrieval") return "retrieval";
  if (action === "workflow.transition") return "workflow";
  if (action === "egress" || action === "llm:response") return "egress";
  if (action.startsWith("llm:")) return "model";
  return "action";
}

/**
 * The context as the evaluate view hands it to the engine: `resource_type`
 * and `resource_id` filled where the caller gave none, the trace id set.
 *
 * @example
 * ```ts
 * supplyContext("tool_call", { tool_name: "Bash" }, "t-1").resource_id; // "Bash"
 * ```
 */
export function supplyContext(
  action: string,
  context: Record<string, unknown>,
  traceId: string,
): Record<string, unknown> {
  const supplied = { ...context };
  if (!("resource_type" in supplied)) supplied.resource_type = resourceTypeFor(action);
  if (!("resource_id" in supplied)) {
    supplied.resource_id = supplied.workload_id || supplied.tool || supplied.tool_name || "";
  }
  supplied.trace_id = traceId;
  return supplied;
}

/** The decided action of #396 (`enforcement`): what the strongest matched rule does. */
export interface Enforcement {
  action: "block" | "require_approval" | null;
  block_level: "tool_call" | null;
  message: string | null;
  rule: { id: string; name: string; type: string } | null;
  mode: "enforce" | null;
  configured_action: "block" | "require_approval" | null;
  escalation: null;
  capped_from: null;
  fallback_chain: { action: string; block_level: string | null; requires: string | null }[];
  selected: null;
  fallback: null;
}

/**
 * The `enforcement` of an answer: none for allow, block (falling back to
 * nothing) for deny, require_approval (falling back to block) for ask.
 *
 * @example
 * ```ts
 * enforcementOf("deny", "No shell.", null).action; // "block"
 * ```
 */
export function enforcementOf(
  decision: PolicyAnswer,
  message: string | null,
  rule: Enforcement["rule"],
): Enforcement {
  const block = { action: "block", block_level: "tool_call", requires: null };
  const base = { escalation: null, capped_from: null, selected: null, fallback: null } as const;
  if (decision === "allow") {
    return {
      ...base,
      action: null,
      block_level: null,
      message: null,
      rule: null,
      mode: null,
      configured_action: null,
      fallback_chain: [],
    };
  }
  if (decision === "deny") {
    return {
      ...base,
      action: "block",
      block_level: "tool_call",
      message,
      rule,
      mode: "enforce",
      configured_action: "block",
      fallback_chain: [block],
    };
  }
  return {
    ...base,
    action: "require_approval",
    block_level: null,
    message,
    rule,
    mode: "enforce",
    configured_action: "require_approval",
    fallback_chain: [
      { action: "require_approval", block_level: null, requires: "supports_approval" },
      block,
    ],
  };
}

/** Who asked: the agent and its endpoint, with the user as Zentinelle echoes it. */
export interface Subject {
  agentId: string;
  endpointId: string;
  userId: unknown;
}

function envelope(subject: Subject, action: string, supplied: Record<string, unknown>) {
  return {
    contract_version: "1",
    subject: {
      tenant_id: "local",
      user_id: subject.userId === undefined || subject.userId === null || subject.userId === ""
        ? ""
        : String(subject.userId),
      endpoint_id: subject.endpointId,
      agent_id: subject.agentId,
    },
    action,
    resource: {
      type: String(supplied.resource_type || resourceTypeFor(action)),
      id: String(supplied.resource_id || supplied.workload_id || supplied.tool || ""),
    },
  };
}

/**
 * The contract's full evaluate answer around a decision: subject, resource,
 * the evaluated context, trace id, coverage, `enforcement`.
 *
 * @example
 * ```ts
 * const answer = fullAnswer(subject, "tool_call", supplied, evaluated, core, "trace-1");
 * ```
 */
export function fullAnswer(
  subject: Subject,
  action: string,
  supplied: Record<string, unknown>,
  evaluated: Record<string, unknown>,
  core: EvaluateAnswer,
  traceId: string,
): Record<string, unknown> {
  const { request_body: _body, ...context } = evaluated;
  const enforced = core.policies_evaluated.length;
  const failing = [...core.policies_evaluated].reverse().find((p) => p.result === "fail");
  return {
    ...envelope(subject, action, supplied),
    context,
    trace_id: traceId,
    decision: core.decision,
    allowed: core.allowed,
    reason: core.reason,
    policies_evaluated: core.policies_evaluated,
    coverage: {
      status: enforced ? "enforced" : "unknown",
      counts: { enforced, observation_only: 0, unsupported: 0 },
    },
    warnings: [],
    output_filter_required: false,
    enforcement: enforcementOf(
      core.decision,
      core.reason,
      failing ? { id: failing.id, name: failing.name, type: failing.type } : null,
    ),
    ...(core.approval ? { approval: core.approval } : {}),
  };
}

/**
 * The structured 503 deny Zentinelle answers when policy evaluation fails.
 *
 * @example
 * ```ts
 * const body = unavailableAnswer(subject, "tool_call", supplied, "trace-1");
 * ```
 */
export function unavailableAnswer(
  subject: Subject,
  action: string,
  supplied: Record<string, unknown>,
  traceId: string,
): Record<string, unknown> {
  return {
    ...envelope(subject, action, supplied),
    context: supplied,
    trace_id: traceId,
    decision: "deny",
    allowed: false,
    reason: "Policy evaluation unavailable",
    coverage: { status: "unknown" },
    warnings: ["retry after policy service recovery"],
    // Refused before any rule decided: a block no rule configured.
    enforcement: { ...enforcementOf("deny", null, null), configured_action: null },
  };
}
