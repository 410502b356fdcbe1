/**
 * A request's history, built once per settled message (private to
 * `server/turn/`). Every model request turned the session's whole history
 * into the messages it sends (the items of each stored message, each shortened
 * as the history state says, each as the provider may receive it) and summed
 * their estimated tokens: one step per message at every request, so a turn cost
 * more the longer its session (`npm run bench -- long`: a quarter of a
 * millisecond more a turn at turn 200).
 *
 * Settled messages (`SETTLED`, `server/session/_settled.ts`) never change, and
 * what each becomes depends only on it, the history state's compaction fields
 * and the provider's rules. So each session keeps that work for its settled
 * prefix, under those fields and rules, and a request adds only what came
 * since: the messages of the running turn, and those settled since the last
 * request. A compaction, another model's rules or a history that no longer
 * starts with the kept messages starts the session's prefix again. What is
 * shown live in a run (a screenshot) belongs to its running turn, never to a
 * settled message, so it is put in the rest only. At most
 * {@linkcode KEPT_VIEWS} sessions and {@linkcode KEPT_TOKENS} estimated
 * tokens of messages are kept, the least recently used dropped first.
 *
 * @module
 */
import type { ModelMessage } from "ai";
import { messageTokens } from "../history/estimate.ts";
import { compare, type HistoryState } from "../history/state.ts";
import { fingerprintOf, type Item, itemsOf, shorten, summaryMessage } from "../history/view.ts";
import { SETTLED } from "../session/_settled.ts";
import type { StoredMessage } from "../session/records.ts";
import type { ToolOutput } from "../tools/backend_tool.ts";
import { liveIn } from "./_messages.ts";

/** Sessions whose prefix is kept, the least recently used dropped first. */
export const KEPT_VIEWS = 500;
/** Estimated tokens of messages kept over all sessions (three bytes a token: 8 MB or so). */
export const KEPT_TOKENS = 2_700_000;

/** A request's history. */
export interface HistoryView {
  /** Every item of the history, those in the summary included (what compaction plans from). */
  items: Item[];
  /** The messages as the provider receives them: the summary first, when there is one. */
  messages: ModelMessage[];
  /** The estimated tokens of `messages`. */
  tokens: number;
  /** Whether `messages` opens with the summary. */
  summary: boolean;
  /** The index in `messages` of the running turn's first message, or -1 when it is summarised. */
  turnStart: number;
}

interface Prefix {
  /** The compaction fields and the provider's rules the prefix was built under. */
  key: string;
  /** The stored messages it covers: the first `count` of the history, ending at `last`. */
  count: number;
  last: object | undefined;
  items: Item[];
  /** What the kept items become (those in the summary become nothing). */
  messages: ModelMessage[];
  tokens: number;
  /** The index in `items` of the last item that starts a turn, or -1. */
  turn: number;
  /** The tokens counted in the total kept (`keep()`). */
  counted?: number;
}

// In the order last used (a few hundred entries at most, so a Map's own order will do).
const prefixes = new Map<string, Prefix>();
let keptTokens = 0;

function drop(sessionId: string): void {
  const prefix = prefixes.get(sessionId);
  if (prefix === undefined) return;
  prefixes.delete(sessionId);
  keptTokens -= prefix.counted ?? 0;
}

function keep(sessionId: string, prefix: Prefix): void {
  drop(sessionId);
  if (prefix.tokens > KEPT_TOKENS) return;
  prefixes.set(sessionId, prefix);
  keptTokens += prefix.counted = prefix.tokens;
  for (const oldest of prefixes.keys()) {
    if (keptTokens <= KEPT_TOKENS && prefixes.size <= KEPT_VIEWS) break;
    drop(oldest);
  }
}

/** How much is kept now (for tests and benchmarks). */
export function keptViews(): { sessions: number; tokens: number } {
  return { sessions: prefixes.size, tokens: keptTokens };
}

type Numbered = { seq: number; message: StoredMessage };

/**
 * The history of one request: `past` (the stored messages before the running one, in order)
 * and `current` (the running assistant message's steps), under `state`, each message as
 * `forProvider` makes it (`rules` names what that depends on besides the message), with what
 * `live` holds shown in place of its placeholders.
 *
 * @example
 * ```ts
 * const view = historyView("s1", past, { seq, steps }, state, "images:4000", (m) => m, live);
 * ```
 */
export function historyView(
  sessionId: string,
  past: readonly Numbered[],
  current: { seq: number; steps: readonly ModelMessage[] },
  state: HistoryState,
  rules: string,
  forProvider: (message: ModelMessage) => ModelMessage,
  live: Map<string, ToolOutput> = new Map(),
): HistoryView {
  const key = `${fingerprintOf(state)}\n${rules}`;
  let prefix = prefixes.get(sessionId);
  if (
    !prefix || prefix.key !== key || prefix.count > past.length ||
    (prefix.count > 0 && past[prefix.count - 1] !== prefix.last)
  ) {
    prefix = { key, count: 0, last: undefined, items: [], messages: [], tokens: 0, turn: -1 };
  }
  // The settled messages since: added to the prefix, once.
  let settled = prefix.count;
  while (settled < past.length && SETTLED.has(past[settled])) settled++;
  if (settled > prefix.count) {
    const added = itemsOf(past.slice(prefix.count, settled));
    extend(prefix, added, state, forProvider);
    prefix.count = settled;
    prefix.last = past[settled - 1];
  }
  keep(sessionId, prefix);
  // The rest: messages not settled yet, and the running one's steps.
  const rest: Prefix = {
    key,
    count: 0,
    last: undefined,
    items: [],
    messages: [],
    tokens: 0,
    turn: -1,
  };
  const restFor = live.size ? (m: ModelMessage) => forProvider(liveIn(m, live)) : forProvider;
  extend(rest, itemsOf(past.slice(settled), current), state, restFor);
  const head = summaryMessage(state);
  const messages = head ? [head] : [];
  const turn = rest.turn >= 0 ? prefix.items.length + rest.turn : prefix.turn;
  const kept = prefix.messages.length + rest.messages.length;
  const skipped = prefix.items.length + rest.items.length - kept;
  return {
    items: prefix.items.concat(rest.items),
    messages: messages.concat(prefix.messages, rest.messages),
    tokens: (head ? messageTokens(head) : 0) + prefix.tokens + rest.tokens,
    summary: head !== null,
    turnStart: turn >= skipped ? turn - skipped + (head ? 1 : 0) : -1,
  };
}

/** Adds items (and what the kept ones become) to a prefix. */
function extend(
  prefix: Prefix,
  items: readonly Item[],
  state: HistoryState,
  forProvider: (message: ModelMessage) => ModelMessage,
): void {
  for (const item of items) {
    if (item.turnStart) prefix.turn = prefix.items.length;
    prefix.items.push(item);
    if (compare(item.pos, state.from) < 0) continue;
    const message = forProvider(shorten(item, state)!);
    prefix.messages.push(message);
    prefix.tokens += messageTokens(message);
  }
}
