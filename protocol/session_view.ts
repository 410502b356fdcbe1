/**
 * The session as GET /api/sessions/{id} shows it.
 *
 * @module
 */
import type { PendingAction } from "./pending_kinds.ts";

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
  /** True while a pending call waits (for the host, a confirmation or an approval). */
  has_pending_tool_call: boolean;
  /** The pending call, with what it waits for, or null. */
  pending_action: PendingAction | null;
  /** How many messages the session holds. */
  message_count: number;
  /**
   * True while a turn of the session runs, in any process. A page that saw a turn start and
   * then lost the runtime reads false here when that turn can no longer end on the wire (the
   * runtime stopped before logging its end).
   */
  turn_running: boolean;
}
