/**
 * `<tether-view>`: the page's current view, declared in markup.
 *
 * @module
 */
import { html, LitElement, type TemplateResult } from "lit";
import type { Host, View } from "../client/mod.ts";
import { ChatBinding } from "./_chat_binding.ts";
import { viewStyles } from "./view.styles.ts";

/**
 * Tells the assistant what is on screen. Its `name` and `description`
 * attributes and its `.data` and `.state` properties are read fresh for
 * every message, so the model always sees the page as it is now. Wrap the
 * view's markup in it, or place it anywhere; it renders its children as if it
 * were not there. The host is the one set as `.host`, else that of the
 * `<tether-chat>` named by `for`, else that of the first chat on the page.
 *
 * @tagname tether-view
 * @summary Declares the view (name, description, data, state) for the assistant.
 *
 * @slot - The view's own content, laid out as if the element were not there.
 *
 * @example
 * ```html
 * <tether-view name="issues" description="The issue list, filtered to open bugs."></tether-view>
 * <script type="module">
 *   document.querySelector("tether-view").data = { issues: [{ number: 42, title: "Fix login" }] };
 * </script>
 * ```
 */
export class TetherView extends LitElement {
  static override styles = viewStyles;
  static override properties = {
    name: { type: String },
    description: { type: String },
    data: { type: Object, attribute: false },
    state: { type: Object, attribute: false },
  };

  /** The view's name (required for it to be sent; also selects TOOLS__PAGE_SCOPES). */
  declare name: string;
  /** One sentence on what the view shows. */
  declare description: string;
  /** Curated content, shown to the model as key-value pairs. */
  declare data: Record<string, unknown> | undefined;
  /** Selection, filters and workflow state, passed as JSON. */
  declare state: Record<string, unknown> | undefined;
  #binding = new ChatBinding(this, (host) => host.view(() => this.#view()));

  constructor() {
    super();
    this.name = "";
    this.description = "";
  }

  /**
   * Registers the element as `<tether-view>` unless that name is taken.
   *
   * @example
   * ```ts
   * TetherView.define();
   * ```
   */
  static define(tag = "tether-view"): void {
    if (!customElements.get(tag)) customElements.define(tag, this);
  }

  /** The host the view is declared on (default: its chat's). */
  get host(): Host | undefined {
    return this.#binding.host;
  }

  set host(host: Host | undefined) {
    this.#binding.host = host;
  }

  /** The view as the next message will carry it. */
  #view(): View {
    const view: View = { name: this.name || this.localName };
    if (this.description) view.description = this.description;
    if (this.data) view.data = this.data;
    if (this.state) view.state = this.state;
    return view;
  }

  override render(): TemplateResult {
    return html`<slot></slot>`;
  }
}
