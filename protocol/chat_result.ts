/**
 * The non-streaming result of POST /api/chat.
 *
 * @module
 */
import type { Decision, Usage } from "./final_response.ts";
import type { PendingToolCall } from "./pending_kinds.ts";

/**
 * What POST /api/chat returns when not streaming.
 *
 * `content` is null and `decision` set in host_tools mode; otherwise `decision` is null.
 *
 * @example
 * ```ts
 * const result: ChatResult = await (await fetch("/api/chat", { method: "POST", body })).json();
 * if (result.pending_tool_call) await perform(result.pending_tool_call);
 * ```
 */
export interface ChatResult {
  /** The answer text; null in host_tools mode. */
  content: string | null;
  /** hold, pending or completed in host_tools mode; null otherwise. */
  decision: Decision | null;
  /** The model that answered. */
  model: string | null;
  /** The session. */
  session_id: string;
  /** The session's turn counter after this turn. */
  turn_number: number;
  /** The assistant message this turn wrote. */
  message_id: string;
  /** Token and request counts. */
  usage: Usage | null;
  /** The pending call the turn ended on (for the host, a confirmation or an approval), if any. */
  pending_tool_call: PendingToolCall | null;
}
