/**
 * `simpleBody()`: the canonical form of the commonest message bodies, made
 * without zod. A body that holds only plain fields (`id`, `session_id`,
 * `content`, `message_type`, `output_mode`, `tool_call_id`, `tool_result`,
 * `tool_outcome`), each spelled in snake_case, none null and every one
 * valid, gets exactly what `parseMessageBody()` returns for it, keys in the
 * same order. Anything else (another field, a camelCase spelling, a null, a
 * value the contract refuses) gets null, and the whole parse decides and
 * words its issues. On Node 20 the zod parse of a two-field body cost about
 * 10 µs; this check costs well under one.
 *
 * @module
 */
import { type MessageBody, SESSION_ID } from "../../protocol/mod.ts";

const FIELDS = new Set([
  "id",
  "session_id",
  "content",
  "message_type",
  "output_mode",
  "tool_call_id",
  "tool_result",
  "tool_outcome",
]);

const isId = (value: unknown, max: number) =>
  typeof value === "string" && value.length >= 1 && value.length <= max;

/**
 * The canonical form of `raw` when it is a simple, valid body; null when the whole parse must decide.
 *
 * @example
 * ```ts
 * simpleBody({ session_id: "s-1", content: "hi" });
 * // { session_id: "s-1", content: "hi", message_type: "standard", output_mode: "text", attachments: [] }
 * simpleBody({ sessionId: "s-1", content: "hi" }); // null: the whole parse takes aliases
 * ```
 */
export function simpleBody(raw: unknown): MessageBody | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const body = raw as Record<string, unknown>;
  for (const key of Object.keys(body)) {
    if (!FIELDS.has(key) || body[key] === null) return null;
  }
  const { id, session_id, content, message_type, output_mode, tool_call_id, tool_outcome } = body;
  if (id !== undefined && !isId(id, 64)) return null;
  if (typeof session_id !== "string" || !SESSION_ID.test(session_id)) return null;
  if (typeof content !== "string") return null;
  if (message_type !== undefined && message_type !== "standard" && message_type !== "steering") {
    return null;
  }
  if (output_mode !== undefined && output_mode !== "text" && output_mode !== "host_tools") {
    return null;
  }
  if (tool_outcome !== undefined && tool_outcome !== "success" && tool_outcome !== "failed") {
    return null;
  }
  if (tool_call_id === undefined) {
    // An outcome or a result without the call it answers is an issue the whole parse words.
    if (tool_outcome !== undefined || body.tool_result !== undefined) return null;
  } else if (!isId(tool_call_id, 256)) return null;
  // The order parseMessageBody() gives: the fields in schema order, then attachments, then the
  // continuation's defaults.
  const out: Record<string, unknown> = {};
  if (id !== undefined) out.id = id;
  out.session_id = session_id;
  out.content = content;
  out.message_type = message_type ?? "standard";
  out.output_mode = output_mode ?? "text";
  if (tool_call_id !== undefined) out.tool_call_id = tool_call_id;
  if (body.tool_result !== undefined) out.tool_result = body.tool_result;
  if (tool_outcome !== undefined) out.tool_outcome = tool_outcome;
  out.attachments = [];
  if (tool_call_id !== undefined) {
    out.tool_result ??= null;
    out.tool_outcome ??= "success";
  }
  return out as unknown as MessageBody;
}
