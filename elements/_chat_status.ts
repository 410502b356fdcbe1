/**
 * The status lines of `<tether-chat>`: the title bar with the connection
 * state, the notice while a host action runs or a confirmation waits, and
 * the error line with its retry hint.
 *
 * @module
 */
import { html, nothing, type TemplateResult } from "lit";
import { type ConnectionState, type HostState, waitingFor } from "../client/mod.ts";
import { noticeText } from "./_words.ts";

const CONNECTION: Record<ConnectionState, string> = {
  idle: "Not connected",
  connecting: "Connecting…",
  open: "Connected",
  reconnecting: "Reconnecting…",
  closed: "Offline",
};

/**
 * The title bar: the heading slot and the connection state.
 *
 * @example
 * ```ts
 * renderHeader("Assistant", state?.connection, !!host);
 * renderHeader("Assistant", state?.connection, !!host, html`<button>Conversations</button>`);
 * ```
 */
export function renderHeader(
  heading: string,
  connection: ConnectionState = "idle",
  hasHost = true,
  tools: TemplateResult | typeof nothing = nothing,
): TemplateResult {
  return html`
    <header part="header">
      <h2 part="heading" id="heading"><slot name="heading">${heading}</slot></h2>
      ${tools}
      <span part="connection" class="connection ${connection}" role="status">
          <span class="dot" aria-hidden="true"></span>${hasHost
            ? CONNECTION[connection]
            : "No runtime"}
        </span>
    </header>
  `;
}

/**
 * The notice under the conversation while the page works or waits for the user.
 *
 * @example
 * ```ts
 * renderNotice(state, confirmations.open);
 * ```
 */
export function renderNotice(
  state: HostState | undefined,
  deciding: boolean,
): TemplateResult | typeof nothing {
  const pending = state?.pending;
  const waits = pending ? waitingFor(pending) : undefined;
  const text = deciding || waits === "confirmation"
    ? noticeText("deciding", pending?.tool_name ?? "")
    : waits === "approval"
    ? noticeText("approval", pending!.tool_name)
    : pending && state?.elsewhere
    ? noticeText("elsewhere", pending.tool_name)
    : pending
    ? noticeText("running", pending.tool_name)
    : "";
  return text ? html`<div part="notice" class="notice" role="status">${text}</div>` : nothing;
}

/**
 * The error line: the message, the retry hint when the runtime allows a retry, and a Try again button.
 *
 * @example
 * ```ts
 * renderError(problem, state?.error, () => this.#retry(), busy);
 * ```
 */
export function renderError(
  message: string | undefined,
  error: HostState["error"] | undefined,
  retry: () => void,
  busy: boolean,
  unsent = false,
): TemplateResult | typeof nothing {
  if (!message) return nothing;
  // A message that never reached the runtime is sent again with one click.
  const retryable = unsent || (!!error?.retryAllowed && message === error.message);
  return html`<div part="error" class="error" role="alert">
    <span>${message}${retryable && !unsent ? " You can try again." : ""}</span>
    ${
    retryable && !busy
      ? html`<button type="button" part="retry" @click=${retry}>${
        unsent ? "Send again" : "Try again"
      }</button>`
      : nothing
  }
  </div>`;
}
