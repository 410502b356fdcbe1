/**
 * The last changes to a request's messages, by its provider's rules: what a
 * tool result may carry (images where the API takes them, else a short
 * text), how long one result may be, and where Anthropic's cache
 * breakpoints go. Each change depends only on the message and the model, so
 * a message is sent as the same bytes in every request.
 *
 * @module
 */
import type { ModelMessage, ToolResultPart } from "ai";
import { textTokens } from "../history/estimate.ts";
import type { Budget } from "../model/budget.ts";
import type { ModelProfile } from "../model/providers/mod.ts";

/** What the model reads instead of an image its API cannot take in a tool result. */
export const NO_IMAGE_TEXT =
  "[An image was here, but this model's API takes no images in tool results, so it could not be shown.]";

// deno-lint-ignore no-explicit-any -- the SDK's tool result output union, read part by part
type Output = any;

function withoutImages(output: Output): Output {
  if (output?.type !== "content") return output;
  let changed = false;
  const value = output.value.map((p: Output) => {
    if (p.type === "text") return p;
    changed = true;
    return { type: "text", text: NO_IMAGE_TEXT };
  });
  return changed ? { ...output, value } : output;
}

function cut(output: Output, maxTokens: number): Output {
  if (output?.type === "content" || output?.type === "execution-denied") return output;
  const text = typeof output?.value === "string" ? output.value : JSON.stringify(output?.value);
  if (textTokens(text ?? "") <= maxTokens) return output;
  // Three bytes a token, and at most three bytes a character: this many always fits.
  const keep = maxTokens;
  const failed = output.type === "error-text" || output.type === "error-json";
  return {
    type: failed ? "error-text" : "text",
    value: `${
      text.slice(0, keep)
    }\n[… cut: ${keep} of ${text.length} characters shown, to keep the request within the model's budget.]`,
  };
}

const fixed = new WeakMap<ModelMessage, { key: string; message: ModelMessage }>();

/**
 * A message as this provider may receive it.
 *
 * @example
 * ```ts
 * const messages = view.map((m) => forProvider(m, profile, budget));
 * ```
 */
export function forProvider(
  message: ModelMessage,
  profile: ModelProfile,
  budget: Budget,
): ModelMessage {
  if (message.role !== "tool") return message;
  const key = `${profile.imagesInToolResults}:${budget.toolResultTokens}`;
  const seen = fixed.get(message);
  if (seen?.key === key) return seen.message;
  let changed = false;
  const content = message.content.map((part) => {
    if (part.type !== "tool-result") return part;
    let output = profile.imagesInToolResults ? part.output : withoutImages(part.output);
    output = cut(output, budget.toolResultTokens);
    if (output === part.output) return part;
    changed = true;
    return { ...part, output } as ToolResultPart;
  });
  const out = changed ? { ...message, content } : message;
  fixed.set(message, { key, message: out });
  return out;
}

/** Anthropic's breakpoint, on a message (the SDK puts it on the message's last block). */
export const BREAKPOINT = { anthropic: { cacheControl: { type: "ephemeral" } } };

/**
 * The messages with cache breakpoints where the next request reads them back: the summary
 * (the start of the compacted history), the current turn's first message (stable for the
 * whole turn) and the request's last message (this turn's tool exchange so far). With the
 * system prompt's own, four at most; Anthropic looks up to 20 blocks back from each.
 *
 * @example
 * ```ts
 * const marked = withBreakpoints(messages, { summary: hasSummary, turnStart: 4 });
 * ```
 */
export function withBreakpoints(
  messages: ModelMessage[],
  at: { summary: boolean; turnStart: number },
  max: number,
): ModelMessage[] {
  const marks = new Set<number>();
  if (at.summary && messages.length) marks.add(0);
  if (at.turnStart >= 0 && at.turnStart < messages.length) marks.add(at.turnStart);
  if (messages.length) marks.add(messages.length - 1);
  // The system prompt takes one; the newest marks matter most.
  const kept = [...marks].sort((a, b) => a - b).slice(-Math.max(0, max - 1));
  if (!kept.length) return messages;
  return messages.map((m, i) => kept.includes(i) ? marked(m) : m);
}

// One marked copy per message, so a message that keeps its mark is the same object in every
// request (what `_prompt_prefix.ts` reuses its conversion by).
const copies = new WeakMap<ModelMessage, ModelMessage>();

function marked(message: ModelMessage): ModelMessage {
  let copy = copies.get(message);
  if (copy === undefined) {
    copy = {
      ...message,
      providerOptions: { ...message.providerOptions, ...BREAKPOINT },
    } as ModelMessage;
    copies.set(message, copy);
  }
  return copy;
}
