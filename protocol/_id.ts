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
