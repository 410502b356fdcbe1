/**
 * `error_type`: why a turn failed, on `final_response` and `assistant:error`.
 *
 * @module
 */

/**
 * Every `error_type` value the runtime sends.
 *
 * @example
 * ```ts
 * ERROR_TYPES.includes("usage_limit"); // true
 * ```
 */
export const ERROR_TYPES = [
  "rate_limit",
  "provider_error",
  "connection_error",
  "timeout",
  "provider_auth",
  "provider_client_error",
  "usage_limit",
  "cancelled",
  "session_error",
  "forbidden",
  "setup_error",
  "internal",
  "invalid_decision",
] as const;

/**
 * One of {@linkcode ERROR_TYPES}.
 *
 * @example
 * ```ts
 * const reason: ErrorType = "session_error";
 * ```
 */
export type ErrorType = (typeof ERROR_TYPES)[number];

/**
 * The error types after which sending the same message again may succeed.
 *
 * @example
 * ```ts
 * RETRYABLE_ERROR_TYPES.includes("timeout"); // true
 * ```
 */
export const RETRYABLE_ERROR_TYPES = [
  "rate_limit",
  "provider_error",
  "connection_error",
  "timeout",
] as const satisfies readonly ErrorType[];

/**
 * True when a turn that failed with `errorType` may be retried.
 *
 * @example
 * ```ts
 * isRetryable("rate_limit"); // true
 * isRetryable("provider_auth"); // false
 * ```
 */
export function isRetryable(errorType: ErrorType | null | undefined): boolean {
  return (RETRYABLE_ERROR_TYPES as readonly string[]).includes(errorType ?? "");
}
