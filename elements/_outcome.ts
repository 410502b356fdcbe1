/**
 * A tool call as people read it: the action's name in words ("Select
 * issue"), its status in one word, a short summary of what it returned,
 * the reason once when it failed, and the raw JSON behind a disclosure. A
 * user's Cancel is its own neutral outcome, "Cancelled", never a failure.
 * One renderer for every kind of call (host, backend, remote).
 *
 * @module
 */
import { html, nothing, type TemplateResult } from "lit";
import type { ToolCallState } from "../client/mod.ts";
import { callStatus } from "./_call_status.ts";
import { inWords, plainReason, summarize, withoutDisplay } from "./_words.ts";

export { inWords, summarize };

const LABEL: Record<string, string> = {
  running: "Running…",
  confirming: "Waiting for you",
  held: "Waiting for approval",
  done: "Done",
  failed: "Failed",
  denied: "Denied",
  cancelled: "Cancelled",
  superseded: "Superseded",
  unknown: "Outcome unknown",
};

/** A failure's reason, said once, in people's words (see `_words.ts`). */
function reasonOf(call: ToolCallState): string {
  return plainReason(typeof call.output === "string" ? call.output : "", [call.toolName]);
}

/**
 * The card of one tool call.
 *
 * @example
 * ```ts
 * html`<div class="tools">${message.toolCalls.map(renderOutcome)}</div>`;
 * ```
 */
export function renderOutcome(call: ToolCallState): TemplateResult {
  const status: string = callStatus(call);
  const done = status === "done";
  const failure = status === "failed" || status === "unknown" || status === "denied";
  // A result with preview cards shows them below; a summary would say the same a third time.
  const cards = !!call.display?.length ||
    Array.isArray((call.output as { display?: unknown } | null)?.display);
  const about = done ? (cards ? "" : summarize(call.output)) : failure ? reasonOf(call) : "";
  const json = done ? JSON.stringify(withoutDisplay(call.output) ?? null, null, 2) : "";
  return html`<div part="tool tool-${status}" class="tool ${status}" data-call=${call.callId}>
    <span class="dot" aria-hidden="true"></span>
    <span class="name">${inWords(call.toolName)}</span>
    <span class="state">${LABEL[status] ?? status}</span>
    ${about ? html`<span class="reason">${about}</span>` : nothing}
    ${
    done && json !== "null" && json !== "{}"
      ? html`
        <details part="details">
          <summary>Details</summary>
          <pre>${json}</pre>
        </details>
      `
      : nothing
  }
  </div>`;
}
