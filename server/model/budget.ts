/**
 * The token budget of a model: its window, the output the runtime asks for,
 * and how much of the rest one request, one message and one tool result may
 * take. Every request is estimated against it before it is sent.
 *
 * @module
 */
import type { ModelProfile } from "./providers/mod.ts";

/**
 * `MODEL__*` settings beyond the spec: limits for models the table does not know, and timeouts.
 *
 * @example
 * ```ts
 * const options: ModelOptions = { ...DEFAULT_MODEL_OPTIONS, contextTokens: 32_768 };
 * ```
 */
export interface ModelOptions {
  /** `MODEL__CONTEXT_TOKENS`: the context window of every model used (default: the provider's table). */
  contextTokens?: number;
  /** `MODEL__MAX_OUTPUT_TOKENS`: output tokens one request asks for (default: the table's, at most 8,192). */
  maxOutputTokens?: number;
  /** `MODEL__FIRST_BYTE_TIMEOUT_MS`: how long a model request may take to send anything (default 60,000). */
  firstByteTimeoutMs: number;
  /** `MODEL__IDLE_TIMEOUT_MS`: how long a streaming model may fall silent between chunks (default 60,000). */
  idleTimeoutMs: number;
  /** `MODEL__OPENAI_STORE`: let OpenAI store responses and send the history as references (default false). */
  openaiStore: boolean;
  /**
   * `MODEL__STABLE_TOOLS`: keep the page's actions as a stable tool roster, new ones called through
   * `page_action` (default true where the provider caches prompts; false sends each page's actions
   * as they are, for a model that handles the indirection poorly).
   */
  stableTools?: boolean;
}

/** The defaults of `ModelOptions`. */
export const DEFAULT_MODEL_OPTIONS: ModelOptions = {
  firstByteTimeoutMs: 60_000,
  idleTimeoutMs: 60_000,
  openaiStore: false,
};

/**
 * What one model's requests may hold, in (estimated) tokens.
 *
 * @example
 * ```ts
 * const budget = budgetOf(profile, DEFAULT_MODEL_OPTIONS);
 * if (estimate > budget.requestTokens) compact();
 * ```
 */
export interface Budget {
  /** The model's context window. */
  contextTokens: number;
  /** The output limit every request asks for. */
  outputTokens: number;
  /** The most a request's input may hold: what the window leaves after the output, less a margin. */
  requestTokens: number;
  /** The most one new message (text and attachments) may hold; larger is refused before it is stored. */
  messageTokens: number;
  /** The most one tool result may hold in a request; a larger one is cut, saying so. */
  toolResultTokens: number;
}

/** Kept free of the window for what the estimate may miss (the provider's own framing). */
const MARGIN = 0.95;
/** A default budget never exceeds this, so a million-token window does not mean million-token requests. */
const DEFAULT_CAP = 200_000;
const DEFAULT_OUTPUT_CAP = 8_192;

/**
 * The budget of a model, from its provider's table and the settings (`historyTokens` is `HISTORY__BUDGET_TOKENS`).
 *
 * @example
 * ```ts
 * budgetOf(profile, DEFAULT_MODEL_OPTIONS).requestTokens; // gpt-4o-mini: 113,817
 * ```
 */
export function budgetOf(
  profile: ModelProfile,
  options: ModelOptions,
  historyTokens?: number,
): Budget {
  const contextTokens = options.contextTokens || profile.limits.contextTokens;
  const { maxOutputTokens, defaultOutputTokens } = profile.limits;
  const wanted = options.maxOutputTokens ||
    defaultOutputTokens || Math.min(maxOutputTokens, DEFAULT_OUTPUT_CAP);
  // Never more than a known model gives, nor more than a quarter of a small window.
  const ceiling = profile.known ? maxOutputTokens : Infinity;
  const outputTokens = Math.max(1, Math.floor(Math.min(wanted, ceiling, contextTokens / 4)));
  const fits = Math.floor((contextTokens - outputTokens) * MARGIN);
  const cap = historyTokens || profile.limits.defaultRequestTokens || DEFAULT_CAP;
  const requestTokens = Math.max(1, Math.min(fits, cap));
  return {
    contextTokens,
    outputTokens,
    requestTokens,
    messageTokens: Math.floor(requestTokens / 2),
    toolResultTokens: Math.floor(requestTokens / 4),
  };
}
