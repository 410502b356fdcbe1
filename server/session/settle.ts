/**
 * Closes an assistant message's open tool calls so the stored conversation
 * always replays as a valid one: every call gets a final status and every
 * model step with calls is followed by their results.
 *
 * @module
 */
import type { AssistantMessage, CallStatus, SessionRecord, StoredPending } from "./records.ts";
import { FINAL_STATUSES } from "./records.ts";
import { toolMessage } from "../turn/results.ts";

/**
 * Gives every open call of the message `status` and appends the missing tool results.
 * Returns whether anything changed.
 *
 * @example
 * ```ts
 * settleOpenCalls(message, "cancelled");
 * ```
 */
export function settleOpenCalls(
  message: AssistantMessage,
  status: CallStatus,
  keep?: StoredPending | null,
): boolean {
  const kept = new Set<string>();
  if (keep && keep.assistant_message_id === message.id) {
    kept.add(keep.tool_call_id);
    for (const q of keep.queued) kept.add(q.call_id);
  }
  let changed = false;
  for (const call of message.calls) {
    if (!FINAL_STATUSES.has(call.status) && !kept.has(call.call_id)) {
      call.status = status;
      changed = true;
    }
  }
  const steps = [...new Set(message.calls.map((c) => c.step))];
  for (const step of steps) {
    const calls = message.calls.filter((c) => c.step === step);
    if (calls.some((c) => kept.has(c.call_id))) continue;
    const answered = message.steps.slice(step + 1).some((m) =>
      m.role === "tool" &&
      m.content.some((p) => p.type === "tool-result" && p.toolCallId === calls[0].call_id)
    );
    if (answered) continue;
    message.steps.splice(step + 1, 0, toolMessage(calls));
    // Later steps shift by one; keep their calls pointing at the right model message.
    for (const c of message.calls) if (c.step > step) c.step++;
    changed = true;
  }
  return changed;
}

/** Whether the pending action still waits for an unanswered call of `message`. */
export function pendingIsLive(
  record: SessionRecord,
  message: AssistantMessage | undefined,
): boolean {
  const pending = record.pending_action;
  if (!pending) return false;
  const call = message?.calls.find((c) => c.call_id === pending.tool_call_id);
  return !!call && !FINAL_STATUSES.has(call.status);
}
