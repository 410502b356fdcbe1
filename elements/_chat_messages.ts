/**
 * The conversation part of `<tether-chat>`: messages with their Markdown
 * text and the attachments they carried, tool call cards with their status,
 * and the preview cards their results carry. Pure functions of the host state.
 *
 * @module
 */
import { html, nothing, type TemplateResult } from "lit";
import type { AttachmentSummary, ChatMessage, HostState } from "../client/mod.ts";
import { renderOutcome } from "./_outcome.ts";
import { turnCards } from "./display.ts";
import { renderMarkdown } from "./markdown.ts";

/**
 * The arguments as one short plain-text line: `number: 42, label: "bug"`.
 *
 * @example
 * ```ts
 * argumentLine({ number: 42 }); // "number: 42"
 * ```
 */
export function argumentLine(args: Record<string, unknown> | undefined): string {
  const parts = Object.entries(args ?? {}).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  const line = parts.join(", ");
  return line.length > 80 ? line.slice(0, 79) + "…" : line;
}

/** What a message carried: a thumbnail for an image (only our own data:image URIs), the name or kind. */
function attachment(a: AttachmentSummary): TemplateResult {
  const label = a.name ?? a.kind;
  return html`
    <span part="attachment" class="attachment"
      title=${a.mediaType ?? a.kind}>${a.thumbnail?.startsWith("data:image/")
        ? html`<img src=${a.thumbnail} alt="" />`
        : nothing}<span>${label}</span></span>
  `;
}

/** The text shown for a message: its content, plus the live text while its turn streams. */
function textOf(state: HostState, message: ChatMessage, last: boolean): string {
  const live = last && message.role === "assistant" ? state.streamingText : "";
  if (!live || message.content.includes(live)) return message.content;
  return message.content ? `${message.content}\n\n${live}` : live;
}

function message(
  state: HostState,
  m: ChatMessage,
  index: number,
  theme: string | undefined,
  placed: (m: ChatMessage) => unknown,
): TemplateResult {
  const last = index === state.messages.length - 1;
  const text = textOf(state, m, last);
  const cards = m.role === "assistant"
    ? turnCards(
      m.toolCalls.filter((c) => c.status === "completed").map((c) =>
        c.display ? { display: c.display } : c.output
      ),
    )
    : [];
  return html`
    <article part="message message-${m.role}" class="message ${m.role}"
      aria-label=${m.role === "user" ? "You" : "Assistant"}>
        ${m.toolCalls.length
          ? html`<div class="tools">${m.toolCalls.map(renderOutcome)}${placed(m)}</div>`
          : nothing}
        ${m.attachments?.length
          ? html`<div class="attachments">${m.attachments.map(attachment)}</div>`
          : nothing}
        ${text
          ? html`<div class="text">${m.role === "user" ? text : renderMarkdown(text)}</div>`
          : nothing}
        ${cards.length
          ? html`<div class="cards">${
            cards.map((c) =>
              html`
                <tether-card .heading=${c.title} .href=${c.url}
                  .image=${c.image ?? ""} .subtitle=${c.subtitle ?? ""} .badges=${c
                    .badges} theme=${theme ?? nothing}></tether-card>
              `
            )
          }</div>`
          : nothing}
      </article>
  `;
}

/**
 * The messages of the conversation, with a streaming reply after the last
 * user message; `placed` draws what belongs under a message's call cards.
 *
 * @example
 * ```ts
 * html`<div role="log">${renderMessages(state, this.theme, () => nothing)}</div>`;
 * ```
 */
export function renderMessages(
  state: HostState,
  theme: string | undefined,
  placed: (m: ChatMessage) => unknown,
): TemplateResult {
  const last = state.messages.at(-1);
  // Text that streams before any assistant message exists gets its own bubble.
  const orphan = state.streamingText && last?.role !== "assistant"
    ? html`
      <article part="message message-assistant" class="message assistant" aria-label="Assistant">
        <div class="text">${renderMarkdown(state.streamingText)}</div>
      </article>
    `
    : nothing;
  return html`${state.messages.map((m, i) => message(state, m, i, theme, placed))}${orphan}`;
}
