/**
 * The status a tool call card shows: the state's status, with `completed`
 * said as done and a host call still waiting for its page shown as running.
 *
 * @module
 */
import type { ToolCallState } from "../client/mod.ts";

/** What a tool call card says about a call. */
export type CallStatus = "running" | "done" | "failed" | "cancelled" | "superseded" | "unknown";

/**
 * The displayed status of a call.
 *
 * @example
 * ```ts
 * callStatus(state.messages[1].toolCalls[0]); // "done"
 * ```
 */
export function callStatus(call: ToolCallState): CallStatus {
  const status = call.status;
  return status === "completed" ? "done" : status === "pending" ? "running" : status;
}
