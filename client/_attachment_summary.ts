/**
 * What the state keeps of a sent attachment: its kind and labels, and for
 * an image a small thumbnail, never the content itself (which may be
 * megabytes and is with the runtime already).
 *
 * @module
 */
import type { AttachmentInput } from "./_protocol.ts";
import type { AttachmentSummary } from "./state.ts";

/** A JPEG data URI of `uri` at most `size` pixels on its longer side; undefined when it cannot be drawn. */
async function thumbnail(uri: string, size = 96): Promise<string | undefined> {
  try {
    const image = new Image();
    image.src = uri;
    await image.decode();
    const scale = Math.min(1, size / Math.max(image.naturalWidth, image.naturalHeight));
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(image.naturalWidth * scale));
    canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
    canvas.getContext("2d")!.drawImage(image, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL("image/jpeg", 0.8);
  } catch {
    return undefined;
  }
}

/**
 * Summaries of the reference attachments in `list`, duplicates dropped as
 * the runtime drops them (screenshots are left out: the runtime does not keep them).
 *
 * @example
 * ```ts
 * const [photo] = await summarizeAttachments([{ kind: "image", name: "receipt", data_uri: uri }]);
 * photo.thumbnail; // "data:image/jpeg;base64,..."
 * ```
 */
export function summarizeAttachments(list: AttachmentInput[] = []): Promise<AttachmentSummary[]> {
  const seen = new Set<string>();
  return Promise.all(
    list.filter((a) => {
      // Stored attachments come without content: those are never duplicates.
      const content = a.data_uri ?? a.url ?? a.text;
      const id = `${a.purpose ?? "reference"}|${content}`;
      return a.purpose !== "screenshot" &&
        (content === undefined || (!seen.has(id) && seen.add(id)));
    }).map(async (a) => {
      const summary: AttachmentSummary = { kind: a.kind ?? "image" };
      if (a.name) summary.name = a.name;
      if (a.media_type) summary.mediaType = a.media_type;
      const small = summary.kind === "image" && a.data_uri && globalThis.document &&
        await thumbnail(a.data_uri);
      if (small) summary.thumbnail = small;
      return summary;
    }),
  );
}
