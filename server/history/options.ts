/**
 * `HISTORY__*`: how a long conversation is kept within the model's budget.
 *
 * @module
 */

/**
 * Compaction settings (see docs/long-conversations.md).
 *
 * @example
 * ```ts
 * const options: HistoryOptions = { ...DEFAULT_HISTORY_OPTIONS, keepTurns: 6 };
 * ```
 */
export interface HistoryOptions {
  /**
   * `HISTORY__BUDGET_TOKENS`: the most one request may hold (estimated). Default: what the
   * model's window leaves after its output limit, less 5%, at most 200,000.
   */
  budgetTokens?: number;
  /** `HISTORY__TARGET_RATIO`: compaction brings a request down to this share of the budget (default 0.5). */
  targetRatio: number;
  /** `HISTORY__KEEP_TURNS`: the most recent turns kept whole when the history is compacted (default 4). */
  keepTurns: number;
  /** `HISTORY__PROTECTED_TOOL_RESULTS`: the most recent tool results never shortened (default 4). */
  protectedToolResults: number;
  /** `HISTORY__SUMMARY_MODEL`: the model spec that writes summaries (default: the session's model). */
  summaryModel?: string;
  /** `HISTORY__SUMMARY_TOKENS`: the output limit of one summary (default 1,024). */
  summaryTokens: number;
}

/** The defaults of `HistoryOptions`. */
export const DEFAULT_HISTORY_OPTIONS: HistoryOptions = {
  targetRatio: 0.5,
  keepTurns: 4,
  protectedToolResults: 4,
  summaryTokens: 1_024,
};
