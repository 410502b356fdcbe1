/**
 * What a pending call waits for, and the facts a client shows about it: the
 * preview and confirmations of a remote tool's action (remote tools
 * contract, "Verb semantics"), the approval hold of the policy gate, and the
 * preview cards a tool result may carry.
 *
 * @module
 */
import * as z from "zod/mini";

/**
 * A remote tool's verb; it decides the confirmation: none for `get`, one
 * Apply for `create` and `update`, two for `delete`.
 *
 * @example
 * ```ts
 * const confirmations = (verb: Verb) => (verb === "delete" ? 2 : verb === "get" ? 0 : 1);
 * ```
 */
export const verbSchema = z.enum(["get", "create", "update", "delete"]);

/** See {@linkcode verbSchema}. */
export type Verb = z.infer<typeof verbSchema>;

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
export type WaitingFor = PendingState["waiting_for"];

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
export const approvalSchema = z.object({
  status: z.enum(["pending", "approved", "denied", "expired"]),
  /** The approval request's id (what an operator decides on). */
  request_id: z.string(),
  /** Why the policy wants a person to look. */
  reason: z.string(),
  /** When the request expires (ISO 8601). */
  expires_at: z.string(),
  /** How long the runtime waits for a decision, on its own clock. */
  timeout_seconds: z.number(),
});

/** See {@linkcode approvalSchema}. */
export type Approval = z.infer<typeof approvalSchema>;

/**
 * The tool kinds the runtime ships: `backend` runs in the runtime, `host` in
 * the host page (a pending call), `remote` on a host's tool server. A
 * runtime may register kinds of its own (`registerToolKind`), whose calls
 * carry their own category, so clients treat a category they do not know
 * as a tool that runs elsewhere.
 *
 * @example
 * ```ts
 * TOOL_CATEGORIES.includes("host"); // true
 * ```
 */
export const TOOL_CATEGORIES = ["backend", "host", "remote"] as const;

/**
 * Where a tool runs: one of {@linkcode TOOL_CATEGORIES}.
 *
 * @example
 * ```ts
 * const mine = (category: ToolCategory) => category === "host";
 * ```
 */
export type ToolCategory = (typeof TOOL_CATEGORIES)[number];

/** A category on the wire: a shipped one, or a registered kind's own. */
export const categorySchema = z.string().check(z.minLength(1), z.maxLength(64));

/**
 * What a pending call (`pending_tool_call`, `pending_action`) waits for,
 * with the fields that belong to that wait and no others: nothing more for
 * the host; the verb, preview and confirmations of a remote action; the
 * hold of a call the policy asked about. `category` is the call's kind
 * (`backend` only for a backend tool held for approval: it runs in the
 * runtime once approved).
 *
 * @example
 * ```ts
 * const state: PendingState = {
 *   category: "remote", waiting_for: "confirmation", verb: "delete",
 *   preview: "Delete the task “Ship it”", confirmations_required: 2, confirmations_received: 0,
 * };
 * ```
 */
export const pendingStateSchema = z.discriminatedUnion("waiting_for", [
  z.object({ waiting_for: z.literal("host"), category: categorySchema }),
  z.object({
    waiting_for: z.literal("confirmation"),
    category: categorySchema,
    verb: verbSchema,
    /** The remote tool server's preview text (plain text). */
    preview: z.string(),
    /** 2 for `delete`, else 1. */
    confirmations_required: z.literal([1, 2]),
    /** Applies received so far (1 after the first of a `delete`). */
    confirmations_received: z.literal([0, 1]),
  }),
  z.object({
    waiting_for: z.literal("approval"),
    category: categorySchema,
    approval: approvalSchema,
  }),
]);

/** See {@linkcode pendingStateSchema}. */
export type PendingState = z.infer<typeof pendingStateSchema>;

/**
 * Every key a pending state may have, whatever it waits for (derived from the schema).
 *
 * @example
 * ```ts
 * PENDING_STATE_KEYS.has("approval"); // true
 * ```
 */
export const PENDING_STATE_KEYS: ReadonlySet<string> = new Set(
  pendingStateSchema._zod.def.options.flatMap((o) => Object.keys(o._zod.def.shape)),
);

const CALL = {
  /** The tool the model called. */
  tool_name: z.string(),
  /** The model's arguments. */
  arguments: z.record(z.string(), z.unknown()),
  /** Call ids of further pending calls from the same response, handed over one at a time. */
  queued: z.array(z.string()),
};

/**
 * The fields of every pending call on the wire besides its state: the call
 * the turn ended on, with the call ids of the other pending calls from the
 * same model response, handed over one at a time.
 *
 * @example
 * ```ts
 * const call: PendingToolCall = {
 *   tool_name: "select_issue", call_id: "call_1", arguments: { number: 42 }, queued: [],
 *   category: "host", waiting_for: "host",
 * };
 * ```
 */
export const pendingToolCallSchema = z.intersection(
  z.object({ call_id: z.string(), ...CALL }),
  pendingStateSchema,
);

/** See {@linkcode pendingToolCallSchema}. */
export type PendingToolCall = z.infer<typeof pendingToolCallSchema>;

/**
 * The call a session waits on as GET /api/sessions/{id} shows it (a host
 * call, a remote action's preview, or a held call); stored with the
 * session, so it survives a restart. The same call as
 * {@linkcode PendingToolCall}, named by `tool_call_id`, with its message.
 *
 * @example
 * ```ts
 * const pending: PendingAction = {
 *   tool_call_id: "call_1", tool_name: "select_issue", assistant_message_id: "a-7",
 *   arguments: { number: 42 }, queued: [], category: "host", waiting_for: "host",
 * };
 * ```
 */
export const pendingActionSchema = z.intersection(
  z.object({
    /** The call id a continuation must answer. */
    tool_call_id: z.string(),
    /** The assistant message the call belongs to. */
    assistant_message_id: z.string(),
    ...CALL,
  }),
  pendingStateSchema,
);

/** See {@linkcode pendingActionSchema}. */
export type PendingAction = z.infer<typeof pendingActionSchema>;

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
