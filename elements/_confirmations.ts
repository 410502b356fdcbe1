/**
 * The confirmations and approval holds a chat shows in its conversation:
 * each one open until the user decides, its signal aborts, or its owner
 * settles it, then kept (settled) until the user's next message.
 *
 * @module
 */
import { html, nothing, type TemplateResult } from "lit";
import type { ConfirmRequest } from "./_registry.ts";
import type { ConfirmState } from "./confirm.ts";
import type { TetherDecisionEvent } from "./events.ts";

const OPEN: readonly ConfirmState[] = ["preview", "confirm-again", "waiting"];

/** A confirmation or approval hold as the chat renders it. */
export interface ConfirmEntry {
  id: number;
  action: string;
  preview: string;
  destructive: boolean;
  state: ConfirmState;
  reason?: string;
  expires?: string | number;
  cards?: unknown[];
  callId?: string;
  decide(decision: "apply" | "cancel" | "expire"): void;
}

/** What `approval()` shows: who waits for whom, why, and until when. */
export interface ApprovalRequest {
  action: string;
  reason: string;
  /** When the approval request expires: an ISO date or epoch milliseconds. */
  expires?: string | number;
  preview?: string;
}

/** The handle of an approval hold: settle it when the decision arrives. */
export interface ApprovalHandle {
  /** Resolves when the hold ends without an approval: the user stopped waiting or it expired. */
  readonly stopped: Promise<void>;
  /** Ends the hold with what happened. */
  settle(outcome: "applied" | "cancelled" | "expired"): void;
}

/**
 * The list behind a chat's confirmations; `changed` re-renders the chat.
 *
 * @example
 * ```ts
 * const list = new Confirmations(() => this.requestUpdate());
 * const applied = await list.confirm({ action: "delete_issue", preview: "Delete #42", destructive: true });
 * ```
 */
export class Confirmations {
  #entries: ConfirmEntry[] = [];
  #next = 1;
  #changed: () => void;

  constructor(changed: () => void) {
    this.#changed = changed;
  }

  /** Every entry, open and settled, oldest first. */
  get entries(): readonly ConfirmEntry[] {
    return this.#entries;
  }

  /** Whether one is waiting for the user. */
  get open(): boolean {
    return this.#entries.some((e) => OPEN.includes(e.state));
  }

  /** Shows a preview with Apply and Cancel; resolves true when applied. */
  confirm(request: ConfirmRequest): Promise<boolean> {
    return new Promise((resolve) => {
      const fields = {
        action: request.action,
        preview: request.preview,
        destructive: !!request.destructive,
        state: "preview" as const,
        callId: request.callId,
      };
      const entry = this.#add(fields, (d) => {
        entry.state = d === "apply" ? "applied" : d === "expire" ? "expired" : "cancelled";
        resolve(d === "apply");
      });
      // The action was abandoned (timeout, Stop): the question is withdrawn.
      if (request.signal?.aborted) entry.decide("cancel");
      request.signal?.addEventListener("abort", () => entry.decide("cancel"), { once: true });
    });
  }

  /** Shows a "waiting for approval" hold with its reason and time left. */
  approval(request: ApprovalRequest): ApprovalHandle {
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const fields = {
      action: request.action,
      preview: request.preview ?? "",
      destructive: false,
      state: "waiting" as const,
    };
    const entry = this.#add(
      { ...fields, reason: request.reason, expires: request.expires },
      (d) => {
        entry.state = d === "expire" ? "expired" : "cancelled";
        stop();
      },
    );
    return {
      stopped,
      settle: (outcome) => {
        if (!OPEN.includes(entry.state)) return;
        entry.state = outcome;
        this.#changed();
      },
    };
  }

  /** Drops the settled entries (when the user sends a new message). */
  prune(): void {
    this.#entries = this.#entries.filter((e) => OPEN.includes(e.state));
  }

  #add(
    fields: Omit<ConfirmEntry, "id" | "decide">,
    onDecide: (d: "apply" | "cancel" | "expire") => void,
  ): ConfirmEntry {
    const entry: ConfirmEntry = {
      ...fields,
      id: this.#next++,
      decide: (d) => {
        // Only an open entry can be decided: a late click or abort changes nothing.
        if (!OPEN.includes(entry.state)) return;
        onDecide(d);
        this.#changed();
      },
    };
    this.#entries = [...this.#entries, entry];
    this.#changed();
    return entry;
  }
}

/**
 * The entries as `<tether-confirm>` elements; an open one carries `data-open`.
 *
 * @example
 * ```ts
 * html`<div role="log">${renderConfirmations(list.entries, this.theme)}</div>`;
 * ```
 */
export function renderConfirmations(
  entries: readonly ConfirmEntry[],
  theme?: string,
): TemplateResult[] {
  return entries.map((c) =>
    html`
      <tether-confirm .action=${c.action} .preview=${c.preview}
        .destructive=${c.destructive} .state=${c.state} .reason=${c.reason ?? ""} .expires=${c
          .expires}
        .cards=${c.cards ?? []} theme=${theme ?? nothing} ?data-open=${OPEN.includes(c.state)}
        @tether-decision=${(e: TetherDecisionEvent) => c.decide(e.decision)}></tether-confirm>
    `
  );
}
