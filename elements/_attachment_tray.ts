/**
 * The attachments waiting in `<tether-chat>`'s composer: files picked or
 * pasted, read into reference attachments, shown as chips until the message
 * is sent or the user removes them.
 *
 * @module
 */
import type { AttachmentInput } from "../client/mod.ts";
import { fileAttachment } from "./_file_attachment.ts";

/**
 * The composer's pending attachments; `changed` re-renders, `failed` reports a file that could not be read.
 *
 * @example
 * ```ts
 * const tray = new AttachmentTray(() => this.requestUpdate(), (message) => this.#show(message));
 * textarea.addEventListener("paste", (e) => tray.paste(e));
 * await host.send(text, { attachments: tray.take() });
 * ```
 */
export class AttachmentTray {
  #items: AttachmentInput[] = [];
  #changed: () => void;
  #failed: (message: string) => void;

  constructor(changed: () => void, failed: (message: string) => void) {
    this.#changed = changed;
    this.#failed = failed;
  }

  /** The attachments waiting, in the order they were added. */
  get items(): readonly AttachmentInput[] {
    return this.#items;
  }

  /** Reads files into attachments; a file that is too big or unreadable is reported and skipped. */
  async add(files: Iterable<File>): Promise<void> {
    for (const file of [...files]) {
      try {
        this.#items = [...this.#items, await fileAttachment(file)];
      } catch (error) {
        this.#failed((error as Error).message);
      }
    }
    this.#changed();
  }

  /** Takes the files of a paste event (text pastes are left to the text area). */
  paste(e: ClipboardEvent): void {
    const files = [...(e.clipboardData?.files ?? [])];
    if (!files.length) return;
    e.preventDefault();
    void this.add(files);
  }

  /** Removes the attachment at `index`. */
  remove(index: number): void {
    this.#items = this.#items.filter((_, i) => i !== index);
    this.#changed();
  }

  /** Hands the attachments over (to a message being sent) and empties the tray. */
  take(): AttachmentInput[] {
    const items = this.#items;
    this.#items = [];
    this.#changed();
    return items;
  }
}
