/**
 * The two panels `<tether-chat>` can open beside the conversation: the
 * conversations (`threads` attribute) and the inspector (`inspect`
 * attribute). Each is its own chunk, fetched the first time it opens, so
 * neither is in the chat's first download. On a narrow chat a panel covers
 * the conversation; on a wide one it sits beside it.
 *
 * @module
 */
import { html, nothing, type TemplateResult } from "lit";
import type { Host } from "../client/mod.ts";
import { defineInspector, defineThreads } from "./lazy.ts";

/** What the panels need of their chat. */
export interface PanelHost {
  readonly host: Host | undefined;
  readonly theme: string | undefined;
  /** Whether the chat shows the Conversations button and may open the panel. */
  readonly threads: boolean;
  /** Whether the chat shows the Inspect button. */
  readonly inspect: boolean;
  requestUpdate(): void;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/** What the chat does for its panels. */
export interface PanelLink {
  /** Gives the focus back to the composer. */
  focusComposer(): void;
  /** Says that a panel could not load. */
  problem(message: string): void;
}

type Which = "threads" | "inspector";

const loaders: Record<Which, () => Promise<unknown>> = {
  threads: () => defineThreads(),
  inspector: () => defineInspector(),
};

/** The parts of `<tether-threads>` the chat passes on, so one stylesheet styles both. */
const THREAD_PARTS = [
  "panel:threads-panel",
  "header:threads-header",
  "heading:threads-heading",
  "new",
  "shelf",
  "shelf-button",
  "list",
  "thread",
  "thread-current",
  "thread-waiting",
  "open",
  "title",
  "meta",
  "badge",
  "rename",
  "archive",
  "input",
  "more",
  "empty",
  "error:threads-error",
].join(", ");

/**
 * Opens, loads and renders the chat's panels.
 *
 * @example
 * ```ts
 * #panels = new ChatPanels(this, { focusComposer: () => input.focus(), problem: show });
 * ```
 */
export class ChatPanels {
  #chat: PanelHost;
  #link: PanelLink;
  #open: Record<Which, boolean> = { threads: false, inspector: false };
  #loaded: Record<Which, Promise<unknown> | undefined> = {
    threads: undefined,
    inspector: undefined,
  };

  constructor(chat: PanelHost, link: PanelLink) {
    this.#chat = chat;
    this.#link = link;
  }

  /** Whether the panel is open. */
  isOpen(which: Which): boolean {
    return this.#open[which] && (which === "threads" ? this.#chat.threads : this.#chat.inspect);
  }

  /** Opens or closes a panel; the focus goes into it when it opens, back to its button when it closes. */
  async toggle(which: Which, open = !this.#open[which]): Promise<void> {
    this.#open[which] = open;
    // A narrow chat has room for one panel at a time.
    if (open && this.#narrow) this.#open[which === "threads" ? "inspector" : "threads"] = false;
    this.#chat.requestUpdate();
    if (!open) {
      this.#button(which)?.focus();
      return;
    }
    try {
      await (this.#loaded[which] ??= loaders[which]());
    } catch (error) {
      this.#loaded[which] = undefined;
      this.#open[which] = false;
      this.#link.problem(
        `The ${which === "threads" ? "conversations" : "inspector"} could not load: ${
          (error as Error).message
        }`,
      );
      this.#chat.requestUpdate();
      return;
    }
    const panel = this.#chat.renderRoot.querySelector<
      HTMLElement & { updateComplete?: Promise<unknown>; refresh?: () => void }
    >(
      which === "threads" ? "tether-threads" : "tether-inspector",
    );
    await panel?.updateComplete;
    panel?.refresh?.();
    panel?.focus();
  }

  /** Closes a panel that covers the conversation (a narrow chat) once a conversation was chosen. */
  switched(): void {
    if (this.#narrow) {
      this.#open.threads = false;
      this.#chat.requestUpdate();
    }
    this.#link.focusComposer();
  }

  /** Whether a panel covers the conversation (the chat's CSS does the same at this width). */
  get #narrow(): boolean {
    const main = this.#chat.renderRoot.querySelector<HTMLElement>(".main");
    return !!main && main.clientWidth < 640;
  }

  #button(which: Which): HTMLElement | null {
    return this.#chat.renderRoot.querySelector(
      `[part~="${which === "threads" ? "threads-toggle" : "inspect-toggle"}"]`,
    );
  }

  /** The header's buttons. */
  buttons(): TemplateResult | typeof nothing {
    const { threads, inspect } = this.#chat;
    if (!threads && !inspect) return nothing;
    const button = (which: Which, part: string, label: string) =>
      html`
        <button part=${part} class="toggle" type="button" aria-expanded=${this.isOpen(which)
          ? "true"
          : "false"}
          @click=${() => this.toggle(which)}>${label}</button>
      `;
    return html`<span class="toggles">${
      threads ? button("threads", "threads-toggle", "Conversations") : nothing
    }${inspect ? button("inspector", "inspect-toggle", "Inspect") : nothing}</span>`;
  }

  /** The conversations panel, when open. */
  threads(): TemplateResult | typeof nothing {
    if (!this.isOpen("threads")) return nothing;
    return html`
      <tether-threads class="side threads" exportparts=${THREAD_PARTS}
        .host=${this.#chat.host} theme=${this.#chat.theme ?? nothing}
        @tether-switch=${() => queueMicrotask(() => this.switched())}
        @keydown=${(e: KeyboardEvent) => {
          if (e.key !== "Escape") return;
          e.stopPropagation();
          void this.toggle("threads", false);
        }}></tether-threads>
    `;
  }

  /** The inspector, when open. */
  inspector(): TemplateResult | typeof nothing {
    if (!this.isOpen("inspector")) return nothing;
    return html`
      <tether-inspector class="side inspector" exportparts="panel:inspector-panel"
        .host=${this.#chat.host} theme=${this.#chat.theme ?? nothing}
        @keydown=${(e: KeyboardEvent) => {
          if (e.key !== "Escape") return;
          e.stopPropagation();
          void this.toggle("inspector", false);
        }}></tether-inspector>
    `;
  }
}
