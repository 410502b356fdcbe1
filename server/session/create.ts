/**
 * New session records and assistant messages, with their ids and times.
 *
 * @module
 */
import type { Principal } from "../http/principal.ts";
import type { AssistantMessage, SessionRecord } from "./records.ts";

// The text of the last millisecond asked for: a turn asks several times within one.
let shownAt = NaN;
let shown = "";

/**
 * The current time as the store keeps it (ISO 8601, UTC, to the millisecond).
 *
 * @example
 * ```ts
 * now(); // "2026-12-01T12:00:00.000Z"
 * ```
 */
export function now(): string {
  const ms = Date.now();
  if (ms !== shownAt) {
    shownAt = ms;
    shown = new Date(ms).toISOString();
  }
  return shown;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
/** Random bytes drawn a block at a time: one call for 409 ids instead of one per id. */
const pool = new Uint8Array(4090);
let drawn = pool.length;

/**
 * A fresh id with a prefix and 80 random bits in hex, like `msg_3f2a…` (20 hex digits).
 *
 * @example
 * ```ts
 * newId("msg"); // "msg_9b1c2d…"
 * ```
 */
export function newId(prefix: string): string {
  if (drawn + 10 > pool.length) {
    crypto.getRandomValues(pool);
    drawn = 0;
  }
  let out = `${prefix}_`;
  for (const end = drawn + 10; drawn < end; drawn++) out += HEX[pool[drawn]];
  return out;
}

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
    generation: crypto.randomUUID(),
    turn_number: 0,
    message_count: 0,
    host_context: null,
    pending_action: null,
    // Listed in the caller's workspace (the runtime's default when it names none).
    ...(principal.workspace ? { listing: { workspace: principal.workspace } } : {}),
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
