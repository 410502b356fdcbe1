/**
 * The parts of the state reducer for calls that wait for someone other than
 * the host page: a remote action's preview and confirmations, a call the
 * policy gate holds for approval, and how such a call ends (declined by the
 * user, denied by the policy).
 *
 * @module
 */
import { isDeclined } from "./_declined.ts";
import { isUnknownOutcome } from "./_unknown_outcome.ts";
import type { PendingToolCall, ToolCallEvent, ToolErrorEvent } from "./events.ts";
import { type PendingFields, waitingFor } from "./pending.ts";
import type { ToolCallState } from "./state.ts";

/**
 * A call as the pending call of the turn shows it: waiting, with what it
 * waits for, its preview and confirmations or its approval hold; an answer
 * the user sent is settled by the runtime's new account of it.
 */
export function asPending(call: ToolCallState, pending: PendingToolCall): ToolCallState {
  const {
    waitingFor: _w,
    preview: _p,
    confirmations: _c,
    approval: _a,
    answering: _x,
    ...rest
  } = call;
  const next: ToolCallState = { ...rest, status: "pending" };
  const f: PendingFields = pending;
  const waits = waitingFor(f);
  if (waits !== "host") next.waitingFor = waits;
  if (f.category) next.category = f.category;
  if (f.verb) next.verb = f.verb;
  if (typeof f.preview === "string") next.preview = f.preview;
  if (f.confirmations_required) {
    next.confirmations = {
      required: f.confirmations_required,
      received: f.confirmations_received ?? 0,
    };
  }
  if (f.approval) next.approval = f.approval;
  return next;
}

/** The call a `tool_call` event announces: a host call or a held call waits, others run. */
export function announced(payload: ToolCallEvent, old?: ToolCallState): ToolCallState {
  const held = payload.approval?.status === "pending";
  const call: ToolCallState = {
    ...old,
    callId: payload.call_id,
    toolName: payload.tool_name,
    arguments: payload.arguments,
    category: payload.category,
    status: payload.category === "host" || held ? "pending" : "running",
  };
  if (payload.verb) call.verb = payload.verb;
  if (payload.approval) call.approval = payload.approval;
  if (held) call.waitingFor = "approval";
  return call;
}

/**
 * How a `tool_error` ends a call: declined by the user (cancelled, not a
 * failure), denied by the policy (failed, with the reason), or failed; the
 * SDK's own "outcome is unknown" report stays unknown.
 */
export function failedCall(payload: ToolErrorEvent, old?: ToolCallState): ToolCallState {
  const declined = payload.declined || isDeclined(payload.error);
  const { waitingFor: _w, answering: _x, ...rest } = old ??
    {
      callId: payload.call_id,
      toolName: payload.tool_name,
      arguments: {},
      // A call refused before it ran (a policy denial, invalid arguments) had no tool_call event.
      category: "backend",
    };
  const call: ToolCallState = {
    ...rest,
    // A host page's decline comes back as a failure carrying the SDK's own sentence.
    status: declined ? "cancelled" : isUnknownOutcome(payload.error) ? "unknown" : "failed",
    output: payload.error,
  };
  if (declined) call.declined = true;
  if (payload.policy === "deny") call.denied = true;
  return call;
}
