/**
 * Transport errors: a refused request on a streaming transport becomes one
 * `assistant:error` payload of type `validation`, `forbidden`, `session` or
 * `internal` (docs/runtime-wire.md), sent only to the client that asked.
 *
 * @module
 */
import { TetherError } from "../http/errors.ts";
import type { Logger } from "../log.ts";

/**
 * The payload of an `assistant:error` that refuses a request (it has no `seq`: it is not a session event).
 *
 * @example
 * ```ts
 * const refusal: TransportErrorPayload = { type: "forbidden", message: "Session s1 belongs to another principal." };
 * ```
 */
export interface TransportErrorPayload {
  type: "validation" | "forbidden" | "session" | "internal";
  message: string;
  /** `session_error` on session refusals, as the contract promises continuation refusals carry. */
  error_type?: "session_error";
  session_id?: string;
  [extra: string]: unknown;
}

const TYPES: Record<string, TransportErrorPayload["type"]> = {
  validation: "validation",
  payload_too_large: "validation",
  forbidden: "forbidden",
  unauthorized: "forbidden",
  session_error: "session",
  not_found: "session",
};

/**
 * Words any thrown value as a transport error payload; unknown errors become `internal`.
 *
 * @example
 * ```ts
 * socket.emit("assistant:error", transportError(error, "s1", log));
 * ```
 */
export function transportError(
  error: unknown,
  sessionId?: string,
  logger?: Pick<Logger, "error">,
): TransportErrorPayload {
  const where = sessionId ? { session_id: sessionId } : {};
  if (error instanceof TetherError) {
    const type = TYPES[error.type] ?? "internal";
    return {
      ...error.extra,
      type,
      message: error.message,
      ...(type === "session" ? { error_type: "session_error" as const } : {}),
      ...where,
    };
  }
  logger?.error("internal error on a streaming transport", { session_id: sessionId, error });
  return {
    type: "internal",
    message: "The runtime failed on this request; it has been logged.",
    ...where,
  };
}

/**
 * A validation refusal naming the problem.
 *
 * @example
 * ```ts
 * throw invalid("after must be a non-negative integer (the last seq seen).", "after");
 * ```
 */
export function invalid(message: string, path = ""): TetherError {
  return new TetherError(422, "validation", message, { issues: [{ path, message }] });
}
