/**
 * An evaluation's context as Zentinelle's engine reads it before any policy
 * does: `schema_version`, when present, must be the number 1; the text
 * fields must be text (`tool_outputs` and `rag_context` may be a list of
 * texts, a single text becomes a list of one); `_`-prefixed fields are the
 * engine's own and are dropped from what the caller sent. A context that
 * breaks these rules is a denial with the reason, not a 400, as in
 * Zentinelle.
 *
 * @module
 */

/** The normalised context, or the reason it cannot be evaluated. */
export type NormalizedContext =
  | { ok: true; context: Record<string, unknown> }
  | { ok: false; reason: string };

/**
 * Normalises a context for evaluation.
 *
 * @example
 * ```ts
 * normalizeContext({ tool_name: "Bash", _secret: 1 }); // { ok: true, context: { tool_name: "Bash" } }
 * ```
 */
export function normalizeContext(value: Record<string, unknown>): NormalizedContext {
  const version = value.schema_version;
  if (version !== undefined && !(typeof version === "number" && version === 1)) {
    return { ok: false, reason: "Unsupported evaluation context schema_version" };
  }
  const context: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (!key.startsWith("_")) context[key] = v;
  for (const key of ["input_text", "output_text"]) {
    if (key in context && typeof context[key] !== "string") {
      return { ok: false, reason: `${key} must be text` };
    }
  }
  for (const key of ["tool_outputs", "rag_context"]) {
    if (!(key in context)) continue;
    const items = context[key];
    if (typeof items === "string") context[key] = [items];
    else if (!Array.isArray(items) || items.some((i) => typeof i !== "string")) {
      return { ok: false, reason: `${key} must be text or a list of texts` };
    }
  }
  return { ok: true, context };
}
