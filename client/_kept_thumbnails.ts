/**
 * Thumbnails of the images this tab sent, kept in sessionStorage by message
 * id: the runtime stores attachments without their content, so this is how
 * the same tab shows them again after a reload. Best effort: a full or
 * missing storage just means no thumbnail.
 *
 * @module
 */
import type { AttachmentSummary } from "./state.ts";

const key = (messageId: string) => `tether:thumbnails:${messageId}`;

/**
 * Keeps the thumbnails of a sent message's attachments.
 *
 * @example
 * ```ts
 * keepThumbnails("m-1", [{ kind: "image", thumbnail: "data:image/jpeg;base64,..." }]);
 * ```
 */
export function keepThumbnails(messageId: string, list: AttachmentSummary[]): void {
  if (!list.some((a) => a.thumbnail)) return;
  try {
    sessionStorage.setItem(key(messageId), JSON.stringify(list.map((a) => a.thumbnail ?? 0)));
  } catch {
    // No storage, or it is full.
  }
}

/**
 * The summaries with the thumbnails this tab kept for that message put back.
 *
 * @example
 * ```ts
 * withKeptThumbnails("m-1", [{ kind: "image", name: "photo.png" }])[0].thumbnail;
 * ```
 */
export function withKeptThumbnails(
  messageId: string,
  list: AttachmentSummary[],
): AttachmentSummary[] {
  try {
    const kept = JSON.parse(sessionStorage.getItem(key(messageId)) ?? "[]");
    return list.map((a, i) => (kept[i] && !a.thumbnail ? { ...a, thumbnail: kept[i] } : a));
  } catch {
    return list;
  }
}
