/**
 * Compaction: when a request would not fit its budget, older turns are
 * replaced by a summary, in one large step. The most recent turns stay
 * whole; in what is kept, pages a later page superseded are left out (the
 * latest page stays, in full) and long tool results older than the most
 * recent few are shortened. The step brings the request down to the
 * target share of the budget, so the prefix the provider caches changes
 * only at the next compaction, many turns later.
 *
 * @module
 */
import { blocksOf, userTexts } from "./blocks.ts";
import { messageTokens, textTokens } from "./estimate.ts";
import { compare, type HistoryState, type Position } from "./state.ts";
import { type Item, shorten, summaryMessage } from "./view.ts";

/** What a compaction is planned with, in estimated tokens. */
export interface CompactionLimits {
  /** The system prompt and the tool definitions: the part of a request no compaction shrinks. */
  fixedTokens: number;
  /** Where compaction brings a request. */
  targetTokens: number;
  /** Turns kept whole when they fit the target. */
  keepTurns: number;
  /** Tool results never shortened, counted from the newest. */
  protectedResults: number;
  /** Room left for the summary that is still to be written. */
  summaryTokens: number;
}

/** A planned compaction: the new state (its summary still to write) and the items to fold into it. */
export interface CompactionPlan {
  state: HistoryState;
  /** The items leaving the history, oldest first; empty when only the kept part is shortened. */
  summarise: Item[];
  /** The estimate of the history once the summary is written (at `summaryTokens` for it). */
  tokens: number;
}

/** The last page block shown at or before `index`, resolved through unchanged notes. */
function pageAt(items: readonly Item[], index: number): { at: number; text: string } | null {
  let at = -1;
  for (let i = index; i >= 0; i--) {
    for (const [, text] of userTexts(items[i].message).reverse()) {
      const blocks = blocksOf(text).filter((b) => b.kind === "full" || b.kind === "unchanged");
      const last = blocks.at(-1);
      if (!last) continue;
      if (at < 0) at = i; // the message that shows the latest page, in full or as a note
      if (last.kind === "full") return { at, text: last.text };
    }
  }
  return null;
}

function after(pos: Position): Position {
  return { seq: pos.seq, step: pos.step + 1 };
}

/**
 * Plans a compaction of `items` (the whole history, summarised ones included) under `state`.
 *
 * @example
 * ```ts
 * const plan = planCompaction(items, state, limits);
 * plan.state.summary = await summarize(...);
 * ```
 */
export function planCompaction(
  items: readonly Item[],
  state: HistoryState,
  limits: CompactionLimits,
): CompactionPlan | null {
  if (!items.length) return null;
  const first = items.findIndex((i) => compare(i.pos, state.from) >= 0);
  const start = first < 0 ? items.length : first;
  const page = pageAt(items, items.length - 1);
  const results = items
    .map((item, i) => (item.message.role === "tool" ? i : -1))
    .filter((i) => i >= 0);
  const protectedFrom = results.at(-Math.max(1, limits.protectedResults));
  const base: HistoryState = {
    ...state,
    frozen: after(items.at(-1)!.pos),
    results_from: protectedFrom === undefined ? null : items[protectedFrom].pos,
    context: page?.text ?? null,
    compactions: state.compactions + 1,
  };
  const stateFor = (cut: number): HistoryState => ({
    ...base,
    from: items[cut]?.pos ?? base.frozen,
    current: page && page.at >= cut ? items[page.at].pos : null,
  });
  // Sizes once: a kept item's shortened size does not depend on the cut, but the page's
  // message does (shown in full when kept, else the page goes to the summary message).
  const withPage = stateFor(0);
  const size = items.map((item) => messageTokens(shorten(item, withPage)!));
  const suffix = new Array<number>(items.length + 1).fill(0);
  for (let i = items.length - 1; i >= 0; i--) suffix[i] = suffix[i + 1] + size[i];
  const pageTokens = page ? textTokens(page.text) : 0;
  const estimate = (cut: number) =>
    limits.fixedTokens + limits.summaryTokens + suffix[cut] +
    (page && page.at < cut ? pageTokens : 0);
  // Where the kept part may begin: a user message (so no tool result is parted from its call),
  // at the current start (nothing more summarised) or later.
  const cuts = items
    .map((item, i) => (item.message.role === "user" && i >= start ? i : -1))
    .filter((i) => i >= 0);
  const turns = items.map((item, i) => (item.turnStart ? i : -1)).filter((i) => i >= 0);
  const keepFrom = turns.at(-Math.max(1, limits.keepTurns)) ?? 0;
  // Older turns go into the summary: from the turns kept whole on, or later when they do not
  // fit the target; the latest cut when nothing fits.
  let cut = cuts.find((c) => c >= keepFrom && estimate(c) <= limits.targetTokens) ??
    cuts.at(-1) ?? start;
  if (cut < start) cut = start;
  return {
    state: stateFor(cut),
    summarise: items.slice(start, cut),
    tokens: estimate(cut),
  };
}

/**
 * The summary message's estimate, for checking a state once its summary is written.
 *
 * @example
 * ```ts
 * const within = summaryTokens(state) <= budget;
 * ```
 */
export function summaryTokens(state: HistoryState): number {
  const message = summaryMessage(state);
  return message ? messageTokens(message) : 0;
}
