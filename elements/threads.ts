/**
 * `<tether-threads>`: a person's conversations, to come back to. Its own
 * chunk: `<tether-chat threads>` loads it the first time the panel opens, and
 * a page that shows it alone imports `@tether/web/elements/threads`
 * (`define_threads.ts`), which defines it.
 *
 * @module
 */
import type { CSSResult, PropertyValues, TemplateResult } from "lit";
import type { Host, SessionSummary, WaitingFor } from "../client/mod.ts";
import type { Kit } from "./_lazy_kit.ts";
import { threadsStyles } from "./threads.styles.ts";

// Lit and the rest come from the bundle that loaded this module (see _lazy_kit.ts).
const found = (globalThis as { [key: symbol]: Kit | undefined })[Symbol.for("tether.elements.kit")];
if (!found) {
  throw new Error(
    "Load <tether-threads> through @tether/web/elements/threads or <tether-chat threads>, not this module alone.",
  );
}
const kit: Kit = found;
// One name a statement, each typed: JSR's fast check reads no destructuring in a public class's heritage.
const LitElement: Kit["LitElement"] = kit.LitElement;
const html: Kit["html"] = kit.html;
const nothing: Kit["nothing"] = kit.nothing;
const HostController: Kit["HostController"] = kit.HostController;
const findChat: Kit["findChat"] = kit.findChat;
const watchChats: Kit["watchChats"] = kit.watchChats;

const WAITING: Record<WaitingFor, string> = {
  host: "Working on the page",
  confirmation: "Waiting for you",
  approval: "Waiting for approval",
};

const UNTITLED = "New conversation";

const icon = (path: string) =>
  html`
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" fill="none"
      stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round">
      <path d=${path} />
    </svg>
  `;
const ICONS = {
  rename: icon("M10.5 2.5l3 3L6 13H3v-3z"),
  archive: icon("M2 3h12v3H2zM3 6v7h10V6M6.5 9h3"),
  restore: icon("M3 8a5 5 0 1 0 1.5-3.5M3 2v3h3"),
};
const PAGE = 20;

/** "5 min ago", "yesterday", "3 Mar": when a conversation last changed. */
function when(iso: string, now = Date.now()): string {
  const at = Date.parse(iso);
  const minutes = Math.round((now - at) / 60_000);
  const words = new Intl.RelativeTimeFormat(undefined, { numeric: "auto", style: "short" });
  if (minutes < 1) return "just now";
  if (minutes < 60) return words.format(-minutes, "minute");
  if (minutes < 24 * 60) return words.format(-Math.round(minutes / 60), "hour");
  if (minutes < 7 * 24 * 60) return words.format(-Math.round(minutes / 1440), "day");
  return new Date(at).toLocaleDateString(undefined, { day: "numeric", month: "short" });
}

/**
 * `tether-switch`: the person opened a conversation in `<tether-threads>`
 * (`sessionId` undefined: a new one); cancel it to switch yourself (to route
 * first, say).
 *
 * @example
 * ```ts
 * threads.addEventListener("tether-switch", (e) => history.replaceState(null, "", `?session=${e.sessionId}`));
 * ```
 */
export class TetherSwitchEvent extends Event {
  /** The conversation opened; undefined for a new one. */
  readonly sessionId: string | undefined;
  constructor(sessionId: string | undefined) {
    super("tether-switch", { bubbles: true, composed: true, cancelable: true });
    this.sessionId = sessionId;
  }
}

