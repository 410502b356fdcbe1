/**
 * The wire shapes of GET /api/sessions/{id} and its messages.
 *
 * @module
 */
import type { SessionView } from "../../protocol/mod.ts";
import { pendingActionView } from "./pending.ts";
import type { SessionRecord, StoredMessage } from "./records.ts";

export type { SessionView };

/**
 * The session summary a client reads after a reload.
 *
 * @example
 * ```ts
 * sessionView(record, 4, false).has_pending_tool_call;
 * ```
 */
export function sessionView(
  record: SessionRecord,
  messageCount: number,
  turnRunning: boolean,
): SessionView {
  const p = record.pending_action;
  return {
    session_id: record.session_id,
    owner_id: record.owner_id,
    turn_number: record.turn_number,
    has_pending_tool_call: !!p,
    pending_action: p ? pendingActionView(p) : null,
    message_count: messageCount,
    turn_running: turnRunning,
  };
}

/**
 * One stored message as GET /api/sessions/{id}/messages shows it.
 *
 * @example
 * ```ts
 * messageView(message).role;
 * ```
 */
export function messageView(message: StoredMessage): Record<string, unknown> {
  if (message.role === "user") {
    return {
      id: message.id,
      role: "user",
      turn: message.turn,
      created_at: message.created_at,
      content: message.content,
      message_type: message.message_type,
      attachments: message.attachments,
    };
  }
  return {
    id: message.id,
    role: "assistant",
    turn: message.turn,
    created_at: message.created_at,
    content: message.output_mode === "host_tools" ? null : message.text,
    output_mode: message.output_mode,
    status: message.status,
    decision: message.decision ?? null,
    model: message.model,
    tool_calls: message.calls.map((c) => ({
      call_id: c.call_id,
      tool_name: c.tool_name,
      category: c.category,
      arguments: c.arguments,
      status: c.status,
      result: c.result,
      error: c.error,
    })),
    ...(message.error ? { error: message.error, error_type: message.error_type } : {}),
  };
}
