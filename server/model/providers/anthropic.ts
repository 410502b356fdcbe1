/**
 * `anthropic:<model>`: Anthropic's Messages API, with `ANTHROPIC_API_KEY`
 * (and `ANTHROPIC_BASE_URL` if set).
 *
 * Caching is explicit: at most four `cache_control` breakpoints a request,
 * and a prefix shorter than the model's minimum is not cached at all.
 *
 * @module
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import {
  lookupLimits,
  type ModelLimits,
  type ModelProvider,
  requireKey,
  requireModel,
} from "./provider.ts";

interface ClaudeModel extends ModelLimits {
  /** The fewest tokens a cached prefix needs (Anthropic's prompt-caching page). */
  minCacheTokens: number;
}

/** Context windows, output limits and cache minimums from Anthropic's model pages. */
const MODELS: Record<string, ClaudeModel> = {
  "claude-sonnet-4-5": { contextTokens: 200_000, maxOutputTokens: 64_000, minCacheTokens: 1_024 },
  "claude-sonnet-4": { contextTokens: 200_000, maxOutputTokens: 64_000, minCacheTokens: 1_024 },
  "claude-opus-4-1": { contextTokens: 200_000, maxOutputTokens: 32_000, minCacheTokens: 1_024 },
  "claude-opus-4": { contextTokens: 200_000, maxOutputTokens: 32_000, minCacheTokens: 1_024 },
  "claude-opus-4-5": { contextTokens: 200_000, maxOutputTokens: 64_000, minCacheTokens: 4_096 },
  "claude-haiku-4-5": { contextTokens: 200_000, maxOutputTokens: 64_000, minCacheTokens: 4_096 },
  "claude-3-7-sonnet": { contextTokens: 200_000, maxOutputTokens: 64_000, minCacheTokens: 1_024 },
  "claude-3-5-haiku": { contextTokens: 200_000, maxOutputTokens: 8_192, minCacheTokens: 2_048 },
};

/** A Claude model not in the table: the window every current Claude model has at least. */
const UNKNOWN: ClaudeModel = {
  contextTokens: 200_000,
  maxOutputTokens: 32_000,
  minCacheTokens: 4_096,
};

/** Anthropic's limit of `cache_control` blocks in one request. */
export const ANTHROPIC_MAX_BREAKPOINTS = 4;

/** Anthropic documents no limit on tool descriptions; the runtime bounds them for the process. */
const TOOL_DESCRIPTION_CHARS = 16_384;

/**
 * The Anthropic provider (Messages API).
 *
 * @example
 * ```ts
 * const { profile } = anthropic.create("claude-sonnet-4-5", { spec, env });
 * profile.breakpoints; // { max: 4, minTokens: 1024 }
 * ```
 */
export const anthropic: ModelProvider = {
  form: "anthropic:<model>",
  sdkProvider: /^anthropic\./,
  create(rest, context) {
    const { spec, env, fetch } = context;
    const id = requireModel(rest, spec, "anthropic:<model>");
    const apiKey = requireKey(env, "ANTHROPIC_API_KEY", spec);
    const baseURL = env.ANTHROPIC_BASE_URL || "https://api.anthropic.com/v1";
    return {
      model: createAnthropic({ apiKey, baseURL, fetch })(id),
      profile: this.profile(id, context),
    };
  },
  profile(id) {
    const known = lookupLimits(MODELS, id);
    const { minCacheTokens, ...limits } = known ?? UNKNOWN;
    return {
      provider: "anthropic",
      limits,
      known: known !== undefined,
      imagesInToolResults: true,
      maxToolDescriptionChars: TOOL_DESCRIPTION_CHARS,
      breakpoints: { max: ANTHROPIC_MAX_BREAKPOINTS, minTokens: minCacheTokens },
      stableTools: true,
    };
  },
};
