/**
 * Attachments of a message: message-level first, then the context's, with
 * duplicates dropped.
 *
 * @module
 */
import type { Attachment } from "../../protocol/mod.ts";

/**
 * Merges message and context attachments, message-level first, dropping duplicates.
 *
 * @example
 * ```ts
 * mergeAttachments([a], [a, b]); // [a, b]
 * ```
 */
export function mergeAttachments(message: Attachment[], context: Attachment[]): Attachment[] {
  const seen = new Set<string>();
  const out: Attachment[] = [];
  for (const a of [...message, ...context]) {
    const key = `${a.purpose ?? "reference"}|${a.data_uri ?? a.url ?? a.text ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(a);
  }
  return out;
}
