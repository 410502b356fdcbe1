/**
 * The call a chat's session waits on when the page itself cannot answer
 * it: a remote tool's action waiting for the user's Apply (twice for a
 * delete; the runtime counts them), or a call the policy gate holds until a
 * person approves it. Both are drawn from the host state alone, so a reload
 * or another tab following the session shows the same box.
 *
 * @module
 */
import { html, nothing, type TemplateResult } from "lit";
import { keyed } from "lit/directives/keyed.js";
import { type Approval, type HostState, waitingFor } from "../client/mod.ts";
import { argumentLine } from "./_chat_messages.ts";
import { inWords } from "./_words.ts";
import type { ConfirmState } from "./confirm.ts";
import type { TetherDecisionEvent } from "./events.ts";

/** When each hold was first seen here: the runtime's own timeout counts from about then. */
const firstSeen = new Map<string, number>();

/**
 * When the hold ends at the latest: the request's expiry, or sooner when the
 * runtime's own `timeout_seconds` runs out first.
 */
function deadline(approval: Approval | undefined): number | undefined {
  if (!approval) return undefined;
  const expires = Date.parse(approval.expires_at);
  const seen = firstSeen.get(approval.request_id) ?? Date.now();
  firstSeen.set(approval.request_id, seen);
  const timeout = approval.timeout_seconds > 0 ? seen + approval.timeout_seconds * 1000 : NaN;
  const times = [expires, timeout].filter(Number.isFinite);
  return times.length ? Math.min(...times) : undefined;
}

/**
 * The open remote preview or approval hold, as a `<tether-confirm>`; nothing
 * when the session waits on the page or on nobody.
 *
 * @example
 * ```ts
 * html`${renderPendingAction(state, theme, (id, d) => host.answer(id, d))}`;
 * ```
 */
export function renderPendingAction(
  state: HostState | undefined,
  theme: string | undefined,
  answer: (callId: string, decision: "apply" | "cancel") => void,
): TemplateResult | typeof nothing {
  const pending = state?.pending;
  if (!pending) return nothing;
  const waits = waitingFor(pending);
  if (waits === "host") return nothing;
  const call = state.messages.flatMap((m) => m.toolCalls).find((c) => c.callId === pending.call_id);
  const summary = `${inWords(pending.tool_name)}: ${argumentLine(pending.arguments)}`;
  if (waits === "approval") {
    const approval = pending.approval ?? call?.approval;
    return html`${
      keyed(
        pending.call_id,
        html`
          <tether-confirm held data-call=${pending.call_id} .action=${pending.tool_name}
            .preview=${pending.preview || summary} .state=${"waiting"}
            .reason=${approval?.reason ?? ""} .expires=${deadline(approval)}
            theme=${theme ?? nothing}></tether-confirm>
        `,
      )
    }`;
  }
  const required = pending.confirmations_required ?? (pending.verb === "delete" ? 2 : 1);
  const received = pending.confirmations_received ?? 0;
  const state_: ConfirmState = call?.answering
    ? "sending"
    : required > 1 && received > 0
    ? "confirm-again"
    : "preview";
  return html`${
    keyed(
      pending.call_id,
      html`
        <tether-confirm stepwise data-open data-call=${pending.call_id} .action=${pending.tool_name}
          .preview=${pending.preview || summary} .destructive=${required > 1} .state=${state_}
          theme=${theme ?? nothing}
          @tether-decision=${(e: TetherDecisionEvent) =>
            e.decision !== "expire" && answer(pending.call_id, e.decision)}></tether-confirm>
      `,
    )
  }`;
}