/**
 * The conversations panel: the person's conversations newest first (title,
 * when it last changed, and whether it waits for something), the current one
 * marked; open one to switch the host to it (its messages and its pending
 * call come with it), start a new one, rename (F2) or archive (Delete) one,
 * and look through the archived ones. Keyboard: Up and Down (Home, End) move
 * between conversations, Enter opens, F2 renames (Enter keeps the title,
 * Escape leaves it), Delete archives or brings back; Tab reaches the
 * conversation's Rename and Archive buttons. It follows the host's turns, so
 * titles and order stay current.
 *
 * Give it a host (`threads.host = host`), or let it use the host of the chat
 * its `for` attribute names (else the page's first `<tether-chat>`);
 * `<tether-chat threads>` shows it beside the conversation.
 *
 * @tagname tether-threads
 * @summary The conversations panel: list, switch, rename, archive.
 *
 * @fires {TetherSwitchEvent} tether-switch - The person opens a conversation or starts one; cancelable.
 *
 * @csspart panel - The panel's frame.
 * @csspart header - The title bar.
 * @csspart heading - The panel's title (an `h2`).
 * @csspart new - The New conversation button.
 * @csspart shelf - The Active / Archived switch; its buttons are `shelf-button`.
 * @csspart list - The list of conversations.
 * @csspart thread - Each conversation; also `thread-current` for the open one and `thread-waiting` when its call waits.
 * @csspart open - The button that opens a conversation.
 * @csspart title - A conversation's title.
 * @csspart meta - When it last changed, and what it waits for (`badge`).
 * @csspart badge - What a conversation's pending call waits for.
 * @csspart rename - The Rename button.
 * @csspart archive - The Archive (or Restore) button.
 * @csspart input - The title field while renaming.
 * @csspart more - The Show more button.
 * @csspart empty - What an empty list says.
 * @csspart error - The error line.
 *
 * @cssprop --tether-font - Font family.
 * @cssprop --tether-font-size - Base font size (default 14px).
 * @cssprop --tether-bg - Panel background.
 * @cssprop --tether-surface - Background of a conversation under the pointer.
 * @cssprop --tether-fg - Text colour.
 * @cssprop --tether-muted - Secondary text colour.
 * @cssprop --tether-border - Border colour.
 * @cssprop --tether-accent - Accent (the title field's border, the selected shelf).
 * @cssprop --tether-user-bg - Background of the open conversation.
 * @cssprop --tether-danger - Errors.
 * @cssprop --tether-warning - What a conversation waits for.
 * @cssprop --tether-focus - Focus ring.
 * @cssprop --tether-radius - Corner radius.
 * @cssprop --tether-gap - Inner spacing.
 *
 * @example
 * ```html
 * <tether-threads for="assistant"></tether-threads>
 * <tether-chat id="assistant" runtime-url="http://127.0.0.1:7100"></tether-chat>
 * ```
 */
export class TetherThreads extends LitElement {
  static override styles: CSSResult[] = threadsStyles(kit);
  static override properties = {
    heading: { type: String },
    theme: { type: String, reflect: true },
    host: { attribute: false },
  };

  /** The panel's title. */
  declare heading: string;
  /** `light`, `dark`, or unset to follow the user's preference. */
  declare theme: "light" | "dark" | undefined;
  #explicit: Host | undefined;
  #client = new HostController(this);
  #unwatch: (() => void) | undefined;
  #items: SessionSummary[] = [];
  #next: string | null = null;
  #archived = false;
  #loading = false;
  #error = "";
  #said = "";
  #active = 0;
  #editing: string | undefined;
  #focusNext = false;
  #seen: { session?: string; running?: boolean } = {};
  #timer: ReturnType<typeof setTimeout> | undefined;
  #request = 0;
  /** The list's read in flight (or the last one). */
  #reading: Promise<void> = Promise.resolve();

  constructor() {
    super();
    this.heading = "Conversations";
  }

  /**
   * Registers `<tether-threads>`, unless taken.
   *
   * @example
   * ```ts
   * TetherThreads.define();
   * ```
   */
  static define(tag = "tether-threads"): void {
    if (!customElements.get(tag)) customElements.define(tag, this);
  }

  /** The host whose conversations it lists (set, or the chat's). */
  get host(): Host | undefined {
    return this.#explicit ?? findChat(this.getAttribute("for") ?? "")?.host;
  }

  set host(host: Host | undefined) {
    this.#explicit = host;
    this.#bind();
  }

