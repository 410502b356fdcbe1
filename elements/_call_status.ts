/**
 * The status a tool call card shows: the state's status, with `completed`
 * said as done and a host call still waiting for its page shown as running;
 * a call waiting for the user's Apply, a call held for an approver and a
 * call the policy denied each have their own.
 *
 * @module
 */
import type { ToolCallState } from "../client/mod.ts";

/** What a tool call card says about a call. */
export type CallStatus =
  | "running"
  | "confirming"
  | "held"
  | "done"
  | "failed"
  | "denied"
  | "cancelled"
  | "superseded"
  | "unknown";

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
  if (status === "pending") {
    return call.waitingFor === "approval"
      ? "held"
      : call.waitingFor === "confirmation"
      ? "confirming"
      : "running";
  }
  if (status === "failed" && call.denied) return "denied";
  return status === "completed" ? "done" : status;
}
