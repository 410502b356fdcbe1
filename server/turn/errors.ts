/**
 * Classifies what ended a turn into the wire `error_type` values.
 *
 * @module
 */
import { APICallError } from "ai";

/** The wire error types a turn can end with. */
export type TurnErrorType =
  | "rate_limit"
  | "provider_error"
  | "connection_error"
  | "timeout"
  | "provider_auth"
  | "provider_client_error"
  | "usage_limit"
  | "cancelled"
  | "session_error"
  | "forbidden"
  | "setup_error"
  | "internal"
  | "invalid_decision";

/** An error that ends a turn with a given type. */
export class TurnError extends Error {
  override name = "TurnError";
  readonly type: TurnErrorType;
  constructor(type: TurnErrorType, message: string) {
    super(message);
    this.type = type;
  }
}

const RETRYABLE = new Set<TurnErrorType>([
  "rate_limit",
  "provider_error",
  "connection_error",
  "timeout",
]);

/** Whether a client may retry after this error type. */
export const retryAllowed = (type: TurnErrorType) => RETRYABLE.has(type);

/**
 * Maps any thrown value to a turn error.
 *
 * @example
 * ```ts
 * classify(new TurnError("usage_limit", "Too many tool calls.")).type; // "usage_limit"
 * ```
 */
export function classify(error: unknown): TurnError {
  if (error instanceof TurnError) return error;
  const cause = (error as { cause?: unknown })?.cause;
  const api = APICallError.isInstance(error)
    ? error
    : APICallError.isInstance(cause)
    ? cause
    : null;
  if (api) {
    const status = api.statusCode ?? 0;
    if (status === 429) {
      return new TurnError(
        "rate_limit",
        "The model provider is rate limiting requests; retry shortly.",
      );
    }
    if (status === 401 || status === 403) {
      return new TurnError(
        "provider_auth",
        "The model provider refused the credentials; check the API key.",
      );
    }
    if (status === 408) return new TurnError("timeout", "The model provider timed out; retry.");
    if (status >= 400 && status < 500) {
      return new TurnError(
        "provider_client_error",
        `The model provider rejected the request (${status}).`,
      );
    }
    if (status >= 500) {
      return new TurnError("provider_error", `The model provider failed (${status}); retry.`);
    }
    return new TurnError("connection_error", "The model provider could not be reached; retry.");
  }
  const name = (error as Error)?.name;
  if (name === "AbortError") return new TurnError("cancelled", "The turn was cancelled.");
  if (name === "TimeoutError") {
    return new TurnError("timeout", "The model request timed out; retry.");
  }
  const message = (error as Error)?.message ?? String(error);
  if (/ECONNREFUSED|ENOTFOUND|fetch failed|network/i.test(message)) {
    return new TurnError("connection_error", "The model provider could not be reached; retry.");
  }
  // The cause stays in the server's log: its text may name internals a client must not see.
  return new TurnError(
    "internal",
    "The turn failed inside the runtime; the cause is in the server log.",
  );
}
