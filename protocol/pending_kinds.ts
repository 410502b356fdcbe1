/**
 * What a pending call waits for, and the facts a client shows about it: the
 * preview and confirmations of a remote tool's action (remote tools
 * contract, "Verb semantics"), the approval hold of the policy gate, and the
 * preview cards a tool result may carry.
 *
 * @module
 */

/**
 * A remote tool's verb; it decides the confirmation: none for `get`, one
 * Apply for `create` and `update`, two for `delete`.
 *
 * @example
 * ```ts
 * const confirmations = (verb: Verb) => (verb === "delete" ? 2 : verb === "get" ? 0 : 1);
 * ```
 */
export type Verb = "get" | "create" | "update" | "delete";

/**
 * Who must act before a pending call moves on: the host page (it runs the
 * action), the user (Apply or Cancel on a remote action's preview), or a
 * person with the operator role (an approval the policy gate asked for).
 *
 * @example
 * ```ts
 * const mine = (w: WaitingFor) => w === "host";
 * ```
 */
export type WaitingFor = "host" | "confirmation" | "approval";

/**
 * The approval hold of a call the policy gate answered with `ask`. Only an
 * operator's decision releases it; a client's continuation is refused.
 *
 * @example
 * ```ts
 * const approval: Approval = {
 *   status: "pending", request_id: "apr_1", reason: "Deleting needs a second pair of eyes.",
 *   expires_at: "2026-01-01T12:05:00Z", timeout_seconds: 300,
 * };
 * ```
 */
export interface Approval {
  status: "pending" | "approved" | "denied" | "expired";
  /** The approval request's id (what an operator decides on). */
  request_id: string;
  /** Why the policy wants a person to look. */
  reason: string;
  /** When the request expires (ISO 8601). */
  expires_at: string;
  /** How long the runtime waits for a decision, on its own clock. */
  timeout_seconds: number;
}

/**
 * A client's answer to a remote action's preview: the `tool_result` of the
 * continuation whose `tool_call_id` is the pending call.
 *
 * @example
 * ```ts
 * const body = { session_id, content: "", tool_call_id: callId, tool_result: { decision: "apply" } satisfies ConfirmationDecision };
 * ```
 */
export interface ConfirmationDecision {
  decision: "apply" | "cancel";
}

/**
 * A preview card of a tool result's `display` (sanitised by the runtime;
 * clients check it again before rendering).
 *
 * @example
 * ```ts
 * const card: DisplayCard = { title: "RTX 4070", url: "https://shop.example.com/p/4070", badges: ["8 GB"] };
 * ```
 */
export interface DisplayCard {
  title: string;
  /** An absolute http(s) link. */
  url: string;
  /** An absolute https image link. */
  image?: string;
  subtitle?: string;
  badges?: string[];
}

/**
 * The contract's limits on `display` cards, applied by the runtime and again by clients:
 * characters of each text, badges per card, cards per tool result and per turn.
 *
 * @example
 * ```ts
 * DISPLAY_LIMITS.perTurn; // 8
 * ```
 */
export const DISPLAY_LIMITS = {
  title: 120,
  subtitle: 100,
  badge: 48,
  badges: 4,
  perResult: 6,
  perTurn: 8,
} as const;

/**
 * The fields a pending call (`pending_tool_call`, `pending_action`) carries
 * beyond the host call's: what it waits for, and for a remote action its
 * verb, preview and confirmations, or the approval that holds it.
 *
 * @example
 * ```ts
 * const fields: PendingKind = {
 *   category: "remote", waiting_for: "confirmation", verb: "delete",
 *   preview: "Delete the task “Ship it”", confirmations_required: 2, confirmations_received: 0,
 * };
 * ```
 */
export interface PendingKind {
  /** `backend` only for a backend tool held for approval (it runs in the runtime once approved). */
  category?: "backend" | "host" | "remote";
  waiting_for?: WaitingFor;
  verb?: Verb;
  /** The remote tool server's preview text (plain text). */
  preview?: string;
  /** 2 for `delete`, else 1. */
  confirmations_required?: 1 | 2;
  /** Applies received so far (1 after the first of a `delete`). */
  confirmations_received?: 0 | 1;
  /** The hold, when `waiting_for` is `approval`. */
  approval?: Approval;
}
