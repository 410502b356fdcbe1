/**
 * `<tether-chat>`: the conversation panel.
 *
 * @module
 */
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from "lit";
import {
  type AttachmentInput,
  type ChatMessage,
  createHost,
  type Host,
  type TransportName,
  transportNamed,
  waitingFor,
} from "../client/mod.ts";
import { renderComposer } from "./_chat_composer.ts";
import { renderMessages } from "./_chat_messages.ts";
import { renderPendingAction } from "./_pending_action.ts";
import { renderError, renderHeader, renderNotice } from "./_chat_status.ts";
import {
  type ApprovalHandle,
  type ApprovalRequest,
  Confirmations,
  type ConfirmEntry,
  renderConfirmations,
} from "./_confirmations.ts";
import { AttachmentTray } from "./_attachment_tray.ts";
import { Follow } from "./_follow.ts";
import { type ConfirmRequest, publishChat, withdrawChat } from "./_registry.ts";
import { chatStyles } from "./chat.styles.ts";
import { TetherCard } from "./card.ts";
import { TetherConfirm } from "./confirm.ts";
import { type TetherDecisionEvent, TetherSendEvent, TetherStopEvent } from "./events.ts";
import { HostController } from "./host_controller.ts";
import { ChatPanels } from "./_chat_panels.ts";

/**
 * The assistant's conversation panel. It streams the reply as it arrives
 * (Markdown rendered safely: no HTML from the model ever reaches the page),
 * shows each tool call as a compact card with its status, and while a host
 * action runs it says so and locks the composer until the action settles.
 * Stop cancels the live turn. A remote tool's action shows its preview with
 * Apply and Cancel (a delete asks twice), a call held for a person's
 * approval shows the reason and the time left, and result cards render as
 * preview cards. Errors show with their retry hint; images and
 * files can be attached by picking or pasting them, and each message shows
 * what it carried. Enter sends, Shift+Enter starts a new line, Escape stops
 * the turn. After a reload it shows the conversation so far.
 *
 * Give it a host (`chat.host = createHost(...)`) or let it make one from its
 * `runtime-url`, `session-id` and `transport` attributes; a host it makes
 * follows the session, so turns started in another tab stream in too.
 * `<tether-view>` and `<tether-action>` elements on the page declare context
 * and actions through it.
 *
 * With `threads`, a Conversations button opens the person's conversations
 * (`<tether-threads>`, fetched the first time): open one to switch to it, its
 * pending call included. With `inspect`, an Inspect button opens the
 * inspector (`<tether-inspector>`, fetched the first time) for the runtime's
 * `DEBUG__INSPECT=true`. On a narrow chat a panel covers the conversation
 * (Escape closes it); on a wide one it sits beside it. The conversations
 * panel's parts are passed on: `thread`, `thread-current`, `open`, `title`
 * and the rest as `<tether-threads>` names them, its frame, title bar,
 * heading and error as `threads-panel`, `threads-header`, `threads-heading`
 * and `threads-error`; the inspector's frame as `inspector-panel`.
 *
 * @tagname tether-chat
 * @summary The conversation panel: streaming, tool cards, host actions, stop, attachments, confirmations.
 *
 * @fires {TetherSendEvent} tether-send - The user sends a message; cancelable.
 * @fires {TetherStopEvent} tether-stop - The user stops the live turn; cancelable.
 *
 * @slot heading - The panel's title (default: the `heading` attribute).
 * @slot empty - What an empty conversation shows.
 *
 * @csspart panel - The panel's frame.
 * @csspart header - The title bar with the connection state.
 * @csspart connection - The connection state.
 * @csspart heading - The panel's title (an `h2`).
 * @csspart log - The scrolling conversation (an ARIA log); it follows the newest message unless the user scrolled up.
 * @csspart new-messages - The button that appears when new messages arrive while the user is scrolled up.
 * @csspart message - Each message; also `message-user` or `message-assistant`.
 * @csspart tool - Each tool call card (the action's name in words, its status, a short summary); also `tool-running`, `tool-confirming` (waiting for Apply), `tool-held` (waiting for an approver), `tool-done`, `tool-failed`, `tool-denied` (refused by the policy), `tool-cancelled`, `tool-superseded`, `tool-unknown`.
 * @csspart details - The disclosure with a result's JSON.
 * @csspart attachment - Each attachment a user message carried (a thumbnail for an image, and its name).
 * @csspart link - Links in the assistant's text.
 * @csspart notice - What the session waits on: an action running on this page, waiting in another tab, for an approver, or for your decision.
 * @csspart error - The error line.
 * @csspart retry - The error line's button: Try again, or Send again for a message the runtime never received.
 * @csspart composer - The message form.
 * @csspart input - The message text area.
 * @csspart send - The Send button.
 * @csspart stop - The Stop button.
 * @csspart attach - The attach button.
 * @csspart threads-toggle - The Conversations button (with `threads`).
 * @csspart inspect-toggle - The Inspect button (with `inspect`).
 *
 * @cssprop --tether-font - Font family.
 * @cssprop --tether-font-size - Base font size (default 14px).
 * @cssprop --tether-bg - Panel background.
 * @cssprop --tether-surface - Background of cards, code and the composer when locked.
 * @cssprop --tether-fg - Text colour.
 * @cssprop --tether-muted - Secondary text colour.
 * @cssprop --tether-border - Border colour.
 * @cssprop --tether-accent - Accent (links, Send button).
 * @cssprop --tether-accent-fg - Text on the accent.
 * @cssprop --tether-user-bg - Background of the user's messages.
 * @cssprop --tether-danger - Errors and destructive actions.
 * @cssprop --tether-success - Done and connected.
 * @cssprop --tether-warning - Running and reconnecting.
 * @cssprop --tether-focus - Focus ring.
 * @cssprop --tether-radius - Corner radius.
 * @cssprop --tether-gap - Inner spacing.
 *
 * @example
 * ```html
 * <tether-chat runtime-url="http://127.0.0.1:7100" heading="Assistant"></tether-chat>
 * ```
 */
