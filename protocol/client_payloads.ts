/**
 * Payloads of `assistant_join_session` and `assistant_cancel`.
 *
 * @module
 */
import * as z from "zod/mini";
import { sessionIdSchema } from "./_id.ts";
import { contractObject } from "./_keys.ts";
import { runSchema, type Wording } from "./_zod_result.ts";
import { type HostContext, hostContextSchema } from "./host_context.ts";
import type { Result } from "./issues.ts";

/**
 * `assistant_join_session`: attach to a session's events, optionally with a host context.
 *
 * @example
 * ```ts
 * const join: JoinSession = { session_id: "s-1", host_context: { version: 1, view: { name: "tasks" } } };
 * ```
 */
export interface JoinSession {
  /** The session to attach to, 1-64 characters. */
  session_id: string;
  /** The host's current context, canonical; stored as the session's last context. */
  host_context?: HostContext;
}

/**
 * `assistant_cancel`: cancel the session's running turn.
 *
 * @example
 * ```ts
 * const cancel: CancelSession = { session_id: "s-1" };
 * ```
 */
export interface CancelSession {
  /** The session whose turn to cancel. */
  session_id: string;
}

const joinSchema: z.ZodMiniType<JoinSession, unknown> = contractObject({
  session_id: sessionIdSchema(),
  host_context: z.optional(hostContextSchema),
});

const cancelSchema: z.ZodMiniType<CancelSession, unknown> = contractObject({
  session_id: sessionIdSchema(),
});

const JOIN: Wording = {
  root: "assistant_join_session",
  subject: "the assistant_join_session payload",
};
const CANCEL: Wording = { root: "assistant_cancel", subject: "the assistant_cancel payload" };

/**
 * Validates an `assistant_join_session` payload; never throws.
 *
 * @example
 * ```ts
 * const result = parseJoinSession({ sessionId: "s-1" });
 * if (result.ok) socket.join(result.value.session_id);
 * ```
 */
export function parseJoinSession(input: unknown): Result<JoinSession> {
  return runSchema(joinSchema, input, JOIN);
}

/**
 * Validates an `assistant_cancel` payload; never throws.
 *
 * @example
 * ```ts
 * const result = parseCancelSession({ session_id: "s-1" });
 * if (!result.ok) socket.emit("assistant:error", { type: "validation", message: formatIssues(result.issues) });
 * ```
 */
export function parseCancelSession(input: unknown): Result<CancelSession> {
  return runSchema(cancelSchema, input, CANCEL);
}
