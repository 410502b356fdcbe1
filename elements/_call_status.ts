/**
 * The status a tool call card shows. The SDK's state knows pending, running,
 * completed and failed; the rest is read from what happened around the call:
 * a later user message supersedes an open call, a cancelled turn cancels it,
 * and an open call nobody will answer any more (or a failure the SDK marks
 * as unknown) has an unknown outcome.
 *
 * @module
 */
import type { HostState, ToolCallState } from "../client/mod.ts";

/** What a tool call card says about a call. */
export type CallStatus = "running" | "done" | "failed" | "cancelled" | "superseded" | "unknown";

const UNKNOWN = /outcome (?:of \S+ )?is unknown/i;

/**
 * The displayed status of call `call` in message `index` of `state`.
 *
 * @example
 * ```ts
 * callStatus(state, 3, state.messages[3].toolCalls[0]); // "running"
 * ```
 */
export function callStatus(state: HostState, index: number, call: ToolCallState): CallStatus {
  if (call.status === "completed") return "done";
  if (call.status === "failed") {
    return typeof call.output === "string" && UNKNOWN.test(call.output) ? "unknown" : "failed";
  }
  if (state.pending?.call_id === call.callId) return "running";
  const later = state.messages.slice(index + 1);
  if (later.some((m) => m.role === "user")) return "superseded";
  const last = later.length === 0;
  if (last && state.error?.type === "cancelled") return "cancelled";
  if (last && (state.running || !state.error)) return "running";
  return "unknown";
}