export class TetherChat extends LitElement {
  static override styles = chatStyles;
  static override shadowRootOptions = { ...LitElement.shadowRootOptions, delegatesFocus: true };
  static override properties = {
    runtimeUrl: { type: String, attribute: "runtime-url" },
    sessionId: { type: String, attribute: "session-id" },
    transport: { type: String },
    heading: { type: String },
    placeholder: { type: String },
    theme: { type: String, reflect: true },
    threads: { type: Boolean },
    inspect: { type: Boolean },
  };

  /** The runtime's URL, used when no `host` is set (relative URLs resolve against the page). */
  declare runtimeUrl: string | undefined;
  /** The session of a host made from the attributes (default: one per tab). */
  declare sessionId: string | undefined;
  /** A transport's name in the client's table (`sse`, the default, or `socket.io`), for a host made from the attributes. */
  declare transport: TransportName | undefined;
  /** The panel's title. */
  declare heading: string;
  /** The composer's placeholder. */
  declare placeholder: string;
  /** `light`, `dark`, or unset to follow the user's preference. */
  declare theme: "light" | "dark" | undefined;
  /** Offer the conversations panel (`<tether-threads>`, loaded when first opened). */
  declare threads: boolean;
  /** Offer the inspector (`<tether-inspector>`, loaded when first opened); the runtime needs `DEBUG__INSPECT=true`. */
  declare inspect: boolean;
  #client = new HostController(this);
  #panels = new ChatPanels(this, {
    focusComposer: () => this.#input?.focus(),
    problem: (message) => ((this.#problem = message), this.requestUpdate()),
  });
  #session: string | undefined;
  #confirms = new Confirmations(() => this.requestUpdate());
  #problem = "";
  #tray = new AttachmentTray(
    () => this.requestUpdate(),
    (message) => ((this.#problem = message), this.requestUpdate()),
  );
  #follow = new Follow(() => this.requestUpdate());
  #wasLocked = false;
  /** A message the runtime never received, to send again. */
  #unsent: { text: string; attachments: AttachmentInput[]; id?: string } | undefined;
  #connection: string | undefined;
  #refocus = false;
  #focused = new WeakSet<Element>();

  constructor() {
    super();
    this.heading = "Assistant";
    this.placeholder = "Ask about this page…";
    this.threads = false;
    this.inspect = false;
  }

  /**
   * Registers `<tether-chat>` and the elements it renders, unless taken.
   *
   * @example
   * ```ts
   * TetherChat.define();
   * ```
   */
  static define(tag = "tether-chat"): void {
    TetherCard.define();
    TetherConfirm.define();
    if (!customElements.get(tag)) customElements.define(tag, this);
  }

  /** The host the chat talks through. */
  get host(): Host | undefined {
    return this.#client.host;
  }

  set host(host: Host | undefined) {
    this.#client.host = host;
    if (this.isConnected) publishChat(this);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#ensureHost();
    publishChat(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#follow.detach();
    withdrawChat(this);
  }

  /** Sends a message as if the user typed it; resolves when the exchange ends (errors are shown, not thrown). */
  send(text: string, attachments: AttachmentInput[] = []): Promise<void> {
    return this.#send(text, attachments);
  }

  async #send(text: string, attachments: AttachmentInput[], id?: string): Promise<void> {
    const host = this.host;
    if (!host) {
      throw new Error("<tether-chat> has no host: set .host or the runtime-url attribute.");
    }
    const event = new TetherSendEvent(text, attachments);
    if (!this.dispatchEvent(event)) return;
    this.#confirms.prune();
    this.#problem = "";
    // A suggestion button or Send that goes away leaves the focus nowhere: keep it in the composer.
    if (this.matches(":focus-within") || document.activeElement === document.body) {
      this.#input?.focus();
    }
    this.#follow.toEnd();
    this.requestUpdate();
    this.#unsent = undefined;
    try {
      await host.send(text, { attachments, id });
    } catch (error) {
      this.#problem = (error as Error).message;
      // Not delivered (the runtime out of reach): kept to send again with one click, under its id.
      if ((error as { type?: string }).type === "network") {
        id = host.state.get().messages.findLast((m) => m.role === "user")?.id;
        this.#unsent = { text, attachments, id };
      }
      this.requestUpdate();
    }
  }

  /**
   * Stops the live turn (and the host action running in it, if it listens
   * to its signal); with no turn running, cancels an open remote preview.
   */
  async stop(): Promise<void> {
    if (!this.dispatchEvent(new TetherStopEvent())) return;
    const previewed = this.#previewed;
    if (previewed && !this.#client.state?.running) return this.#answer(previewed, "cancel");
    try {
      await this.host?.cancel();
    } catch (error) {
      this.#problem = (error as Error).message;
      this.requestUpdate();
    }
  }

  /** Shows a preview with Apply and Cancel (twice when destructive); resolves true when applied. */
  confirm(request: ConfirmRequest): Promise<boolean> {
    return this.#confirms.confirm(request);
  }

  /** Shows a "waiting for approval" hold with its reason and time left; settle it when the decision arrives. */
  approval(request: ApprovalRequest): ApprovalHandle {
    return this.#confirms.approval(request);
  }

  #ensureHost(): void {
    if (this.host || !this.runtimeUrl) return;
    let transport;
    try {
      transport = transportNamed(this.transport);
    } catch (error) {
      // An unknown name is the page author's mistake: say so in the panel, make no host.
      this.#problem = (error as Error).message;
      return;
    }
    this.host = createHost({
      runtimeUrl: new URL(this.runtimeUrl, location.href).href,
      sessionId: this.sessionId || undefined,
      transport,
    });
  }

  /** A call waits for the page or the user; a call held for an approver leaves the composer free. */
  get #locked(): boolean {
    const pending = this.#client.state?.pending;
    return (!!pending && waitingFor(pending) !== "approval") || this.#confirms.open;
  }

