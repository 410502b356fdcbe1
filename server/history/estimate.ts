/**
 * The runtime's token estimate of a request, made before it is sent.
 *
 * It is an approximation meant to err high: one token for every three bytes
 * of UTF-8 text (tokenizers give about four for English, three for dense
 * JSON and non-Latin scripts), 2,500 for an image (above what OpenAI and
 * Anthropic count for an image at their default sizes), a quarter of the
 * characters of a base64 file, and a fixed framing per message and tool.
 * The local provider servers under `tests/providers/` count a quarter of
 * the bytes, so the estimate is higher than theirs by construction; against
 * a real provider the backstop is the length refusal, which compacts and
 * retries once.
 *
 * @module
 */
import type { ModelMessage } from "ai";

/** What one image is counted as. */
export const IMAGE_TOKENS = 2_500;
/** What a file or image given by URL is counted as (its size is unknown here). */
export const URL_FILE_TOKENS = 5_000;
/** Framing of one message (role, separators). */
const MESSAGE_TOKENS = 8;
/** Framing of one tool definition. */
const TOOL_TOKENS = 16;

// deno-lint-ignore no-control-regex -- ASCII is exactly what UTF-8 writes in one byte
const WIDE = /[^\x00-\x7f]/;

/**
 * The UTF-8 length of a string, without encoding it.
 *
 * @example
 * ```ts
 * utf8Length("é"); // 2
 * ```
 */
export function utf8Length(text: string): number {
  // ASCII is one byte a character: a native search finds where anything wider starts, if it does.
  const wide = text.search(WIDE);
  if (wide === -1) return text.length;
  let bytes = text.length;
  for (let i = wide; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff) i++, bytes += 2; // a surrogate pair: 4 bytes for 2 units
    else bytes += 2;
  }
  return bytes;
}

/**
 * Estimated tokens of a text.
 *
 * @example
 * ```ts
 * textTokens("hello world"); // 4
 * ```
 */
export function textTokens(text: string): number {
  return Math.ceil(utf8Length(text) / 3);
}

function jsonTokens(value: unknown): number {
  return textTokens(JSON.stringify(value) ?? "null");
}

function dataTokens(data: unknown, image: boolean): number {
  if (typeof data === "string") {
    if (/^https?:\/\//.test(data)) return image ? IMAGE_TOKENS : URL_FILE_TOKENS;
    return image ? IMAGE_TOKENS : Math.ceil(data.length / 4);
  }
  if (data instanceof URL) return image ? IMAGE_TOKENS : URL_FILE_TOKENS;
  const bytes = (data as { byteLength?: number })?.byteLength ?? 0;
  return image ? IMAGE_TOKENS : Math.ceil(bytes / 3);
}

// deno-lint-ignore no-explicit-any -- every part shape of the SDK's messages is read here
function partTokens(part: any): number {
  switch (part?.type) {
    case "text":
    case "reasoning":
      return textTokens(part.text ?? "");
    case "image":
      return dataTokens(part.image, true);
    case "file":
      return dataTokens(part.data, String(part.mediaType ?? "").startsWith("image/"));
    case "tool-call":
      return textTokens(part.toolName ?? "") + jsonTokens(part.input) + TOOL_TOKENS;
    case "tool-result":
      return textTokens(part.toolName ?? "") + outputTokens(part.output) + TOOL_TOKENS;
    default:
      return jsonTokens(part);
  }
}

// deno-lint-ignore no-explicit-any -- the SDK's tool result output union
function outputTokens(output: any): number {
  switch (output?.type) {
    case "text":
    case "error-text":
      return textTokens(output.value ?? "");
    case "json":
    case "error-json":
      return jsonTokens(output.value);
    case "content": {
      let sum = 0;
      for (const p of output.value ?? []) {
        if (p.type === "text") sum += textTokens(p.text ?? "");
        else if (p.type === "image-data" || p.type === "image-url") sum += IMAGE_TOKENS;
        else if (p.type === "file-data") sum += Math.ceil(String(p.data ?? "").length / 4);
        else if (p.type === "file-url") sum += URL_FILE_TOKENS;
        else sum += jsonTokens(p);
      }
      return sum;
    }
    default:
      return jsonTokens(output ?? null);
  }
}

// Stored messages are read once per turn and sent with every model request of it.
const known = new WeakMap<object, number>();

/**
 * Estimated tokens of one model message (remembered per message object).
 *
 * @example
 * ```ts
 * messageTokens({ role: "user", content: "hello" }); // 10
 * ```
 */
export function messageTokens(message: ModelMessage): number {
  const seen = known.get(message);
  if (seen !== undefined) return seen;
  let sum = MESSAGE_TOKENS;
  const content = message.content as unknown;
  if (typeof content === "string") sum += textTokens(content);
  else for (const part of content as unknown[]) sum += partTokens(part);
  known.set(message, sum);
  return sum;
}

/** A tool as a request describes it. */
export interface ToolDescription {
  name: string;
  description?: string;
  parameters?: unknown;
}

/**
 * Estimated tokens of a request: system prompt, tool definitions and messages.
 *
 * @example
 * ```ts
 * requestTokens("You help.", [], [{ role: "user", content: "hi" }]);
 * ```
 */
export function requestTokens(
  system: string,
  tools: readonly ToolDescription[],
  messages: readonly ModelMessage[],
): number {
  let sum = MESSAGE_TOKENS + textTokens(system);
  for (const t of tools) {
    sum += TOOL_TOKENS + textTokens(t.name) + textTokens(t.description ?? "") +
      jsonTokens(t.parameters ?? {});
  }
  for (const m of messages) sum += messageTokens(m);
  return sum;
}
