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

/**
 * An identifier in words, capitalised: `select_issue` → "Select issue".
 *
 * @example
 * ```ts
 * inWords("showOnly"); // "Show only"
 * ```
 */
export function inWords(name: string): string {
  const words = name.replace(/([a-z\d])([A-Z])/g, "$1 $2").split(/[\s_.:-]+/).filter(Boolean);
  const text = words.join(" ").toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const clip = (text: string, max: number) => text.length > max ? text.slice(0, max - 1) + "…" : text;

/** The result without its preview cards (they render as cards). */
function withoutDisplay(output: unknown): unknown {
  if (!output || typeof output !== "object" || Array.isArray(output)) return output;
  const { display: _display, ...rest } = output as Record<string, unknown>;
  return rest;
}

/**
 * A result in a few words: its plain fields (`selected: 42, title: …`), lists counted.
 *
 * @example
 * ```ts
 * summarize({ selected: 42, shown: [1, 2, 3] }); // "selected: 42, shown: 1, 2, 3"
 * ```
 */
export function summarize(output: unknown): string {
  const value = withoutDisplay(output);
  if (value === null || value === undefined) return "";
  if (typeof value !== "object") return clip(String(value), 120);
  if (Array.isArray(value)) return `${value.length} items`;
  const parts: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (parts.length === 4) break;
    const label = inWords(key).toLowerCase();
    if (v === null || ["string", "number", "boolean"].includes(typeof v)) {
      parts.push(`${label}: ${clip(String(v), 60)}`);
    } else if (Array.isArray(v)) {
      parts.push(
        `${label}: ${
          v.length > 6 || v.some((x) => typeof x === "object") ? `${v.length} items` : v.join(", ")
        }`,
      );
    }
  }
  return clip(parts.join(", "), 160);
}

/** A failure's reason, said once: the "x failed:" prefixes the layers added are dropped. */
function reasonOf(call: ToolCallState): string {
  let text = typeof call.output === "string" ? call.output : "";
  const prefix = new RegExp(`^(?:${call.toolName} failed|the action failed):\\s*`, "i");
  while (prefix.test(text)) text = text.replace(prefix, "");
  return clip(text, 300);
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
    <span class="name" title=${call.toolName}>${inWords(call.toolName)}</span>
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
