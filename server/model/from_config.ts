/**
 * Turns the `MODEL__DEFAULT` setting into a `LanguageModelV3` and the rules
 * of its provider, through the table in `providers/mod.ts`.
 *
 * Accepted forms:
 *
 * - `offline`: the deterministic offline planner (`offlineModel()`).
 * - `openai:<model>`: OpenAI, with `OPENAI_API_KEY` (and `OPENAI_BASE_URL` if set).
 * - `anthropic:<model>`: Anthropic, with `ANTHROPIC_API_KEY` (and `ANTHROPIC_BASE_URL` if set).
 * - `openai-compatible:<base url>#<model>`: any OpenAI-compatible server
 *   (Ollama, vLLM, LM Studio), with `OPENAI_COMPATIBLE_API_KEY` if it needs one.
 *
 * Unset or empty: `openai:gpt-4o-mini` when `OPENAI_API_KEY` is set, else
 * `anthropic:claude-sonnet-4-5` when `ANTHROPIC_API_KEY` is set, else
 * `offline`. A key in the environment is taken as the wish to use it; OpenAI
 * wins when both are set because its small model is the cheaper default.
 *
 * Environment values come in as an argument, never from a runtime global, so
 * this module runs unchanged on Node and Deno.
 *
 * @module
 */
import type { LanguageModelV3, SharedV3ProviderOptions } from "@ai-sdk/provider";
import { type ModelEnv, type ModelProfile, PROVIDERS } from "./providers/mod.ts";

export type { ModelEnv };

/**
 * Options for `modelFromSpec()`.
 *
 * @example
 * ```ts
 * const options: ModelSpecOptions = { fetch: (input, init) => globalThis.fetch(input, init) };
 * ```
 */
export interface ModelSpecOptions {
  /** The fetch the provider clients use; tests pass one that never reaches the network. */
  fetch?: typeof globalThis.fetch;
  /** `MODEL__OPENAI_STORE`: let OpenAI store responses and send references to them (default false). */
  openaiStore?: boolean;
}

/**
 * The model a spec selects, with the name results report and its provider's rules.
 *
 * @example
 * ```ts
 * const selected: SelectedModel = modelFromSpec("offline", {});
 * selected.name; // "offline"
 * ```
 */
export interface SelectedModel {
  /** The AI SDK model to pass to `streamText()` / `generateText()`. */
  model: LanguageModelV3;
  /** How /health and every result name the model: "offline", or the resolved spec string. */
  name: string;
  /** True for the offline planner, which needs no key and makes no network calls. */
  offline: boolean;
  /** Provider options for the last stable prompt message (the Anthropic cache breakpoint); absent for other providers. */
  providerOptions?: SharedV3ProviderOptions;
  /** What the provider's API accepts for this model (limits, images, caching). */
  profile: ModelProfile;
}

const ACCEPTED = `accepted forms are ${
  Object.values(PROVIDERS).map((p) => `"${p.form}"`).join(", ")
}`;

/**
 * The spec used when `MODEL__DEFAULT` is unset or empty: OpenAI, then Anthropic, by which key is set; else offline.
 *
 * @example
 * ```ts
 * defaultModelSpec({ ANTHROPIC_API_KEY: "sk-ant-..." }); // "anthropic:claude-sonnet-4-5"
 * defaultModelSpec({}); // "offline"
 * ```
 */
export function defaultModelSpec(env: ModelEnv): string {
  if (env.OPENAI_API_KEY) return "openai:gpt-4o-mini";
  if (env.ANTHROPIC_API_KEY) return "anthropic:claude-sonnet-4-5";
  return "offline";
}

/**
 * Provider options that mark a cache breakpoint on the stable prompt prefix: Anthropic's ephemeral cache control for `anthropic:` specs, undefined otherwise.
 *
 * @example
 * ```ts
 * cacheBreakpointOptions("anthropic:claude-sonnet-4-5");
 * // { anthropic: { cacheControl: { type: "ephemeral" } } }
 * cacheBreakpointOptions("openai:gpt-4o-mini"); // undefined
 * ```
 */
export function cacheBreakpointOptions(spec: string): SharedV3ProviderOptions | undefined {
  return spec.trim().startsWith("anthropic:")
    ? { anthropic: { cacheControl: { type: "ephemeral" } } }
    : undefined;
}

/**
 * Selects the model for a `MODEL__DEFAULT` value; throws an error naming the value and the fix when it is unusable.
 *
 * @example
 * ```ts
 * const { model, name } = modelFromSpec(process.env.MODEL__DEFAULT, process.env);
 * // name: "offline", "openai:gpt-4o-mini", ...
 * const local = modelFromSpec("openai-compatible:http://localhost:11434/v1#llama3.2", {});
 * ```
 */
export function modelFromSpec(
  spec: string | undefined,
  env: ModelEnv,
  options: ModelSpecOptions = {},
): SelectedModel {
  const resolved = spec?.trim() || defaultModelSpec(env);
  const colon = resolved.indexOf(":");
  const name = colon < 0 ? resolved : resolved.slice(0, colon);
  const rest = colon < 0 ? "" : resolved.slice(colon + 1);
  if (!Object.hasOwn(PROVIDERS, name) || (name === "offline") !== (resolved === "offline")) {
    throw new Error(`MODEL__DEFAULT "${resolved}" is not a model this runtime knows; ${ACCEPTED}.`);
  }
  const provider = PROVIDERS[name as keyof typeof PROVIDERS];
  const { model, profile } = provider.create(rest, { spec: resolved, env, ...options });
  const providerOptions = cacheBreakpointOptions(resolved);
  return {
    model,
    name: resolved,
    offline: name === "offline",
    profile,
    ...(providerOptions ? { providerOptions } : {}),
  };
}

/** The rules for a model a team passes as an object: its provider's, when the table knows its SDK name. */
const CUSTOM_PROFILE: ModelProfile = {
  provider: "custom",
  limits: { contextTokens: 128_000, maxOutputTokens: 8_192 },
  known: false,
  imagesInToolResults: true,
  maxToolDescriptionChars: 16_384,
  stableTools: false,
};

/**
 * The rules for an AI SDK model passed as an object (`createRuntime({ model })`): the table's
 * provider whose SDK name matches `model.provider`, else a profile that assumes a
 * 128,000-token window (set `MODEL__CONTEXT_TOKENS` for another).
 *
 * @example
 * ```ts
 * profileOfModel(createAnthropic({ apiKey })("claude-sonnet-4-5")).provider; // "anthropic"
 * ```
 */
export function profileOfModel(
  model: LanguageModelV3,
  options: Omit<ModelSpecOptions, "fetch"> = {},
): ModelProfile {
  for (const provider of Object.values(PROVIDERS)) {
    const sdk = (provider as { sdkProvider?: RegExp }).sdkProvider;
    if (sdk?.test(model.provider)) return provider.profile(model.modelId, options);
  }
  return CUSTOM_PROFILE;
}
