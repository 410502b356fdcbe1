/**
 * A conversation's title, made from the person's first message and never
 * from the host context: at once, plainly (its first words), in the commit
 * that writes the message; then, when the turn's model is not the offline
 * one, by the model in a small call of its own, started once the first turn
 * has answered (`Engine`), that replaces the plain title unless a person
 * renamed the conversation first.
 *
 * The model call is bounded (a few output tokens, a timeout, a cap on calls
 * in flight) and nothing waits for it: a turn never does, and a failed or
 * skipped call leaves the plain title.
 *
 * @module
 */
import { generateText, type LanguageModel } from "ai";
import type { Logger } from "../log.ts";
import type { ListingFields, SessionRecord } from "./records.ts";

/** The longest automatic title, in characters. */
export const TITLE_CHARS = 60;
/** Model title calls in flight at once in a process; more keep their plain title. */
export const TITLE_CALLS = 4;
/** How long a model title call may take. */
export const TITLE_TIMEOUT_MS = 15_000;
/** How much of the first message the model reads. */
const PROMPT_CHARS = 2_000;

const INSTRUCTIONS =
  "Write a short title (two to six words) for a conversation that opens with the user's message. " +
  "Answer with the title alone: no quotes, no full stop, no other words.";

/**
 * Text as one line: control characters and line breaks become spaces, runs of spaces one.
 *
 * @example
 * ```ts
 * oneLine("a\n\tb  c"); // "a b c"
 * ```
 */
export function oneLine(text: string): string {
  // deno-lint-ignore no-control-regex -- control characters are what goes
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").replace(/\s+/g, " ")
    .trim();
}

/**
 * One line of plain text of at most `max` characters, cut at a word where it can be:
 * control characters and runs of spaces go.
 *
 * @example
 * ```ts
 * cleanTitle("  Issues  assigned\nto alice  "); // "Issues assigned to alice"
 * ```
 */
export function cleanTitle(text: string, max = TITLE_CHARS): string {
  const line = oneLine(text);
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, "")}…`;
}

/**
 * What a model answered for a title, without the wrapping it tends to add: a
 * `Title:` label, Markdown marks, quotes around it, a full stop.
 *
 * @example
 * ```ts
 * modelTitle('Title: "Login redirect loop."'); // "Login redirect loop"
 * ```
 */
export function modelTitle(text: string): string {
  return oneLine(text).replace(/^title\s*:\s*/i, "").replace(/^[#*_\s]+|[*_\s]+$/g, "")
    .replace(/^["'“‘«`](.*)["'”’»`]$/, "$1").replace(/\.$/, "").trim();
}

/**
 * The plain title of a first message: its first words, the first letter in capitals.
 *
 * @example
 * ```ts
 * plainTitle("show me the open bugs"); // "Show me the open bugs"
 * ```
 */
export function plainTitle(content: string): string {
  const words = cleanTitle(content);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The listing of a session whose first message is `content`: titled with
 * its first words when it has no title yet, else as it was.
 *
 * @example
 * ```ts
 * const record = { ...previous, listing: titled(previous, "show me the bugs") };
 * ```
 */
export function titled(
  previous: SessionRecord,
  content: string,
  outputMode: "text" | "host_tools" = "text",
): ListingFields | undefined {
  const listing = previous.listing;
  // A session a silent decision starts is no conversation a person comes back to.
  if (!listing?.key && outputMode === "host_tools") return { ...listing, unlisted: true };
  if (listing?.title) return listing;
  const title = plainTitle(content);
  if (!title) return listing;
  return { ...listing, title, title_source: "auto" };
}

/** Rejects once `signal` aborts. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/**
 * Asks models for titles in the background and hands each one to `apply`.
 *
 * @example
 * ```ts
 * const titles = new ModelTitles((sid, title) => engine.retitle(sid, title), logger);
 * titles.start("s1", "why does the login loop?", model);
 * ```
 */
export class ModelTitles {
  #apply: (sessionId: string, title: string) => Promise<void>;
  #logger: Logger;
  #running = new Set<Promise<void>>();
  #stop = new AbortController();
  #said = false;

  constructor(apply: (sessionId: string, title: string) => Promise<void>, logger: Logger) {
    this.#apply = apply;
    this.#logger = logger;
  }

  /** How many calls are in flight now. */
  get running(): number {
    return this.#running.size;
  }

  /** Starts a title call for the first message of a session; returns at once. */
  start(
    sessionId: string,
    content: string,
    model: LanguageModel,
    providerOptions?: Record<string, Record<string, unknown>>,
  ): void {
    if (this.#stop.signal.aborted || this.#running.size >= TITLE_CALLS) return;
    if (!cleanTitle(content)) return;
    const signal = AbortSignal.any([this.#stop.signal, AbortSignal.timeout(TITLE_TIMEOUT_MS)]);
    const job: Promise<void> = (async () => {
      try {
        const { text } = await Promise.race([
          generateText({
            model,
            system: INSTRUCTIONS,
            prompt: content.slice(0, PROMPT_CHARS),
            maxOutputTokens: 24,
            maxRetries: 0,
            abortSignal: signal,
            ...(providerOptions ? { providerOptions: providerOptions as never } : {}),
          }),
          // A model that ignores the signal still lets `stop()` (and so a shutdown) end.
          aborted(signal),
        ]);
        const title = cleanTitle(modelTitle(text));
        if (title) await this.#apply(sessionId, title);
      } catch (error) {
        // The plain title stays; said once per process, so a model without titles is one line.
        if (!this.#stop.signal.aborted && !this.#said) {
          this.#said = true;
          this.#logger.info("the model gave no title for a conversation; plain titles stay", {
            session_id: sessionId,
            error: (error as Error)?.message,
          });
        }
      }
    })().finally(() => this.#running.delete(job));
    this.#running.add(job);
  }

  /** Abandons the calls in flight and waits for them. */
  async stop(): Promise<void> {
    this.#stop.abort();
    await Promise.all(this.#running);
  }
}
