/**
 * The DOM events the elements fire: `Event` subclasses that bubble and cross
 * shadow roots (`composed`), declared on `HTMLElementEventMap` so
 * `addEventListener("tether-send", (e) => e.text)` is typed.
 *
 * @module
 */
import type { AttachmentInput } from "../client/mod.ts";

const OPTIONS = { bubbles: true, composed: true } as const;

/**
 * `tether-send`: the user sends a message from `<tether-chat>`; cancel it to keep the message from being sent.
 *
 * @example
 * ```ts
 * chat.addEventListener("tether-send", (e) => {
 *   if (e.text.includes("password")) e.preventDefault();
 * });
 * ```
 */
export class TetherSendEvent extends Event {
  /** The message text. */
  readonly text: string;
  /** The reference attachments picked or pasted with it. */
  readonly attachments: readonly AttachmentInput[];
  constructor(text: string, attachments: readonly AttachmentInput[]) {
    super("tether-send", { ...OPTIONS, cancelable: true });
    this.text = text;
    this.attachments = attachments;
  }
}

/**
 * `tether-stop`: the user asked `<tether-chat>` to stop the live turn; cancel it to keep the turn running.
 *
 * @example
 * ```ts
 * chat.addEventListener("tether-stop", () => console.log("stopping"));
 * ```
 */
export class TetherStopEvent extends Event {
  constructor() {
    super("tether-stop", { ...OPTIONS, cancelable: true });
  }
}

/**
 * `tether-action`: the model called a `<tether-action>` that has no `handler`
 * property. Answer with `respondWith(value or promise)`; `preventDefault()`
 * without an answer declines the call (the model is told it failed).
 *
 * @example
 * ```ts
 * action.addEventListener("tether-action", (e) => e.respondWith(select(e.args.number as number)));
 * ```
 */
export class TetherActionEvent extends Event {
  /** The action's name. */
  readonly name: string;
  /** The arguments, already checked against the action's parameters. */
  readonly args: Record<string, unknown>;
  /** The runtime's call id. */
  readonly callId: string;
  /** Aborted on timeout and when the user stops the turn. */
  readonly signal: AbortSignal;
  #response?: unknown;
  #responded = false;
  constructor(name: string, args: Record<string, unknown>, callId: string, signal: AbortSignal) {
    super("tether-action", { ...OPTIONS, cancelable: true });
    this.name = name;
    this.args = args;
    this.callId = callId;
    this.signal = signal;
  }

  /** Answers the call with a JSON value or a promise of one (a rejection fails the call). */
  respondWith(result: unknown): void {
    if (this.#responded) {
      throw new Error(`The call ${this.callId} of ${this.name} was answered already.`);
    }
    this.#responded = true;
    this.#response = result;
  }

  /** Whether a listener answered. */
  get responded(): boolean {
    return this.#responded;
  }

  /** The answer given to `respondWith`. */
  get response(): unknown {
    return this.#response;
  }
}

/**
 * `tether-decision`: the user decided on a `<tether-confirm>` preview (after
 * the second confirmation when the action is destructive), or the approval
 * it waited for expired.
 *
 * @example
 * ```ts
 * confirm.addEventListener("tether-decision", (e) => e.decision === "apply" && apply());
 * ```
 */
export class TetherDecisionEvent extends Event {
  /** `apply`, `cancel`, or `expire` when an approval window closed. */
  readonly decision: "apply" | "cancel" | "expire";
  constructor(decision: "apply" | "cancel" | "expire") {
    super("tether-decision", OPTIONS);
    this.decision = decision;
  }
}
