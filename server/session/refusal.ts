/**
 * Continuation refusals: a result that cannot be applied is a session error
 * whose message says why.
 *
 * @module
 */
import { sessionError, type TetherError } from "../http/errors.ts";
import { FINAL_STATUSES } from "./records.ts";
import type { LoadedSession } from "./repo.ts";

/**
 * The 409 for a continuation that does not match the pending call, saying
 * which case it is: already recorded (with its status), superseded, no
 * pending call any more, or not the pending call (naming it).
 *
 * @example
 * ```ts
 * if (pending?.tool_call_id !== callId) throw refusal(loaded, callId);
 * ```
 */
export function refusal(loaded: LoadedSession, callId: string): TetherError {
  const sid = loaded.record.session_id;
  const pending = loaded.record.pending_action;
  for (const { message } of loaded.messages) {
    if (message.role !== "assistant") continue;
    const call = message.calls.find((c) => c.call_id === callId);
    if (!call) continue;
    if (call.status === "superseded") {
      return sessionError(
        `Call ${callId} was superseded by a newer message; its result is no longer accepted.`,
        { status: "superseded" },
      );
    }
    if (FINAL_STATUSES.has(call.status)) {
      return sessionError(
        `The result for call ${callId} was already recorded with status ${call.status}; it is not applied twice.`,
        { status: call.status },
      );
    }
    if (pending) {
      return sessionError(
        `Call ${callId} is not the pending call; send the result for ${pending.tool_call_id} (${pending.tool_name}) first.`,
        { pending_call_id: pending.tool_call_id },
      );
    }
  }
  if (!pending) {
    return sessionError(
      `Session ${sid} has no pending call any more; a newer message moved it on.`,
    );
  }
  return sessionError(
    `Call ${callId} does not match the pending call ${pending.tool_call_id} (${pending.tool_name}).`,
    { pending_call_id: pending.tool_call_id },
  );
}
