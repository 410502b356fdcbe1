/**
 * The history the model reads, built from the stored messages and the
 * session's history state: the summary first (once there is one), then the
 * kept messages, those before `frozen` shortened as the last compaction
 * decided, the rest replayed exactly as stored. Nothing here depends on
 * anything but stored data, so every process builds the same bytes, and
 * between two compactions each request's messages are a prefix of the next
 * one's.
 *
 * @module
 */
import type { ModelMessage, ToolResultPart } from "ai";
import { SETTLED } from "../session/_settled.ts";
import type { StoredMessage } from "../session/records.ts";
import { fence } from "../turn/prompt.ts";
import { blocksOf, mapBlocks, OMITTED_NOTE, userTexts } from "./blocks.ts";
import { textTokens } from "./estimate.ts";
import { compare, type HistoryState, type Position } from "./state.ts";

/** One model message of the history, with its place. */
export interface Item {
  pos: Position;
  message: ModelMessage;
  /** True for a stored user message: a turn starts here. */
  turnStart: boolean;
}

/**
 * The history's items: each stored user message, each step of each assistant message, then
 * the running assistant message's steps (at `current.seq`).
 *
 * @example
 * ```ts
 * const items = itemsOf(loaded.messages.filter((m) => m.seq < seq), { seq, steps: assistant.steps });
 * ```
 */
export function itemsOf(
  past: readonly { seq: number; message: StoredMessage }[],
  current?: { seq: number; steps: readonly ModelMessage[] },
): Item[] {
  const items: Item[] = [];
  for (const { seq, message } of past) {
    if (message.role === "user") {
      items.push({ pos: { seq, step: 0 }, message: message.model, turnStart: true });
    } else {message.steps.forEach((m, step) =>
        items.push({ pos: { seq, step }, message: m, turnStart: false })
      );}
  }
  current?.steps.forEach((m, step) =>
    items.push({ pos: { seq: current.seq, step }, message: m, turnStart: false })
  );
  return items;
}

/** A shortened tool result is longer than this. */
export const ELIDE_TOKENS = 200;

function elidedResult(part: ToolResultPart): ToolResultPart {
  const chars = JSON.stringify(part.output).length;
  return {
    ...part,
    output: {
      type: "text",
      value:
        `[An earlier result of about ${chars} characters, left out to keep the conversation within the model's budget.]`,
    },
  };
}

function resultTokens(part: ToolResultPart): number {
  return textTokens(JSON.stringify(part.output) ?? "");
}

// The shortened form of each stored message object, per state: built once per turn.
const shortened = new WeakMap<ModelMessage, { state: HistoryState; message: ModelMessage }>();

/**
 * An item as the state says the model reads it (null when it is in the summary).
 *
 * @example
 * ```ts
 * const message = shorten(item, state);
 * ```
 */
export function shorten(item: Item, state: HistoryState): ModelMessage | null {
  if (compare(item.pos, state.from) < 0) return null;
  if (compare(item.pos, state.frozen) >= 0) return item.message;
  const seen = shortened.get(item.message);
  if (seen?.state === state) return seen.message;
  let message = item.message;
  if (message.role === "user") {
    const here = state.current !== null && compare(item.pos, state.current) === 0;
    message = mapBlocks(message, (block) => {
      if (block.kind === "omitted") return block.text;
      return here && state.context ? state.context : OMITTED_NOTE;
    });
  } else if (message.role === "tool" && state.results_from) {
    if (compare(item.pos, state.results_from) < 0) {
      message = {
        ...message,
        content: message.content.map((part) =>
          part.type === "tool-result" && resultTokens(part) > ELIDE_TOKENS
            ? elidedResult(part)
            : part
        ),
      };
    }
  }
  shortened.set(item.message, { state, message });
  return message;
}

/**
 * The message that opens a compacted history: the summary, and the page when the message
 * that showed it was summarised.
 *
 * @example
 * ```ts
 * summaryMessage(state); // { role: "user", content: "<conversation_summary>…" }
 * ```
 */
export function summaryMessage(state: HistoryState): ModelMessage | null {
  const parts: string[] = [];
  if (state.summary) {
    parts.push(
      `<conversation_summary>\nEarlier turns of this conversation, summarised:\n${
        fence(state.summary)
      }\n</conversation_summary>`,
    );
  }
  if (state.compactions && state.current === null && state.context) parts.push(state.context);
  return parts.length ? { role: "user", content: parts.join("\n\n") } : null;
}

// One summary message object per state, so its estimate and its bytes are made once.
const summaries = new WeakMap<HistoryState, ModelMessage | null>();

/**
 * The messages the model reads for these items under this state.
 *
 * @example
 * ```ts
 * const messages = viewOf(itemsOf(past, current), state);
 * ```
 */
export function viewOf(items: readonly Item[], state: HistoryState): ModelMessage[] {
  let summary = summaries.get(state);
  if (summary === undefined) summaries.set(state, summary = summaryMessage(state));
  const out: ModelMessage[] = summary ? [summary] : [];
  for (const item of items) {
    const message = shorten(item, state);
    if (message) out.push(message);
  }
  return out;
}

