/**
 * What a pending call waits for, read the same way from the live
 * `pending_tool_call` and from the stored `pending_action` of a session:
 * the host page (it runs the action), the user (a remote action's preview
 * with Apply and Cancel), or an approver (the policy gate holds it).
 *
 * @module
 */
import type { PendingAction, PendingState, PendingToolCall, WaitingFor } from "./_protocol.ts";

type Wait<W> = Omit<Extract<PendingState, { waiting_for: W }>, "waiting_for">;

/**
 * Every state field a pending call may carry, each optional: how the SDK
 * reads a pending call from any runtime (one that predates `waiting_for`
 * sends a remote call's fields or an approval without it). A
 * `PendingState` is one of these as it stands.
 */
export type PendingFields =
  & Partial<Wait<"confirmation"> & Wait<"approval">>
  & { waiting_for?: WaitingFor };

/**
 * Who must act on a pending call. A runtime that predates `waiting_for`
 * only ever pended host calls; a remote call without it waits for the user.
 *
 * @example
 * ```ts
 * if (waitingFor(state.pending!) === "confirmation") showPreview(state.pending!);
 * ```
 */
export function waitingFor(call: PendingFields): WaitingFor {
  if (call.waiting_for) return call.waiting_for;
  if (call.approval?.status === "pending") return "approval";
  return call.category === "remote" ? "confirmation" : "host";
}

/**
 * The stored `pending_action` (GET /api/sessions/{id}) as the live
 * `pending_tool_call` it was, so a page that reloads shows the same open
 * preview or hold again.
 *
 * @example
 * ```ts
 * host.state.get().pending; // pendingCall(info.pending_action) after a reload
 * ```
 */
export function pendingCall(action: PendingAction): PendingToolCall {
  const { tool_call_id, assistant_message_id: _message, ...rest } = action;
  return { ...rest, call_id: tool_call_id, queued: action.queued ?? [] };
}
