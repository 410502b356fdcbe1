/**
 * `<tether-confirm>`: the confirmation and approval UI.
 *
 * @module
 */
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from "lit";
import { confirmLabel, inWords, plainReason } from "./_words.ts";
import { confirmStyles } from "./confirm.styles.ts";
import { TetherCard } from "./card.ts";
import { cardsOf } from "./display.ts";
import { TetherDecisionEvent } from "./events.ts";

/** The states of a confirmation. */
export type ConfirmState =
  | "preview"
  | "confirm-again"
  | "waiting"
  | "sending"
  | "applied"
  | "cancelled"
  | "expired";

function remaining(expires: string | number | undefined, now: number): number | undefined {
  if (expires === undefined || expires === "") return undefined;
  const at = typeof expires === "number" ? expires : Date.parse(expires);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

const clock = (ms: number) => {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

/**
 * Shows what an action would do and lets the user apply or cancel it. A
 * `destructive` action asks a second, explicit time before it applies. In
 * the `waiting` state it shows that a human approval is pending, with the
 * reason and the time left until the request expires.
 *
 * When the runtime counts the confirmations (a remote tool's action), set
 * `stepwise`: every Apply fires `tether-decision`, the element shows
 * `sending`, and its owner sets the next `state` (`confirm-again` after the
 * first of two). When the runtime holds the call (`held`), the waiting state
 * offers no button at all (only an approver releases it) and leaves the end
 * of the countdown to the runtime.
 *
 * @tagname tether-confirm
 * @summary Preview with Apply and Cancel, double confirmation, and the waiting-for-approval state.
 *
 * @fires {TetherDecisionEvent} tether-decision - The user applied (after the second confirmation when destructive) or cancelled, or the approval window expired.
 *
 * @csspart box - The frame.
 * @csspart preview - The preview text.
 * @csspart apply - The Apply button (and the second confirmation's button).
 * @csspart cancel - The Cancel button.
 * @csspart reason - The reason an approval is needed.
 * @csspart countdown - The time left to approve.
 *
 * @cssprop --tether-accent - Frame accent and Apply button colour.
 * @cssprop --tether-danger - Accent of destructive actions.
 * @cssprop --tether-warning - Countdown colour.
 *
 * @example
 * ```html
 * <tether-confirm action="delete_issue" preview="Delete issue #42" destructive></tether-confirm>
 * ```
 */
export class TetherConfirm extends LitElement {
  static override styles = confirmStyles;
  static override shadowRootOptions = { ...LitElement.shadowRootOptions, delegatesFocus: true };
  static override properties = {
    action: { type: String },
    preview: { type: String },
    destructive: { type: Boolean, reflect: true },
    stepwise: { type: Boolean },
    held: { type: Boolean },
    state: { type: String, reflect: true },
    reason: { type: String },
    expires: {},
    cards: { type: Array },
    theme: { type: String, reflect: true },
  };

  /** The action's name. */
  declare action: string;
  /** What applying would do, as plain text. */
  declare preview: string;
  /** Ask a second, explicit time before applying. */
  declare destructive: boolean;
  /** Each Apply is reported and the owner moves `state` on (the runtime counts the confirmations). */
  declare stepwise: boolean;
  /** The runtime holds the call for an approver: no button, and no expiry of its own. */
  declare held: boolean;
  /** `preview`, `confirm-again`, `waiting`, `sending`, `applied`, `cancelled` or `expired`. */
  declare state: ConfirmState;
  /** Why an approval is needed (the `waiting` state). */
  declare reason: string;
  /** When the approval request expires: an ISO date or epoch milliseconds. */
  declare expires: string | number | undefined;
  /** Preview cards (raw `display` entries; sanitised before rendering). */
  declare cards: unknown[];
  /** `light`, `dark`, or unset to follow the user's preference. */
  declare theme: "light" | "dark" | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.action = "";
    this.preview = "";
    this.destructive = false;
    this.stepwise = false;
    this.held = false;
    this.state = "preview";
    this.reason = "";
    this.cards = [];
    this.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && this.#open && !this.held) {
        e.stopPropagation();
        this.#decide("cancel");
      }
    });
  }

  /**
   * Registers `<tether-confirm>` (and the `<tether-card>` it renders) unless taken.
   *
   * @example
   * ```ts
   * TetherConfirm.define();
   * ```
   */
  static define(tag = "tether-confirm"): void {
    TetherCard.define();
    if (!customElements.get(tag)) customElements.define(tag, this);
  }

  get #open(): boolean {
    return this.state === "preview" || this.state === "confirm-again" || this.state === "waiting";
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  protected override updated(changed: PropertyValues<this>): void {
    const ticking = this.state === "waiting" && remaining(this.expires, Date.now()) !== undefined;
    if (ticking && !this.#timer) this.#timer = setInterval(() => this.#tick(), 1000);
    if (!ticking && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
    // The safe choice takes the focus once the action is known to be destructive.
    if (changed.has("state") && this.state === "confirm-again") {
      this.renderRoot.querySelector<HTMLButtonElement>("[part=cancel]")?.focus();
    }
  }

  #tick(): void {
    if (remaining(this.expires, Date.now()) === 0 && !this.held) {
      this.state = "expired";
      this.dispatchEvent(new TetherDecisionEvent("expire"));
    }
    this.requestUpdate();
  }

  #decide(decision: "apply" | "cancel"): void {
    if (decision === "apply" && this.destructive && this.state === "preview" && !this.stepwise) {
      this.state = "confirm-again";
      return;
    }
    this.state = this.stepwise ? "sending" : decision === "apply" ? "applied" : "cancelled";
    this.dispatchEvent(new TetherDecisionEvent(decision));
  }

  override render(): TemplateResult {
    const cards = cardsOf({ display: this.cards });
    return html`<div part="box" class="box" role="group" aria-label=${confirmLabel(this.action)}>
      <span class="label">${
      this.state === "waiting" ? "Waiting for approval" : inWords(this.action)
    }</span>
      ${this.preview ? html`<div part="preview" class="preview">${this.preview}</div>` : nothing}
      ${
      cards.length
        ? html`<div class="cards">${
          cards.map((c) =>
            html`
              <tether-card .heading=${c.title} .href=${c.url}
                .image=${c.image ?? ""} .subtitle=${c.subtitle ?? ""} .badges=${c
                  .badges} theme=${this.theme ?? nothing}></tether-card>
            `
          )
        }</div>`
        : nothing
    }
      ${this.#body()}
    </div>`;
  }

  #body(): TemplateResult {
    const cancel = (label: string) =>
      html`<button part="cancel" type="button" @click=${() =>
        this.#decide("cancel")}>${label}</button>`;
    switch (this.state) {
      case "preview":
        return html`<div class="buttons">
          <button part="apply" type="button" class=${
          this.destructive ? "danger" : "primary"
        } @click=${() => this.#decide("apply")}>
            ${this.destructive ? "Continue…" : "Apply"}
          </button>
          ${cancel("Cancel")}
        </div>`;
      case "confirm-again":
        return html`
          <p class="warning"
            role="alert">This cannot be undone. Apply it anyway? Cancel has the focus, so Enter cancels.</p>
          <div class="buttons">
                      <button part="apply" type="button" class="danger" @click=${() =>
                        this.#decide("apply")}>Yes, apply</button>
                      ${cancel("Cancel")}
                    </div>
        `;
      case "waiting": {
        const left = remaining(this.expires, Date.now());
        return html`<p part="reason" role="status">${
          plainReason(this.reason, [this.action]) || "A person must approve this action."
        }</p>
          ${
          left === undefined
            ? nothing
            : html`<span part="countdown" class="countdown" role="timer">${clock(left)} left</span>`
        }
          ${this.held ? nothing : html`<div class="buttons">${cancel("Stop waiting")}</div>`}`;
      }
      case "sending":
        return html`<p class="settled" role="status">Sending your answer…</p>`;
      case "expired":
        return html`<p class="settled" role="status">No approval arrived in time; the action did not run.</p>`;
      default:
        return html`<p class="settled" role="status">${
          this.state === "applied" ? "Applied." : "Cancelled."
        }</p>`;
    }
  }
}
