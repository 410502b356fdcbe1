/**
 * The one family of policy answers, from the policy hook through the gate,
 * the holds and the engine: allow, deny with a reason, or ask (hold the
 * call until a person approves), and the verdict an approval ends with.
 *
 * @module
 */

/**
 * What a policy may answer about a tool call.
 *
 * @example
 * ```ts
 * const held = (answer: PolicyAnswer) => answer === "ask";
 * ```
 */
export type PolicyAnswer = "allow" | "deny" | "ask";

/**
 * The call may go on.
 *
 * @example
 * ```ts
 * const allow: Allow = { decision: "allow" };
 * ```
 */
export interface Allow {
  decision: "allow";
}

/**
 * The call is refused; `reason` says why (for the model and the person).
 *
 * @example
 * ```ts
 * const deny: Deny = { decision: "deny", reason: "Deleting is not allowed here." };
 * ```
 */
export interface Deny {
  decision: "deny";
  reason: string;
}

/**
 * The call waits for a person's approval; `A` is what the asker knows of the
 * approval request (optional when `A` admits `undefined`).
 *
 * @example
 * ```ts
 * const ask: Ask<{ request_id: string }> = { decision: "ask", reason: "A reviewer must look.", approval: { request_id: "apr_1" } };
 * ```
 */
export type Ask<A> =
  & { decision: "ask"; reason: string }
  & (undefined extends A ? { approval?: A } : { approval: A });

/**
 * A policy's answer about one call.
 *
 * @example
 * ```ts
 * const answer: PolicyVerdict<never> = { decision: "allow" };
 * ```
 */
export type PolicyVerdict<A> = Allow | Deny | Ask<A>;

/**
 * How an approval ended: allow, or deny with the reason (expiry and timeouts are denials).
 *
 * @example
 * ```ts
 * const verdict: Verdict = { decision: "deny", reason: "Expired." };
 * ```
 */
export type Verdict = Allow | Deny;
