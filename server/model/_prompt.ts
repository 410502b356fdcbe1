/**
 * Reads what the offline planner needs out of a `LanguageModelV3Prompt`: the
 * latest user words without the runtime's blocks (host and remote context,
 * the unchanged-page note, a summary, any later one), the latest host context,
 * the tool results the prompt ends with, a fingerprint for call ids, and a
 * rough token count.
 *
 * @module
 */

import type {
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
} from "@ai-sdk/provider";
import { hashOf } from "./_text.ts";

/** One tool result the prompt ends with, flattened to text. */
export interface Outcome {
  toolName: string;
  ok: boolean;
  text: string;
}

/** What the planner reads from a prompt. */
export interface PromptView {
  /** The text of the user message that ends the prompt, without host_context blocks; "" when the prompt ends otherwise. */
  text: string;
  /** The inside of the latest host_context block in the conversation, if any. */
  context: string | undefined;
  /** Tool results the prompt ends with (possibly followed by a context-only user message); empty otherwise. */
  results: Outcome[];
  /** A hash of the whole prompt; differs from turn to turn of a session. */
  fingerprint: string;
  /** Roughly four characters per token. */
  inputTokens: number;
}

const RUNTIME_BLOCKS =
  /<(host_context_unchanged|host_context_omitted|conversation_summary)>[\s\S]*?<\/\1>/g;
const OPEN = "<host_context>";
const CLOSE = "</host_context>";
// The runtime's blocks are fenced in snake_case tags (`host_context`, `remote_context`,
// `host_context_unchanged`, ...), put before the person's words. Any such leading block is
// context, so a block the runtime adds later is never read as something the person typed.
const LEADING_BLOCK = /^\s*<([a-z]+(?:_[a-z]+)+)>/;

/** Splits off the runtime's leading blocks: the host_context inside (the last one) and the text after them. */
function leadingBlocks(text: string): { context: string | undefined; rest: string } {
  let context: string | undefined;
  let rest = text;
  for (;;) {
    const open = LEADING_BLOCK.exec(rest);
    if (!open) return { context, rest };
    const tag = open[1];
    const close = rest.indexOf(`</${tag}>`, open[0].length);
    // An unclosed block is context to the end, never the person's words.
    const end = close < 0 ? rest.length : close;
    if (tag === "host_context") context = rest.slice(open[0].length, end).trim();
    rest = close < 0 ? "" : rest.slice(close + tag.length + 3);
  }
}

/** Splits user text into the host_context block's inside (the last one) and the remaining words. */
function splitContext(text: string): { context: string | undefined; rest: string } {
  const leading = leadingBlocks(text);
  let context = leading.context;
  text = leading.rest;
  let rest = "";
  let from = 0;
  for (;;) {
    const open = text.indexOf(OPEN, from);
    if (open < 0) break;
    const close = text.indexOf(CLOSE, open + OPEN.length);
    // An unclosed block is treated as context to the end, never as the user's words.
    const end = close < 0 ? text.length : close;
    rest += text.slice(from, open);
    context = text.slice(open + OPEN.length, end).trim();
    from = close < 0 ? text.length : close + CLOSE.length;
  }
  rest += text.slice(from);
  // The runtime's other blocks (a page unchanged or left out, a summary) are
  // not the person's words either.
  return { context, rest: rest.replace(RUNTIME_BLOCKS, "").trim() };
}

function userText(message: LanguageModelV3Message): string {
  if (message.role !== "user") return "";
  let text = "";
  for (const part of message.content) if (part.type === "text") text += part.text + "\n";
  return text;
}

/** Flattens a tool result output to text, marking errors and denials as failures. */
function outcomeText(
  output: LanguageModelV3ToolResultOutput,
): { ok: boolean; text: string } {
  switch (output.type) {
    case "text":
      return { ok: true, text: output.value };
    case "json":
      return { ok: true, text: JSON.stringify(withoutDisplay(output.value)) ?? "null" };
    case "error-text":
      return { ok: false, text: output.value };
    case "error-json":
      return { ok: false, text: JSON.stringify(output.value) ?? "null" };
    case "execution-denied":
      return { ok: false, text: output.reason ?? "the call was denied" };
    case "content":
      return {
        ok: true,
        text: output.value.map((p) => (p.type === "text" ? p.text : `[${p.type}]`)).join(" "),
      };
    default:
      return { ok: true, text: "" };
  }
}

// `display` cards are shown to the user as cards; repeating them in prose adds nothing.
function withoutDisplay(value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value) || !("display" in value)) {
    return value;
  }
  const { display: _display, ...rest } = value as Record<string, unknown>;
  return rest;
}

// Long texts are fingerprinted by length, head and tail: enough to tell turns
// apart while keeping a many-megabyte prompt cheap to hash.
function bounded(text: string): string {
  return text.length <= 2048 ? text : `${text.length}:${text.slice(0, 256)}${text.slice(-256)}`;
}

function fingerprintParts(prompt: LanguageModelV3Prompt): { parts: string[]; chars: number } {
  const parts: string[] = [];
  let chars = 0;
  for (const message of prompt) {
    parts.push(message.role);
    if (message.role === "system") {
      parts.push(bounded(message.content));
      chars += message.content.length;
      continue;
    }
    for (const part of message.content) {
      parts.push(part.type);
      if (part.type === "text" || part.type === "reasoning") {
        parts.push(bounded(part.text));
        chars += part.text.length;
      } else if (part.type === "tool-call" || part.type === "tool-result") {
        parts.push(part.toolCallId, part.toolName);
        chars += part.toolName.length + 16;
      } else if (part.type === "file") {
        parts.push(part.mediaType, String(typeof part.data === "string" ? part.data.length : 0));
      }
    }
  }
  return { parts, chars };
}

function trailingResults(prompt: LanguageModelV3Prompt): Outcome[] {
  let end = prompt.length;
  const last = prompt[end - 1];
  if (last?.role === "user" && splitContext(userText(last)).rest === "") end--;
  let start = end;
  while (start > 0 && prompt[start - 1].role === "tool") start--;
  const results: Outcome[] = [];
  for (let i = start; i < end; i++) {
    const message = prompt[i];
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      results.push({ toolName: part.toolName, ...outcomeText(part.output) });
    }
  }
  return results;
}

/**
 * Reads a prompt for the offline planner.
 *
 * @example
 * ```ts
 * const view = readPrompt([{ role: "user", content: [{ type: "text", text: "<host_context>{}</host_context> hi" }] }]);
 * view.text; // "hi"
 * view.context; // "{}"
 * ```
 */
export function readPrompt(prompt: LanguageModelV3Prompt): PromptView {
  let text = "";
  let context: string | undefined;
  for (let i = prompt.length - 1; i >= 0 && context === undefined; i--) {
    if (prompt[i].role !== "user") continue;
    const split = splitContext(userText(prompt[i]));
    // Only a user message that ends the prompt asks for something now; an
    // earlier one was already answered (by the calls whose results follow it).
    if (i === prompt.length - 1) text = split.rest;
    context = split.context;
  }
  const results = trailingResults(prompt);
  const { parts, chars } = fingerprintParts(prompt);
  let resultChars = 0;
  for (const r of results) resultChars += r.text.length;
  return {
    text,
    context,
    results,
    fingerprint: hashOf(parts),
    inputTokens: Math.max(1, Math.ceil((chars + resultChars) / 4)),
  };
}
