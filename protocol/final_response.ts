/**
 * The end of a turn: `assistant:final_response`, with the pending call or
 * the silent decision it may carry.
 *
 * @module
 */
import type { ErrorType } from "./error_type.ts";
import type { Sequenced } from "./events.ts";
import type { PendingToolCall } from "./pending_kinds.ts";

/**
 * The outcome of a silent host decision (`output_mode: "host_tools"`).
 *
 * @example
 * ```ts
 * const act = (decision: Decision) => decision === "pending";
 * ```
 */
export type Decision = "hold" | "pending" | "completed";

/**
 * Token and request counts of a turn, as the runtime reports them.
 *
 * @example
 * ```ts
 * const usage: Usage = { input_tokens: 1200, output_tokens: 80, requests: 1 };
 * ```
 */
export type Usage = Record<string, unknown>;

/**
 * `assistant:final_response`: the turn's result; `content` is null in host_tools mode.
 *
 * @example
 * ```ts
 * const waiting = (event: FinalResponse) => event.pending_tool_call != null;
 * ```
 */
export interface FinalResponse extends Sequenced {
  type: "final_response";
  content: string | null;
  model: string | null;
  streamed: boolean;
  session_id: string;
  message_id: string;
  usage?: Usage | null;
  decision?: Decision | null;
  pending_tool_call?: PendingToolCall | null;
  error?: string | null;
  error_type?: ErrorType | null;
}
