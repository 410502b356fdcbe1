/**
 * One answer of Zentinelle as the client reads it, and the reason a
 * refusal gives, whatever shape Zentinelle gave it.
 *
 * @module
 */

/** One answer of Zentinelle: the status and the parsed body (undefined when it was not JSON). */
export interface ZentinelleReply {
  status: number;
  body: unknown;
}

/**
 * What a refusal body says, in one line: DRF's `detail`, an `error`, a
 * deny's `reason`, or the first field error (`user_id: Ensure this field ...`).
 *
 * @example
 * ```ts
 * reasonOf({ detail: "Invalid API key" }); // "Invalid API key"
 * reasonOf({ user_id: ["Ensure this field has no more than 255 characters."] }); // "user_id: Ensure ..."
 * ```
 */
export function reasonOf(body: unknown): string {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return "";
  const b = body as Record<string, unknown>;
  for (const key of ["detail", "reason", "error"]) {
    if (typeof b[key] === "string" && b[key]) {
      const nested = key === "error" ? fieldErrors(b.context) : "";
      return nested ? `${b[key]}: ${nested}` : b[key] as string;
    }
  }
  return fieldErrors(b);
}

function fieldErrors(value: unknown): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "";
  for (const [field, messages] of Object.entries(value)) {
    if (Array.isArray(messages) && typeof messages[0] === "string") {
      return `${field}: ${messages[0]}`;
    }
  }
  return "";
}
