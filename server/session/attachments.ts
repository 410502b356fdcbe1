/**
 * Attachments of a message: message-level first, then the context's, with
 * duplicates dropped; the latest screenshot among them.
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

/**
 * The last screenshot data URI among attachments, if any.
 *
 * @example
 * ```ts
 * collectScreenshot([{ kind: "image", purpose: "screenshot", data_uri: "data:image/png;base64,AA==" }]);
 * ```
 */
export function collectScreenshot(
  attachments: { purpose?: string; data_uri?: string }[],
): string | undefined {
  let shot: string | undefined;
  for (const a of attachments) if (a.purpose === "screenshot" && a.data_uri) shot = a.data_uri;
  return shot;
}
