/**
 * Spares the AI SDK checking and converting a long history again at every
 * request. `streamText` checks every message it is given against its schema
 * and converts each into the provider's prompt
 * (`convertToLanguageModelPrompt`), at every request: the whole history each
 * time, a cost that grows with the session. Between two compactions the
 * messages of one request begin with the very message objects of the one
 * before (`server/history/view.ts`), so the part before the request's last
 * user message is checked and converted once, by the SDK's own functions,
 * and kept per session in this process; `streamText` is given the messages
 * from that user message on, and the model it calls (the SDK's
 * `wrapLanguageModel`) puts the kept part back between the system prompt and
 * them. The provider receives the prompt the
 * SDK would have built from the whole list:
 *
 * - the kept part is converted in pieces that each end before a user
 *   message, and the SDK's conversion joins nothing across one (it joins
 *   only consecutive tool messages);
 * - a piece is reused only while each of its messages, and each before it,
 *   is the same object it was converted from (a compaction, a moved cache
 *   breakpoint or a copy of a message converts from there again), and only
 *   for a model that takes the same URLs as they are (the conversion
 *   downloads the others);
 * - each message of a piece is checked against the SDK's message schema (the
 *   `ai` package's own, which passes a settled message as checked,
 *   `_prompt_check.ts`); a piece the schema or the conversion refuses is not
 *   kept: the request is sent whole, and the SDK reports the error as it
 *   always does.
 *
 * Models of another specification than the SDK's current one (`v3`) are
 * given the whole list.
 *
 * @module
 */
import { type ModelMessage, modelMessageSchema, wrapLanguageModel } from "ai";
import { convertToLanguageModelPrompt } from "ai/internal";
import type { LanguageModelV3, LanguageModelV3Prompt } from "@ai-sdk/provider";

/**
 * Sessions whose converted history a process keeps, and the characters (as JSON) of the
 * messages converted in all; past either, the sessions used longest ago are dropped, and
 * converted again from the start when next asked.
 */
export const KEPT_PROMPTS = 500;
export const KEPT_CHARS = 8_000_000;
/** Histories with fewer messages than this before their last user message are given whole. */
export const MIN_KEPT = 32;

interface Kept {
  /** What the conversion depends on: the URLs the model takes as they are. */
  urls: string;
  /** The messages converted, the objects themselves. */
  sources: readonly ModelMessage[];
  converted: LanguageModelV3Prompt;
  /**
   * Where each piece ends, in `sources` and in `converted`, with the characters up to there,
   * ascending from `[0, 0, 0]`: each piece ends before a user message, so its conversion
   * stands whatever follows it.
   */
  bounds: [source: number, converted: number, chars: number][];
  /** The characters of `sources` as JSON. */
  chars: number;
}

// In the order last used (a few hundred entries at most, so a Map's own order will do).
const kept = new Map<string, Kept>();
let keptChars = 0;

function forget(sessionId: string): void {
  const entry = kept.get(sessionId);
  if (entry === undefined) return;
  kept.delete(sessionId);
  keptChars -= entry.chars;
}

function keep(sessionId: string, entry: Kept): void {
  forget(sessionId);
  if (entry.chars > KEPT_CHARS) return;
  kept.set(sessionId, entry);
  keptChars += entry.chars;
  for (const oldest of kept.keys()) {
    if (keptChars <= KEPT_CHARS && kept.size <= KEPT_PROMPTS) break;
    forget(oldest);
  }
}

/** How many sessions and characters are kept now (for tests). */
export function keptPrompts(): { sessions: number; chars: number } {
  return { sessions: kept.size, chars: keptChars };
}

/** What one request hands `streamText`: the model to call and the messages to give it. */
export interface SplitRequest {
  model: LanguageModelV3;
  messages: ModelMessage[];
}

/**
 * The model and messages of one request of `sessionId`: its history before the last user
 * message converted once and put back in front by the model (see the module doc).
 *
 * @example
 * ```ts
 * const { model, messages } = await splitPrompt("s1", provider, prepared.messages, signal);
 * streamText({ model, system, messages, tools });
 * ```
 */
export async function splitPrompt(
  sessionId: string,
  model: LanguageModelV3,
  messages: ModelMessage[],
  signal?: AbortSignal,
): Promise<SplitRequest> {
  if (model.specificationVersion !== "v3") return { model, messages };
  let cut = messages.length - 1;
  while (cut > 0 && messages[cut].role !== "user") cut--;
  if (cut < MIN_KEPT) return { model, messages };
  const supportedUrls = await model.supportedUrls;
  const urls = JSON.stringify(
    Object.entries(supportedUrls).map(([type, patterns]) => [type, patterns.map(String)]),
  );
  const before = kept.get(sessionId);
  let bounds: [number, number, number][] = [[0, 0, 0]];
  let converted: LanguageModelV3Prompt = [];
  let chars = 0;
  if (before && before.urls === urls) {
    const n = Math.min(before.sources.length, cut);
    let same = 0;
    while (same < n && before.sources[same] === messages[same]) same++;
    let b = before.bounds.length - 1;
    while (before.bounds[b][0] > same) b--;
    bounds = b === before.bounds.length - 1 ? before.bounds : before.bounds.slice(0, b + 1);
    const length = bounds[b][1];
    chars = bounds[b][2];
    converted = length === before.converted.length
      ? before.converted
      : before.converted.slice(0, length);
  }
  const from = bounds[bounds.length - 1][0];
  if (from < cut) {
    try {
      // The new messages as one piece, ending before the last user message.
      const piece = messages.slice(from, cut);
      chars += JSON.stringify(piece).length;
      if (piece.some((m) => m.role === "system" || !modelMessageSchema.safeParse(m).success)) {
        throw new Error("not a message the SDK takes");
      }
      const more = await convertToLanguageModelPrompt({
        prompt: { messages: piece },
        supportedUrls,
        download: undefined,
        abortSignal: signal,
      });
      converted = converted.concat(more);
      bounds = [...bounds, [cut, converted.length, chars]];
    } catch {
      forget(sessionId);
      return { model, messages };
    }
    keep(sessionId, { urls, sources: messages.slice(0, cut), converted, bounds, chars });
  } else if (before) {
    keep(sessionId, before);
  }
  return { model: withPrefix(model, converted), messages: messages.slice(cut) };
}

/** `model`, with `prefix` put between the system messages of each prompt and the rest. */
function withPrefix(model: LanguageModelV3, prefix: LanguageModelV3Prompt): LanguageModelV3 {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      transformParams: ({ params }) => {
        const prompt = params.prompt;
        let system = 0;
        while (system < prompt.length && prompt[system].role === "system") system++;
        return Promise.resolve({
          ...params,
          prompt: [...prompt.slice(0, system), ...prefix, ...prompt.slice(system)],
        });
      },
    },
  });
}
