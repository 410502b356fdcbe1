/**
 * `openai:<model>`: OpenAI's Responses API, with `OPENAI_API_KEY` (and
 * `OPENAI_BASE_URL` if set).
 *
 * Requests carry `store: false` unless `MODEL__OPENAI_STORE` is true: the
 * history then goes out whole, as items, with no reference to a response
 * OpenAI may have dropped (retention, another project's key, storage
 * disabled). Caching is automatic (prefixes of 1,024 tokens and more).
 *
 * @module
 */
import { createOpenAI } from "@ai-sdk/openai";
import {
  lookupLimits,
  type ModelLimits,
  type ModelProvider,
  requireKey,
  requireModel,
} from "./provider.ts";

/** Context windows and output limits from OpenAI's model pages; the longest matching prefix wins. */
const MODELS: Record<string, ModelLimits> = {
  "gpt-4o": { contextTokens: 128_000, maxOutputTokens: 16_384 },
  "gpt-4o-mini": { contextTokens: 128_000, maxOutputTokens: 16_384 },
  "gpt-4.1": { contextTokens: 1_047_576, maxOutputTokens: 32_768 },
  "gpt-5": { contextTokens: 400_000, maxOutputTokens: 128_000, defaultOutputTokens: 32_768 },
  "o3": { contextTokens: 200_000, maxOutputTokens: 100_000, defaultOutputTokens: 32_768 },
  "o4-mini": { contextTokens: 200_000, maxOutputTokens: 100_000, defaultOutputTokens: 32_768 },
};

/** An OpenAI model not in the table: the smallest window of the current chat models. */
const UNKNOWN: ModelLimits = { contextTokens: 128_000, maxOutputTokens: 16_384 };

/**
 * OpenAI's Chat Completions refuses a function description over 1,024 characters
 * (`string_above_max_length`); the runtime holds the Responses API to the same bound.
 */
export const OPENAI_TOOL_DESCRIPTION_CHARS = 1_024;

/**
 * The OpenAI provider (Responses API).
 *
 * @example
 * ```ts
 * const { model, profile } = openai.create("gpt-4o-mini", { spec: "openai:gpt-4o-mini", env });
 * profile.requestOptions; // { openai: { store: false } }
 * ```
 */
export const openai: ModelProvider = {
  form: "openai:<model>",
  sdkProvider: /^openai\.responses/,
  create(rest, context) {
    const { spec, env, fetch } = context;
    const id = requireModel(rest, spec, "openai:<model>");
    const apiKey = requireKey(env, "OPENAI_API_KEY", spec);
    // An explicit baseURL keeps the SDK from reading process.env itself.
    const baseURL = env.OPENAI_BASE_URL || "https://api.openai.com/v1";
    return {
      model: createOpenAI({ apiKey, baseURL, fetch })(id),
      profile: this.profile(id, context),
    };
  },
  profile(id, { openaiStore }) {
    const known = lookupLimits(MODELS, id);
    return {
      provider: "openai",
      limits: known ?? UNKNOWN,
      known: known !== undefined,
      imagesInToolResults: true,
      maxToolDescriptionChars: OPENAI_TOOL_DESCRIPTION_CHARS,
      requestOptions: { openai: { store: openaiStore === true } },
      stableTools: true,
    };
  },
};
