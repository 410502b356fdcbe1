/**
 * The context blocks the runtime puts in user messages, found and replaced
 * in message text. Every block is fenced in its own tag, so a reader (the
 * model, the offline planner) can tell the runtime's blocks from a person's
 * words: `<host_context>` (the page), `<host_context_unchanged>` (the page
 * is as the last block showed it), `<host_context_omitted>` (an earlier page
 * left out by compaction) and `<conversation_summary>` (earlier turns).
 *
 * @module
 */
import type { ModelMessage } from "ai";

/** What the model reads instead of a context identical to the last one it saw. */
export const UNCHANGED_NOTE =
  "<host_context_unchanged>The page is as the last host_context above shows it.</host_context_unchanged>";

/** What replaces an earlier context that a later one superseded, once the history is compacted. */
export const OMITTED_NOTE =
  "<host_context_omitted>An earlier page, replaced by a later host_context.</host_context_omitted>";

/** A context block found in a text. */
export interface Block {
  start: number;
  end: number;
  kind: "full" | "unchanged" | "omitted" | "other";
  text: string;
}

const KINDS: Record<string, Block["kind"]> = {
  host_context: "full",
  host_context_unchanged: "unchanged",
  host_context_omitted: "omitted",
};

/**
 * The runtime's blocks at the start of a text, in order. Only leading blocks count: the
 * runtime puts its blocks before the person's words, so a tag someone typed is never one.
 *
 * @example
 * ```ts
 * blocksOf(`${UNCHANGED_NOTE}\n\nhi`)[0].kind; // "unchanged"
 * ```
 */
export function blocksOf(text: string): Block[] {
  const out: Block[] = [];
  let at = 0;
  for (;;) {
    while (at < text.length && /\s/.test(text[at])) at++;
    const tag = /^<([a-z_]+)>/.exec(text.slice(at, at + 40))?.[1];
    if (!tag || !(tag in KINDS || tag === "remote_context" || tag === "conversation_summary")) {
      return out;
    }
    const close = text.indexOf(`</${tag}>`, at);
    const end = close < 0 ? text.length : close + tag.length + 3;
    out.push({ start: at, end, kind: KINDS[tag] ?? "other", text: text.slice(at, end) });
    at = end;
  }
}

/**
 * The text parts of a user message, as [index, text] (index -1 for string content).
 *
 * @example
 * ```ts
 * for (const [index, text] of userTexts(message)) console.log(index, text.length);
 * ```
 */
export function userTexts(message: ModelMessage): [number, string][] {
  if (message.role !== "user") return [];
  if (typeof message.content === "string") return [[-1, message.content]];
  const out: [number, string][] = [];
  message.content.forEach((part, i) => {
    if (part.type === "text") out.push([i, part.text]);
  });
  return out;
}

/**
 * A user message with each context block replaced by what `replace` returns for it.
 *
 * @example
 * ```ts
 * mapBlocks(message, (block) => block.kind === "full" ? OMITTED_NOTE : block.text);
 * ```
 */
export function mapBlocks(
  message: ModelMessage,
  replace: (block: Block, index: number) => string,
): ModelMessage {
  if (message.role !== "user") return message;
  let n = 0;
  const rewrite = (text: string) => {
    const blocks = blocksOf(text).filter((b) => b.kind !== "other");
    if (!blocks.length) return text;
    let out = "";
    let at = 0;
    for (const block of blocks) {
      out += text.slice(at, block.start) + replace(block, n++);
      at = block.end;
    }
    return out + text.slice(at);
  };
  if (typeof message.content === "string") return { ...message, content: rewrite(message.content) };
  return {
    ...message,
    content: message.content.map((part) =>
      part.type === "text" ? { ...part, text: rewrite(part.text) } : part
    ),
  };
}
