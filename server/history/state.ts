/**
 * What a session's compaction stored: where the kept history starts, the
 * summary of what came before, how the kept part was shortened, and the
 * page's tool roster. Stored at `["history", session]`, so every process and
 * every restart builds the same requests from the same bytes.
 *
 * @module
 */
import type { HostAction } from "../../protocol/mod.ts";
import type { Store } from "../kv/store.ts";

/** A place in a session's history: a stored message's sequence number and a step within it (0 for a user message). */
export interface Position {
  seq: number;
  step: number;
}

/**
 * A session's compaction state.
 *
 * @example
 * ```ts
 * const state: HistoryState = { version: 1, from: { seq: 0, step: 0 }, frozen: { seq: 0, step: 0 },
 *   current: null, context: null, results_from: null, summary: "", compactions: 0 };
 * ```
 */
export interface HistoryState {
  version: 1;
  /** The first message the model still reads; everything before it is in `summary`. */
  from: Position;
  /** Messages from `from` up to this one (excluded) were shortened at the last compaction; later ones replay as stored. */
  frozen: Position;
  /** Where the page the model last saw at compaction is shown in full (null: in the summary message). */
  current: Position | null;
  /** That page's block, as first rendered; null when none was shown. */
  context: string | null;
  /** Tool results before this position, within the shortened part, are left out when long; null: none are. */
  results_from: Position | null;
  /** The summary of the messages before `from` ("" before the first compaction). */
  summary: string;
  /** How many compactions made this state. */
  compactions: number;
  /** The page's actions offered as tools, in a fixed order, since the last compaction (stable-tool providers). */
  actions?: HostAction[];
  /** The model that wrote the summary. */
  summary_model?: string;
  /** When the state was written. */
  updated_at?: string;
}

/** The key of a session's history state. */
export const historyKey = (sessionId: string) => ["history", sessionId] as const;

/**
 * The state before any compaction.
 *
 * @example
 * ```ts
 * await saveHistory(store, "s1", initialState());
 * ```
 */
export function initialState(): HistoryState {
  const start = { seq: 0, step: 0 };
  return {
    version: 1,
    from: start,
    frozen: start,
    current: null,
    context: null,
    results_from: null,
    summary: "",
    compactions: 0,
  };
}

/**
 * Orders positions: negative when `a` comes first.
 *
 * @example
 * ```ts
 * compare({ seq: 1, step: 0 }, { seq: 1, step: 2 }); // -2
 * ```
 */
export function compare(a: Position, b: Position): number {
  return a.seq - b.seq || a.step - b.step;
}

/**
 * Reads a session's history state, or null when it has none.
 *
 * @example
 * ```ts
 * const state = (await loadHistory(store, "s1")) ?? initialState();
 * ```
 */
export async function loadHistory(store: Store, sessionId: string): Promise<HistoryState | null> {
  const entry = await store.get<HistoryState>(historyKey(sessionId));
  return entry?.value?.version === 1 ? entry.value : null;
}

/**
 * Writes a session's history state.
 *
 * @example
 * ```ts
 * await saveHistory(store, "s1", { ...state, updated_at: new Date().toISOString() });
 * ```
 */
export async function saveHistory(
  store: Store,
  sessionId: string,
  state: HistoryState,
): Promise<void> {
  await store.set(historyKey(sessionId), state);
}
