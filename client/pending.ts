/**
 * What a pending call waits for, read the same way from the live
 * `pending_tool_call` and from the stored `pending_action` of a session:
 * the host page (it runs the action), the user (a remote action's preview
 * with Apply and Cancel), or an approver (the policy gate holds it).
 *
 * @module
 */
import type { PendingAction, PendingToolCall, WaitingFor } from "./_protocol.ts";

/**
 * Who must act on a pending call. A runtime that predates `waiting_for`
 * only ever pended host calls; a remote call without it waits for the user.
 *
 * @example
 * ```ts
 * if (waitingFor(state.pending!) === "confirmation") showPreview(state.pending!);
 * ```
 */
export function waitingFor(
  call: Pick<PendingToolCall, "waiting_for" | "category" | "approval">,
): WaitingFor {
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
