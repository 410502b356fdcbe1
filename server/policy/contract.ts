/**
 * The wire shapes of the agent host contract's evaluation and approval
 * routes (`POST /api/zentinelle/v1/evaluate`,
 * `GET /api/zentinelle/v1/approvals/requests/{id}`), shared by the Zentinelle
 * client, the embedded engine and Tether's own policy service.
 *
 * @module
 */

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

/** The body of `POST /api/zentinelle/v1/evaluate`. */
export interface EvaluateBody {
  action: "tool_call";
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
  decision: "allow" | "deny" | "ask";
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

/**
 * The contract's full evaluate answer around a decision: subject, resource,
 * echoed context, trace id, coverage.
 *
 * @example
 * ```ts
 * const answer = fullAnswer(body, "agenthost-dev", { decision: "allow", allowed: true, reason: null, policies_evaluated: [] });
 * ```
 */
export function fullAnswer(
  body: EvaluateBody,
  agentId: string,
  core: EvaluateAnswer,
): Record<string, unknown> {
  const trace = crypto.randomUUID();
  const { approval_token: _token, ...context } = body.context;
  const enforced = core.policies_evaluated.length;
  return {
    contract_version: "1",
    subject: { tenant_id: "local", user_id: body.user_id ?? null, agent_id: agentId },
    action: body.action,
    resource: { type: "tool", id: context.tool_name },
    context: {
      ...context,
      resource_type: "tool",
      resource_id: context.tool_name,
      trace_id: trace,
      taxonomy: { supported: [], unsupported: [] },
    },
    trace_id: trace,
    ...core,
    coverage: {
      status: enforced ? "enforced" : "unknown",
      counts: { enforced, observation_only: 0, unsupported: 0 },
    },
    warnings: [],
    output_filter_required: false,
  };
}
