/**
 * Errors the runtime answers with: each carries its HTTP status, the wire
 * error type and a message in one sentence.
 *
 * @module
 */

/** The wire error types of refusals. */
export type ErrorType =
  | "validation"
  | "forbidden"
  | "unauthorized"
  | "session_error"
  | "conflict"
  | "not_found"
  | "payload_too_large"
  | "request_timeout"
  | "busy"
  | "internal";

/**
 * A refusal with its HTTP status and wire type.
 *
 * @example
 * ```ts
 * throw new TetherError(409, "session_error", "Session s1 has no pending call.");
 * ```
 */
export class TetherError extends Error {
  override name = "TetherError";
  readonly status: number;
  readonly type: ErrorType;
  readonly extra: Record<string, unknown>;
  constructor(
    status: number,
    type: ErrorType,
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.status = status;
    this.type = type;
    this.extra = extra;
  }
  /** The JSON body of the HTTP answer. */
  toJSON(): { error: Record<string, unknown> } {
    return { error: { type: this.type, message: this.message, ...this.extra } };
  }
}

/** A 409 session error. */
export const sessionError = (message: string, extra: Record<string, unknown> = {}) =>
  new TetherError(409, "session_error", message, extra);

/** A 403 for a session of another principal. */
export const forbidden = (sessionId: string) =>
  new TetherError(403, "forbidden", `Session ${sessionId} belongs to another principal.`);

/** A 404 for an unknown session. */
export const notFound = (sessionId: string) =>
  new TetherError(404, "not_found", `Session ${sessionId} does not exist.`);

/** A 422 naming the invalid fields. */
export const validationError = (
  message: string,
  issues: { path: string; message: string }[] = [],
) => new TetherError(422, "validation", message, { issues });