/**
 * The page block the model saw last in these messages (an unchanged note resolved to the
 * block it refers to), or null when none was shown.
 *
 * @example
 * ```ts
 * if (lastContext(view) === block) content = UNCHANGED_NOTE;
 * ```
 */
export function lastContext(messages: readonly ModelMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const found = fullBlockOf(messages[i]);
    if (found !== null) return found;
  }
  return null;
}

// A page that stays the same is a note in every later message, so the walk above goes back to
// the session's first page: a message's own answer is remembered (messages are not changed once
// made; a changed copy is another object).
const fullBlocks = new WeakMap<ModelMessage, string | null>();

/** The last page shown in full in one message, or null. */
function fullBlockOf(message: ModelMessage): string | null {
  const known = fullBlocks.get(message);
  if (known !== undefined) return known;
  let found: string | null = null;
  const texts = userTexts(message);
  for (let t = texts.length - 1; t >= 0 && found === null; t--) {
    const blocks = blocksOf(texts[t][1]);
    for (let b = blocks.length - 1; b >= 0; b--) {
      if (blocks[b].kind === "full") {
        found = blocks[b].text;
        break;
      }
    }
  }
  fullBlocks.set(message, found);
  return found;
}

// What the view of a stored message and everything before it shows depends on those messages,
// which never change once stored, and on the state's compaction fields: keyed by them.
const fingerprints = new WeakMap<HistoryState, string>();
const INITIAL = JSON.stringify([
  { seq: 0, step: 0 },
  { seq: 0, step: 0 },
  null,
  null,
  null,
  "",
  0,
]);
const shownUpTo = new WeakMap<StoredMessage, { fingerprint: string; page: string | null }>();

/**
 * What a history state decides about how messages read (its compaction fields), as text: two
 * states with the same fingerprint shorten every message alike.
 *
 * @example
 * ```ts
 * fingerprintOf(initialState()) === fingerprintOf(initialState()); // true
 * ```
 */
export function fingerprintOf(state: HistoryState): string {
  // A session that was never compacted (nearly every request) has the initial fields: a
  // state object is made for each turn, so its text would be made again each turn.
  if (
    state.compactions === 0 && state.summary === "" && state.context === null &&
    state.current === null && state.results_from === null && state.from.seq === 0 &&
    state.from.step === 0 && state.frozen.seq === 0 && state.frozen.step === 0
  ) return INITIAL;
  let known = fingerprints.get(state);
  if (known === undefined) {
    const { from, frozen, current, context, results_from, summary, compactions } = state;
    known = JSON.stringify([from, frozen, current, context, results_from, summary, compactions]);
    fingerprints.set(state, known);
  }
  return known;
}

/**
 * `lastContext(viewOf(itemsOf(past, current), state))` without building the view: the walk
 * back stops at the first page shown in full, or at a settled stored message (`SETTLED`) whose
 * answer under the same compaction fields is remembered, so a page that never changes costs
 * each message one look once, not at every turn.
 *
 * @example
 * ```ts
 * if (lastPageShown(loaded.messages, undefined, state) === block) content = UNCHANGED_NOTE;
 * ```
 */
export function lastPageShown(
  past: readonly { seq: number; message: StoredMessage }[],
  current: { seq: number; steps: readonly ModelMessage[] } | undefined,
  state: HistoryState,
): string | null {
  const seen = (item: Item) => {
    const message = shorten(item, state);
    return message === null ? null : fullBlockOf(message);
  };
  if (current) {
    for (let step = current.steps.length - 1; step >= 0; step--) {
      const page = seen({
        pos: { seq: current.seq, step },
        message: current.steps[step],
        turnStart: false,
      });
      if (page !== null) return page;
    }
  }
  const fingerprint = fingerprintOf(state);
  const walked: StoredMessage[] = [];
  let page: string | null | undefined;
  for (let i = past.length - 1; i >= 0 && page === undefined; i--) {
    const { seq, message } = past[i];
    const known = shownUpTo.get(message);
    if (known?.fingerprint === fingerprint) {
      page = known.page;
      break;
    }
    walked.push(message);
    if (message.role === "user") {
      const pos = { seq, step: 0 };
      if (compare(pos, state.from) < 0) break;
      page = seen({ pos, message: message.model, turnStart: true }) ?? undefined;
    } else {
      for (let step = message.steps.length - 1; step >= 0 && page === undefined; step--) {
        const pos = { seq, step };
        if (compare(pos, state.from) < 0) break;
        page = seen({ pos, message: message.steps[step], turnStart: false }) ?? undefined;
      }
    }
  }
  if (page === undefined) {
    // Nothing after the summary shows a page in full: the summary message may.
    const summary = summaryMessage(state);
    page = summary === null ? null : fullBlockOf(summary);
  }
  for (const message of walked) {
    if (SETTLED.has(message)) shownUpTo.set(message, { fingerprint, page });
  }
  return page;
}