  /** The conversations shown now, newest first. */
  get conversations(): readonly SessionSummary[] {
    return this.#items;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#unwatch ??= watchChats(() => this.#bind());
    this.#bind();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#unwatch?.();
    this.#unwatch = undefined;
    clearTimeout(this.#timer);
  }

  /** Reads the first page again (the chat calls this when the panel opens). */
  refresh(): Promise<void> {
    return this.#load(true);
  }

  /** Moves the focus to the open conversation (or the first one), once the list is read. */
  override focus(): void {
    void this.#reading.then(() => {
      const current = this.#rows.findIndex((s) => s.session_id === this.#current);
      this.#active = Math.max(0, current);
      this.#focusNext = true;
      this.requestUpdate();
    });
  }

  get #current(): string | undefined {
    return this.#client.state?.sessionId;
  }

  #bind(): void {
    const host = this.host;
    if (host === this.#client.host) return;
    this.#client.host = host;
    this.#seen = {};
    if (host) void this.#load(true);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    // After a turn (or when it starts, for a first message) titles and order may have moved.
    const state = this.#client.state;
    if (!state) return;
    const { session, running } = this.#seen;
    this.#seen = { session: state.sessionId, running: state.running };
    if (session !== undefined && (session !== state.sessionId || running !== state.running)) {
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => void this.#load(true), 250);
    }
  }

  #load(reset: boolean): Promise<void> {
    return this.#reading = this.#read(reset);
  }

  async #read(reset: boolean): Promise<void> {
    const host = this.host;
    if (!host) return;
    const request = ++this.#request;
    this.#loading = true;
    this.requestUpdate();
    try {
      const page = await host.sessions.list({
        limit: PAGE,
        archived: this.#archived,
        ...(reset || !this.#next ? {} : { before: this.#next }),
      });
      if (request !== this.#request) return;
      this.#items = reset ? page.sessions : [...this.#items, ...page.sessions];
      this.#next = page.next_before;
      this.#error = "";
      this.#active = Math.min(this.#active, Math.max(0, this.#rows.length - 1));
    } catch (error) {
      if (request === this.#request) {
        this.#error = `The conversations could not be loaded: ${(error as Error).message}`;
      }
    } finally {
      if (request === this.#request) this.#loading = false;
      this.requestUpdate();
    }
  }

  /** The rows shown: the open conversation first while it has no message yet. */
  get #rows(): SessionSummary[] {
    const current = this.#current;
    const started = !!this.#client.state?.messages.length;
    if (
      this.#archived || !current || started || this.#items.some((s) => s.session_id === current)
    ) {
      return this.#items;
    }
    const fresh: SessionSummary = {
      session_id: current,
      title: null,
      updated_at: new Date().toISOString(),
      waiting_for: null,
      message_count: 0,
      archived: false,
    };
    return [fresh, ...this.#items];
  }

  async #open(session: SessionSummary | undefined): Promise<void> {
    const host = this.host;
    if (!host) return;
    const id = session?.session_id;
    if (!this.dispatchEvent(new TetherSwitchEvent(id))) return;
    if (id === this.#current) return;
    this.#error = "";
    try {
      await host.sessions.switch(id);
    } catch (error) {
      this.#error = `That conversation could not be opened: ${(error as Error).message}`;
    }
    this.requestUpdate();
  }

  async #rename(session: SessionSummary, title: string): Promise<void> {
    this.#editing = undefined;
    this.#focusNext = true;
    const wanted = title.trim();
    const host = this.host;
    if (!wanted || wanted === session.title || !host) return this.requestUpdate();
    // Shown at once; put back if the runtime refuses it.
    const put = (
      row: SessionSummary,
    ) => (this.#items = this.#items.map((s) => (s.session_id === row.session_id ? row : s)));
    put({ ...session, title: wanted });
    this.requestUpdate();
    try {
      const renamed = await host.sessions.rename(session.session_id, wanted);
      put(renamed);
      this.#say(`Renamed to “${renamed.title}”.`);
    } catch (error) {
      put(session);
      this.#error = `The conversation could not be renamed: ${(error as Error).message}`;
    }
    this.requestUpdate();
  }

  async #archive(session: SessionSummary): Promise<void> {
    if (!this.host || session.message_count === 0) return;
    const archiving = !this.#archived;
    try {
      await this.host.sessions.archive(session.session_id, archiving);
      this.#items = this.#items.filter((s) => s.session_id !== session.session_id);
      this.#active = Math.min(this.#active, Math.max(0, this.#rows.length - 1));
      this.#focusNext = true;
      const name = session.title ?? UNTITLED;
      this.#say(archiving ? `Archived “${name}”.` : `“${name}” is back in your conversations.`);
    } catch (error) {
      this.#error = `The conversation could not be ${archiving ? "archived" : "restored"}: ${
        (error as Error).message
      }`;
    }
    this.requestUpdate();
  }

  #say(text: string): void {
    this.#said = text;
  }

  #shelf(archived: boolean): void {
    if (this.#archived === archived) return;
    this.#archived = archived;
    this.#items = [];
    this.#next = null;
    this.#active = 0;
    void this.#load(true);
  }

  #keydown(e: KeyboardEvent): void {
    if (this.#editing || (e.target as HTMLElement).localName === "input") return;
    const rows = this.#rows;
    if (!rows.length) return;
    let next = this.#active;
    switch (e.key) {
      case "ArrowDown":
        next = Math.min(rows.length - 1, this.#active + 1);
        break;
      case "ArrowUp":
        next = Math.max(0, this.#active - 1);
        break;
      case "Home":
        next = 0;
        break;
      case "End":
        next = rows.length - 1;
        break;
      case "F2":
        if (rows[this.#active].message_count > 0) this.#editing = rows[this.#active].session_id;
        break;
      case "Delete":
        void this.#archive(rows[this.#active]);
        break;
      default:
        return;
    }
    e.preventDefault();
    this.#active = next;
    this.#focusNext = true;
    this.requestUpdate();
  }

  protected override updated(): void {
    const input = this.renderRoot.querySelector<HTMLInputElement>("input");
    if (input) {
      // The title field keeps the focus while it is open: a later update (a rename answered, the
      // list read again) must not move it to the row behind the field.
      this.#focusNext = false;
      if (this.shadowRoot?.activeElement !== input) {
        input.focus();
        input.select();
      }
      return;
    }
    if (!this.#focusNext) return;
    this.#focusNext = false;
    // The row the keys move to; with no row left, the shelf being looked at.
    (this.renderRoot.querySelector<HTMLElement>("li.active .open") ??
      this.renderRoot.querySelector<HTMLElement>(".shelf [aria-pressed=true]"))?.focus();
  }

  override render(): TemplateResult {
    const rows = this.#rows;
    const archived = this.#archived;
    return html`
      <section part="panel" class="panel" aria-labelledby="threads-heading">
        <header part="header">
          <h2 part="heading" id="threads-heading">${this.heading}</h2>
          <button part="new" type="button" ?disabled=${!this.host}
            @click=${() => this.#open(undefined)}>New</button>
        </header>
        <div part="shelf" class="shelf" role="group" aria-label="Show">
          <button part="shelf-button" type="button" aria-pressed=${archived ? "false" : "true"}
            @click=${() => this.#shelf(false)}>Active</button>
          <button part="shelf-button" type="button" aria-pressed=${archived ? "true" : "false"}
            @click=${() => this.#shelf(true)}>Archived</button>
        </div>
        ${rows.length
          ? html`
            <ul part="list" aria-label=${archived ? "Archived conversations" : this.heading}
              aria-describedby="threads-keys" @keydown=${(e: KeyboardEvent) => this.#keydown(e)}>
              ${rows.map((s, i) => this.#row(s, i))}
            </ul>
            <p id="threads-keys" class="hint">Up and Down move, Enter opens, F2 renames, Delete ${archived
              ? "restores"
              : "archives"}.</p>
          `
          : this.#loading
          ? nothing
          : html`<p part="empty" class="empty">${
            archived ? "No archived conversations." : "No conversations yet."
          }</p>`}
        ${this.#next
          ? html`
            <button part="more" class="more" type="button" ?disabled=${this.#loading}
              @click=${() => this.#load(false)}>Show more</button>
          `
          : nothing}
        ${this.#error
          ? html`<p part="error" class="error" role="alert">${this.#error}</p>`
          : nothing}
        <p class="sr-only" role="status">${this.#said}</p>
      </section>
    `;
  }

  #row(s: SessionSummary, i: number): TemplateResult {
    const current = s.session_id === this.#current;
    const active = i === this.#active;
    const tab = active ? "0" : "-1";
    const title = s.title ?? UNTITLED;
    const parts = ["thread", current ? "thread-current" : "", s.waiting_for ? "thread-waiting" : ""]
      .filter(Boolean).join(" ");
    const stored = s.message_count > 0;
    if (this.#editing === s.session_id) {
      return html`
        <li part=${parts} class="active ${current ? "current" : ""}">
          <input part="input" aria-label="New title for “${title}”" .value=${s.title ?? ""}
            maxlength="120"
            @keydown=${(e: KeyboardEvent) => {
              // Handled here: the key must not go on to the row's button once it has the focus.
              if (e.key === "Enter" || e.key === "Escape") e.preventDefault();
              if (e.key === "Enter") this.#rename(s, (e.target as HTMLInputElement).value);
              if (e.key === "Escape") {
                e.stopPropagation();
                this.#editing = undefined;
                this.#focusNext = true;
                this.requestUpdate();
              }
            }}
            @blur=${(e: FocusEvent) =>
              this.#editing === s.session_id &&
              this.#rename(s, (e.target as HTMLInputElement).value)} />
        </li>
      `;
    }
    return html`
      <li part=${parts} class="${active ? "active" : ""} ${current ? "current" : ""}"
        @focusin=${() => (this.#active = i)}>
        <button part="open" class="open" type="button" tabindex=${tab}
          aria-current=${current ? "true" : "false"} @click=${() => this.#open(s)}>
          <span part="title" class="title">${title}</span>
          <span part="meta" class="meta">
            ${stored ? html`<span>${when(s.updated_at)}</span>` : html`<span>Not started</span>`}
            ${s.waiting_for
              ? html`<span part="badge" class="badge">${WAITING[s.waiting_for]}</span>`
              : nothing}
          </span>
        </button>
        ${stored
          ? html`
            <button part="rename" class="tool" type="button" tabindex=${tab}
              aria-label="Rename “${title}”" title="Rename (F2)"
              @click=${() => ((this.#editing = s.session_id), this.requestUpdate())}>${ICONS
                .rename}</button>
            <button part="archive" class="tool" type="button" tabindex=${tab}
              aria-label="${this.#archived ? "Restore" : "Archive"} “${title}”"
              title="${this.#archived ? "Restore" : "Archive"} (Delete)"
              @click=${() => this.#archive(s)}>${this.#archived
                ? ICONS.restore
                : ICONS.archive}</button>
          `
          : nothing}
      </li>
    `;
  }
}
