/**
 * Attachments of a message: message-level first, then the context's, with
 * duplicates dropped; and the quota on what one session keeps of them.
 *
 * @module
 */
import type { Attachment } from "../../protocol/mod.ts";
import { TetherError } from "../http/errors.ts";
import type { SessionRecord } from "./records.ts";

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

/** Characters of content an attachment keeps in a stored message (screenshots are not stored). */
const keptChars = (a: Attachment): number =>
  a.purpose === "screenshot" ? 0 : (a.data_uri ?? a.url ?? a.text ?? "").length;

/**
 * The session's attachment total once `attachments` are kept too; a 413 naming `attachments`
 * when that passes `limit` (`LIMITS__MAX_SESSION_ATTACHMENT_CHARS`), before anything is stored.
 *
 * @example
 * ```ts
 * const total = chargeAttachments(record, [{ kind: "text", purpose: "reference", text: "hi" }], 48_000_000);
 * const next = { ...record, attachment_chars: total };
 * ```
 */
export function chargeAttachments(
  record: Pick<SessionRecord, "session_id" | "attachment_chars">,
  attachments: readonly Attachment[],
  limit: number,
): number {
  const before = record.attachment_chars ?? 0;
  const added = attachments.reduce((n, a) => n + keptChars(a), 0);
  if (!added || before + added <= limit) return before + added;
  const text = `Session ${record.session_id} keeps ${before} characters of attachments and this ` +
    `message adds ${added}, over the ${limit} one session may keep ` +
    "(LIMITS__MAX_SESSION_ATTACHMENT_CHARS); start a new conversation or send the content by url.";
  throw new TetherError(413, "payload_too_large", text, {
    issues: [{ path: "attachments", message: text }],
  });
}
