/**
 * `<tether-action>`: a host action declared in markup.
 *
 * @module
 */
import { LitElement, nothing, type PropertyValues } from "lit";
import type { ActionContext, ActionHandler, Host, Parameters } from "../client/mod.ts";
import { ChatBinding } from "./_chat_binding.ts";
import { TetherActionEvent } from "./events.ts";
import { actionStyles } from "./view.styles.ts";

const REGISTERED = [
  "name",
  "description",
  "parameters",
  "idempotent",
  "timeout",
  "confirm",
  "destructive",
];

/**
 * Offers the assistant something the page can do. When the model calls it,
 * the `handler` property runs with the checked arguments; without one, a
 * cancelable `tether-action` event asks the page to `respondWith()` the
 * result. With `confirm` the user first sees a preview with Apply and Cancel
 * in the chat; `destructive` asks a second time. The host is found as for
 * `<tether-view>`.
 *
 * @tagname tether-action
 * @summary Declares a host action (name, description, JSON-schema parameters) and runs it.
 *
 * @fires {TetherActionEvent} tether-action - The model called the action and no `handler` property is set.
 *
 * @example
 * ```html
 * <tether-action name="select_issue" description="Select an issue in the list."
 *   parameters='{"type":"object","properties":{"number":{"type":"integer"}},"required":["number"]}'>
 * </tether-action>
 * <script type="module">
 *   document.querySelector("tether-action").handler = ({ number }) => app.select(number);
 * </script>
 * ```
 */
export class TetherAction extends LitElement {
  static override styles = actionStyles;
  static override properties = {
    name: { type: String },
    description: { type: String },
    parameters: { type: Object },
    handler: { attribute: false },
    preview: { attribute: false },
    confirm: { type: Boolean },
    destructive: { type: Boolean },
    idempotent: { type: Boolean },
    readOnly: { type: Boolean, attribute: "read-only" },
    timeout: { type: Number },
  };

  /** The tool name the model calls (letters, digits, `_` and `-`). */
  declare name: string;
  /** What the action does, for the model. */
  declare description: string;
  /** A JSON schema of type object (the `parameters` attribute takes it as JSON). */
  declare parameters: Parameters | undefined;
  /** Runs the action; its return value is the tool result. */
  declare handler: ActionHandler | undefined;
  /** The confirmation's text for given arguments (default: the description and the arguments). */
  declare preview: ((args: Record<string, unknown>) => string) | undefined;
  /** Ask the user to apply or cancel before the action runs. */
  declare confirm: boolean;
  /** Destructive: confirm, then confirm a second time. */
  declare destructive: boolean;
  /** Safe to run again after a reload cut it off. */
  declare idempotent: boolean;
  /** It changes nothing (`read-only`): offered to WebMCP as read-only. */
  declare readOnly: boolean;
  /** Handler timeout in ms (default: the host's); the confirmation before it waits as long as the user needs. */
  declare timeout: number | undefined;
  #binding = new ChatBinding(this, (host) =>
    !this.name ? () => {} : host.action(this.name, {
      description: this.description,
      parameters: this.parameters,
      idempotent: this.idempotent,
      readOnly: this.readOnly,
      timeout: this.timeout,
      // The SDK journals the call as awaiting confirmation until Apply, so a reload asks again.
      confirm: this.#confirming ? (args, context) => this.#ask(args, context) : undefined,
    }, (args, context) => this.#run(args as Record<string, unknown>, context)));

  constructor() {
    super();
    this.name = "";
    this.description = "";
    this.confirm = false;
    this.destructive = false;
    this.idempotent = false;
    this.readOnly = false;
  }

  /**
   * Registers the element as `<tether-action>` unless that name is taken.
   *
   * @example
   * ```ts
   * TetherAction.define();
   * ```
   */
  static define(tag = "tether-action"): void {
    if (!customElements.get(tag)) customElements.define(tag, this);
  }

  /** The host the action is registered on (default: its chat's). */
  get host(): Host | undefined {
    return this.#binding.host;
  }

  set host(host: Host | undefined) {
    this.#binding.host = host;
  }

  get #confirming(): boolean {
    return this.confirm || this.destructive;
  }

  protected override updated(changed: PropertyValues): void {
    // Registered on connect already; a property set after that (even before the first render) needs a fresh registration.
    if (REGISTERED.some((key) => changed.has(key))) this.#binding.refresh();
  }

  #ask(args: Record<string, unknown>, context: ActionContext): Promise<boolean> {
    const chat = this.#binding.chat;
    if (!chat) {
      throw new Error(
        `${this.name} needs the user's confirmation and there is no <tether-chat> to ask in`,
      );
    }
    const preview = this.preview?.(args) ??
      `${this.description}${Object.keys(args).length ? `\n${JSON.stringify(args, null, 1)}` : ""}`;
    return chat.confirm({
      action: this.name,
      preview,
      destructive: this.destructive,
      signal: context.signal,
      callId: context.callId,
    });
  }

  async #run(args: Record<string, unknown>, context: ActionContext): Promise<unknown> {
    if (this.handler) return this.handler(args, context);
    const event = new TetherActionEvent(this.name, args, context.callId, context.signal);
    this.dispatchEvent(event);
    if (event.responded) return await event.response;
    if (event.defaultPrevented) throw new Error(`the page declined ${this.name}`);
    throw new Error(
      `nothing on the page handles ${this.name}; set a handler on its <tether-action>`,
    );
  }

  override render(): typeof nothing {
    return nothing;
  }
}
