/**
 * New session records and assistant messages, with their ids and times.
 *
 * @module
 */
import type { Principal } from "../http/principal.ts";
import type { AssistantMessage, SessionRecord } from "./records.ts";

/** The current time as the store keeps it. */
export const now = (): string => new Date().toISOString();

/**
 * A fresh id with a prefix, like `msg_3f2a…`.
 *
 * @example
 * ```ts
 * newId("msg"); // "msg_9b1c2d…"
 * ```
 */
export const newId = (prefix: string): string =>
  `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;

/**
 * The record of a session that the principal creates now.
 *
 * @example
 * ```ts
 * const record = newSessionRecord({ id: "local", roles: [] }, "s1");
 * ```
 */
export function newSessionRecord(principal: Principal, sessionId: string): SessionRecord {
  return {
    session_id: sessionId,
    owner_id: principal.id,
    created_at: now(),
    turn_number: 0,
    message_count: 0,
    host_context: null,
    pending_action: null,
  };
}

/**
 * An empty assistant message for a turn.
 *
 * @example
 * ```ts
 * const assistant = newAssistantMessage(1, "text", "offline");
 * ```
 */
export function newAssistantMessage(
  turn: number,
  mode: "text" | "host_tools",
  model: string,
): AssistantMessage {
  return {
    role: "assistant",
    id: newId("msg"),
    turn,
    created_at: now(),
    output_mode: mode,
    steps: [],
    calls: [],
    text: "",
    status: "running",
    model,
  };
}
