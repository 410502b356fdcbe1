/**
 * The composer of `<tether-chat>`: the text area, the attachment chips, the
 * attach button, and Send or Stop. A template over the chat's state and
 * callbacks; the chat keeps the state.
 *
 * @module
 */
import { html, nothing, type TemplateResult } from "lit";
import type { AttachmentInput } from "../client/mod.ts";

/** What the composer shows and whom it tells. */
export interface ComposerModel {
  /** A host action or a confirmation is open: nothing new may be sent. */
  locked: boolean;
  /** A turn runs or the composer is locked: Stop replaces Send. */
  busy: boolean;
  /** Send is possible at all (the chat has a host). */
  ready: boolean;
  placeholder: string;
  /** What the locked composer says instead (default: wait for the action on the page). */
  lockedPlaceholder?: string;
  attachments: readonly AttachmentInput[];
  submit(e: Event): void;
  keydown(e: KeyboardEvent): void;
  paste(e: ClipboardEvent): void;
  files(files: Iterable<File>): void;
  remove(index: number): void;
  stop(): void;
}

const paperclip = html`
  <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
    <path
      d="M20 11.5l-8 8a5 5 0 01-7-7l8.5-8.5a3.3 3.3 0 014.7 4.7l-8.5 8.5a1.7 1.7 0 01-2.4-2.4l7.7-7.7"
      fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
  </svg>
`;

/**
 * Renders the composer form.
 *
 * @example
 * ```ts
 * html`${renderComposer({ locked, busy, ready: true, placeholder, attachments, ...callbacks })}`;
 * ```
 */
export function renderComposer(m: ComposerModel): TemplateResult {
  const pick = (e: Event) =>
    (e.currentTarget as HTMLElement).parentElement?.querySelector("input")?.click();
  return html`<form part="composer" @submit=${m.submit}>
    ${
    m.attachments.length
      ? html`<div class="chips">${
        m.attachments.map((a, i) =>
          html`<span class="chip">${a.name ?? a.kind}<button
          type="button" aria-label=${`Remove ${a.name ?? "attachment"}`} @click=${() =>
            m.remove(i)}>×</button></span>`
        )
      }</div>`
      : nothing
  }
    <textarea part="input" rows="2" aria-label="Message" ?readonly=${m.locked} aria-disabled=${
    m.locked ? "true" : "false"
  }
      placeholder=${
    m.locked ? m.lockedPlaceholder ?? "Wait until the action on the page settles…" : m.placeholder
  }
      @keydown=${m.keydown} @paste=${m.paste}></textarea>
    <div class="row">
      <input type="file" multiple tabindex="-1" aria-hidden="true"
        @change=${(e: Event) => m.files((e.target as HTMLInputElement).files ?? [])} />
      <button part="attach" type="button" aria-label="Attach an image or file" ?disabled=${m.locked} @click=${pick}>${paperclip}</button>
      <span class="spacer"></span>
      ${
    m.busy
      ? html`<button part="stop" type="button" class="danger" @click=${m.stop}>Stop</button>`
      : html`<button part="send" type="submit" class="primary" ?disabled=${!m.ready}>Send</button>`
  }
    </div>
  </form>`;
}
