/**
 * The policy decision every tool call passes before it runs or is pended.
 * The embedded engine and the Zentinelle client plug in here.
 *
 * @module
 */
import type { Allow, Ask, Deny } from "../../protocol/mod.ts";
import type { Principal } from "../http/principal.ts";

/** A tool call as the policy sees it. */
export interface PolicyRequest {
  principal: Principal;
  sessionId: string;
  callId: string;
  toolName: string;
  /** The call's tool kind: `backend`, `host`, `remote`, or a registered kind's own. */
  category: string;
  arguments: Record<string, unknown>;
}

/**
 * The answer, of the one allow/deny/ask family (`protocol/verdict.ts`): allow, deny with a
 * reason, or ask (hold for a human), optionally with what the policy knows of the approval
 * request (`request_id`, `timeout_seconds`, `expires_at`).
 */
export type PolicyDecision = Allow | Deny | Ask<Record<string, unknown> | undefined>;

/**
 * A policy hook. Throwing is a denial: every refusal fails closed.
 *
 * @example
 * ```ts
 * const noDeletes: PolicyHook = (call) =>
 *   call.toolName.startsWith("delete_")
 *     ? { decision: "deny", reason: "Deleting is not allowed here." }
 *     : { decision: "allow" };
 * ```
 */
export type PolicyHook = (request: PolicyRequest) => PolicyDecision | Promise<PolicyDecision>;

/** The pass-through policy used until a policy is configured. */
export const allowAll: PolicyHook = () => ({ decision: "allow" });

/**
 * Asks the hook, turning a thrown error or a malformed answer into a denial.
 *
 * @example
 * ```ts
 * const decision = await decide(allowAll, request);
 * ```
 */
export async function decide(hook: PolicyHook, request: PolicyRequest): Promise<PolicyDecision> {
  try {
    const answer = await hook(request);
    if (answer?.decision === "allow" || answer?.decision === "deny" || answer?.decision === "ask") {
      return answer;
    }
    return {
      decision: "deny",
      reason: "The policy gave no valid decision, so the call was refused.",
    };
  } catch (error) {
    return {
      decision: "deny",
      reason: `The policy could not be asked (${
        (error as Error).message
      }), so the call was refused.`,
    };
  }
}