  /** The call id of a remote action's open preview, if one waits for the user. */
  get #previewed(): string | undefined {
    const pending = this.#client.state?.pending;
    return pending && waitingFor(pending) === "confirmation" ? pending.call_id : undefined;
  }

  #answer(callId: string, decision: "apply" | "cancel"): void {
    this.#problem = "";
    this.host?.answer(callId, decision).catch((error: Error) => {
      this.#problem = error.message;
      this.requestUpdate();
    });
  }

  /** Stop replaces Send while a turn or this page's action runs; never while the user decides, or for another tab's call. */
  get #busy(): boolean {
    const waitsForUser = this.#confirms.open || !!this.#previewed;
    return !!this.#client.state?.running ||
      (this.#locked && !waitsForUser && !this.#client.state?.elsewhere);
  }

  /** Opens or closes the conversations panel (with the `threads` attribute). */
  toggleThreads(open?: boolean): Promise<void> {
    return this.#panels.toggle("threads", open);
  }

  /** Opens or closes the inspector (with the `inspect` attribute). */
  toggleInspector(open?: boolean): Promise<void> {
    return this.#panels.toggle("inspector", open);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("runtimeUrl") && this.isConnected) this.#ensureHost();
    // Back in touch with the runtime: "could not reach it" no longer holds.
    const connection = this.#client.state?.connection;
    if (connection === "open" && this.#connection && this.#connection !== "open") {
      if (this.#unsent) this.#problem = "Your last message was not sent.";
      else if (this.#problem.startsWith("Could not reach the runtime")) this.#problem = "";
    }
    this.#connection = connection;
    // Another conversation: what was said about the last one no longer applies.
    const session = this.#client.state?.sessionId;
    if (session !== this.#session) {
      if (this.#session !== undefined) {
        this.#problem = "";
        this.#follow.toEnd();
      }
      this.#session = session;
    }
  }

  protected override updated(): void {
    const log = this.renderRoot.querySelector<HTMLElement>(".log");
    if (log) this.#follow.attach(log);
    const locked = this.#locked;
    // A new confirmation takes the focus once, when the user is in the chat (or nowhere in particular).
    const open = this.renderRoot.querySelector<HTMLElement>("tether-confirm[data-open]");
    if (
      open && !this.#focused.has(open) &&
      (this.#refocus || this.matches(":focus-within") || document.activeElement === document.body)
    ) {
      this.#focused.add(open);
      this.#refocus = false;
      // Its buttons exist once its own first render is done.
      void (open as LitElement).updateComplete.then(() => open.focus());
    } else if (this.#refocus && !open) {
      // The user answered a confirmation (its buttons are gone): back to the composer,
      // unless the focus went somewhere else on the page meanwhile.
      this.#refocus = false;
      if (this.matches(":focus-within") || document.activeElement === document.body) {
        this.#input?.focus();
      }
    }
    // Give the composer its focus back when a confirmation the user answered has gone.
    if (this.#wasLocked && !locked && this.matches(":focus-within")) this.#input?.focus();
    this.#wasLocked = locked;
  }

  get #input(): HTMLTextAreaElement | null {
    return this.renderRoot.querySelector("textarea");
  }

  #submit(e?: Event): void {
    e?.preventDefault();
    const input = this.#input;
    if (!input || this.#busy) return;
    const text = input.value.trim();
    if (!text && !this.#tray.items.length) return;
    input.value = "";
    // Send turns into Stop: keep the focus in the composer rather than on a button that goes away.
    input.focus();
    void this.send(text, this.#tray.take());
  }

  #keydown(e: KeyboardEvent): void {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      this.#submit();
    }
  }

  #retry(): void {
    const unsent = this.#unsent;
    if (unsent) return void this.#send(unsent.text, unsent.attachments, unsent.id);
    const last = this.#client.state?.messages.findLast((m) => m.role === "user");
    if (last) void this.send(last.content);
  }

  override render(): TemplateResult {
    const state = this.#client.state;
    const entries = this.#confirms.entries;
    // A page action's confirmation is drawn in place, under its call's card (so before the answer); others at the end.
    const owner = (c: ConfirmEntry) =>
      state?.messages.find((m) => m.toolCalls.some((t) => t.callId === c.callId));
    const confirms = (m?: ChatMessage) =>
      renderConfirmations(entries.filter((c) => owner(c) === m), this.theme);
    return html`
      <section part="panel" class="panel" aria-labelledby="heading"
        @keydown=${(e: KeyboardEvent) => e.key === "Escape" && this.#busy && this.stop()}
        @tether-decision=${(e: TetherDecisionEvent) => (this.#refocus = e.decision !== "expire")}>
            ${renderHeader(this.heading, state?.connection, !!this.host, this.#panels.buttons())}
            <div class="main">
            ${this.#panels.threads()}
            <div class="conversation">
            <div part="log" class="log" role="log" aria-live="polite" aria-busy=${state?.running
              ? "true"
              : "false"} tabindex="0">
              ${state?.messages.length || state?.streamingText
                ? renderMessages(state, this.theme, confirms)
                : html`<div class="empty"><slot name="empty">Ask the assistant about this page.</slot></div>`}
              ${confirms()}
              ${renderPendingAction(state, this.theme, (id, d) => this.#answer(id, d))}
              ${this.#follow.unseen
                ? html`
                  <button part="new-messages" class="jump" type="button"
                    @click=${() => this.#follow.toEnd()}>New messages ↓</button>
                `
                : nothing}
            </div>
            ${renderNotice(state, this.#confirms.open)}
            ${renderError(
              this.#problem || state?.error?.message,
              state?.error,
              () => this.#retry(),
              this.#busy,
              !!this.#unsent,
            )}
            ${this.#composer()}
            </div>
            ${this.#panels.inspector()}
            </div>
          </section>
    `;
  }

  #composer(): TemplateResult {
    return renderComposer({
      locked: this.#locked,
      busy: this.#busy,
      ready: !!this.host && !this.#locked,
      placeholder: this.placeholder,
      lockedPlaceholder: this.#client.state?.elsewhere
        ? "Another tab is acting on this conversation…"
        : this.#previewed || this.#confirms.open
        ? "Apply or cancel the preview first…"
        : undefined,
      attachments: this.#tray.items,
      submit: (e) => this.#submit(e),
      keydown: (e) => this.#keydown(e),
      paste: (e) => this.#tray.paste(e),
      files: (files) => void this.#tray.add(files),
      remove: (i) => this.#tray.remove(i),
      stop: () => void this.stop(),
    });
  }
}
