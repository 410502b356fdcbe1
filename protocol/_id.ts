/**
 * The bounded identifiers of the wire (message, session and tool call ids).
 *
 * @module
 */
import * as z from "zod/mini";

/** A string of 1 to `max` characters, with messages that name `field`. */
export function idSchema(field: string, max = 64) {
  return z.string().check(
    z.minLength(1, { error: `${field} must not be empty; send 1 to ${max} characters.` }),
    z.maxLength(max, { error: `${field} is longer than ${max} characters; send a shorter one.` }),
  );
}

/**
 * The characters a session id may use: 1 to 64 letters, digits, `.`, `_`, `:` or `-`.
 * Session ids travel into URLs, room names, store keys and log lines, so no
 * whitespace, control character, slash or quote can reach any of them.
 *
 * @example
 * ```ts
 * SESSION_ID.test("demo-1"); // true
 * SESSION_ID.test("a\r\nb"); // false
 * ```
 */
export const SESSION_ID: RegExp = /^[A-Za-z0-9._:-]{1,64}$/;

/** The message of a session id outside {@linkcode SESSION_ID}; names the field. */
export const SESSION_ID_RULE =
  "session_id may only hold letters, digits, '.', '_', ':' and '-' (1 to 64 of them); choose such an id.";

/** The zod schema of `session_id`: its length, then its characters. */
export function sessionIdSchema() {
  return idSchema("session_id").check(z.regex(SESSION_ID, { error: SESSION_ID_RULE }));
}
