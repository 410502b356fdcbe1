/**
 * The session as GET /api/sessions/{id} shows it.
 *
 * @module
 */
import type { PendingKind } from "./pending_kinds.ts";

/**
 * Where a recorded tool call stands: the live `running` and `pending`, then
 * the final statuses of docs/runtime-wire.md.
 *
 * @example
 * ```ts
 * const done: CallStatus = "completed";
 * ```
 */
export type CallStatus =
  | "running"
  | "pending"
  | "completed"
  | "failed"
  | "cancelled"
  | "superseded"
  | "unknown";

/**
 * The call a session waits on (a host call, a remote action's preview, or a
 * held call); stored with the session, so it survives a restart.
 *
 * @example
 * ```ts
 * const pending: PendingAction = {
 *   tool_call_id: "call_1",
 *   tool_name: "select_issue",
 *   assistant_message_id: "a-7",
 *   arguments: { number: 42 },
 *   queued: [],
 * };
 * ```
 */
export interface PendingAction extends PendingKind {
  /** The call id a continuation must answer. */
  tool_call_id: string;
  /** The host action the model called. */
  tool_name: string;
  /** The assistant message the call belongs to. */
  assistant_message_id: string;
  /** The model's arguments. */
  arguments: Record<string, unknown>;
  /** Call ids of further host calls from the same response, handed over one at a time. */
  queued: string[];
}

/**
 * The body of GET /api/sessions/{id}.
 *
 * @example
 * ```ts
 * const view: SessionView = await (await fetch(`/api/sessions/${id}`)).json();
 * if (view.pending_action) resume(view.pending_action.tool_call_id);
 * ```
 */
export interface SessionView {
  /** The session id. */
  session_id: string;
  /** The principal that created the session. */
  owner_id: string;
  /** How many turns the session has run. */
  turn_number: number;
  /** True while a host call awaits its result. */
  has_pending_tool_call: boolean;
  /** The host call awaited, or null. */
  pending_action: PendingAction | null;
  /** How many messages the session holds. */
  message_count: number;
}
