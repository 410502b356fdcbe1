/**
 * Turns a picked or pasted file into a reference attachment: images as
 * `image`, text files as `text`, everything else as `document`, each as a
 * data URI within the contract's size limit.
 *
 * @module
 */
import type { AttachmentInput } from "../client/mod.ts";

/**
 * The largest file accepted: its data URI stays under the contract's 12,000,000 characters.
 *
 * @example
 * ```ts
 * if (file.size > MAX_FILE_BYTES) console.warn("too big to attach");
 * ```
 */
export const MAX_FILE_BYTES = 8_000_000;

function dataUri(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read."));
    reader.readAsDataURL(file);
  });
}

/**
 * The reference attachment for a file; rejects a file over `MAX_FILE_BYTES`.
 *
 * @example
 * ```ts
 * const attachment = await fileAttachment(input.files[0]);
 * await host.send("What is on this receipt?", { attachments: [attachment] });
 * ```
 */
export async function fileAttachment(file: File): Promise<AttachmentInput> {
  if (file.size > MAX_FILE_BYTES) {
    throw new RangeError(
      `${file.name || "The file"} is ${Math.round(file.size / 1e6)} MB; attach files up to ${
        MAX_FILE_BYTES / 1e6
      } MB.`,
    );
  }
  const type = file.type || "application/octet-stream";
  const kind = type.startsWith("image/") ? "image" : type.startsWith("text/") ? "text" : "document";
  const attachment: AttachmentInput = {
    kind,
    purpose: "reference",
    media_type: type,
    data_uri: await dataUri(file),
  };
  if (file.name) attachment.name = file.name;
  return attachment;
}
