/**
 * What a pending call waits for, and the facts a client shows about it: the
 * preview and confirmations of a remote tool's action (remote tools
 * contract, "Verb semantics"), the approval hold of the policy gate, and the
 * preview cards a tool result may carry.
 *
 * @module
 */
import * as z from "zod/mini";
import type { Same } from "./_values.ts";

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

/** The schema of {@linkcode Verb}. */
export const verbSchema: z.ZodMiniType<Verb> = z.enum(["get", "create", "update", "delete"]);

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

const approvalRaw = z.object({
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

const _approval: Same<z.infer<typeof approvalRaw>, Approval> = true;

/** The schema of {@linkcode Approval}. */
export const approvalSchema: z.ZodMiniType<Approval> = approvalRaw;

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
export const categorySchema: z.ZodMiniType<string> = z.string().check(
  z.minLength(1),
  z.maxLength(64),
);

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
export type PendingState =
  | { waiting_for: "host"; category: string }
  | {
    waiting_for: "confirmation";
    category: string;
    verb: Verb;
    /** The remote tool server's preview text (plain text). */
    preview: string;
    /** 2 for `delete`, else 1. */
    confirmations_required: 1 | 2;
    /** Applies received so far (1 after the first of a `delete`). */
    confirmations_received: 0 | 1;
  }
  | { waiting_for: "approval"; category: string; approval: Approval };

const STATES = [
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
] as const;

const stateRaw = z.discriminatedUnion("waiting_for", [...STATES]);
const _state: Same<z.infer<typeof stateRaw>, PendingState> = true;

/** The schema of {@linkcode PendingState}. */
export const pendingStateSchema: z.ZodMiniType<PendingState> = stateRaw;

/**
 * Every key a pending state may have, whatever it waits for (derived from the schema).
 *
 * @example
 * ```ts
 * PENDING_STATE_KEYS.has("approval"); // true
 * ```
 */
export const PENDING_STATE_KEYS: ReadonlySet<string> = new Set(
  STATES.flatMap((o) => Object.keys(o.shape)),
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
export type PendingToolCall = PendingState & {
  tool_name: string;
  call_id: string;
  arguments: Record<string, unknown>;
  queued: string[];
};

const toolCallRaw = z.intersection(z.object({ call_id: z.string(), ...CALL }), stateRaw);
const _toolCall: Same<z.infer<typeof toolCallRaw>, PendingToolCall> = true;

/** The schema of {@linkcode PendingToolCall}. */
export const pendingToolCallSchema: z.ZodMiniType<PendingToolCall> = toolCallRaw;

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
export type PendingAction = PendingState & {
  /** The call id a continuation must answer. */
  tool_call_id: string;
  /** The tool the model called. */
  tool_name: string;
  /** The assistant message the call belongs to. */
  assistant_message_id: string;
  /** The model's arguments. */
  arguments: Record<string, unknown>;
  /** Call ids of further pending calls from the same response, handed over one at a time. */
  queued: string[];
};

const actionRaw = z.intersection(
  z.object({
    /** The call id a continuation must answer. */
    tool_call_id: z.string(),
    /** The assistant message the call belongs to. */
    assistant_message_id: z.string(),
    ...CALL,
  }),
  stateRaw,
);
const _action: Same<z.infer<typeof actionRaw>, PendingAction> = true;

/** The schema of {@linkcode PendingAction}. */
export const pendingActionSchema: z.ZodMiniType<PendingAction> = actionRaw;

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
