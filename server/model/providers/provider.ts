/**
 * What a model provider is to the runtime: how a `MODEL__DEFAULT` value
 * names its models, how its AI SDK model is made, and the rules its API
 * keeps (context windows, output limits, what a tool result may carry, how
 * its prompt cache works). One file per provider, one line in `mod.ts`.
 *
 * @module
 */
import type { LanguageModelV3, SharedV3ProviderOptions } from "@ai-sdk/provider";

/**
 * Environment variables, as `process.env` or `Deno.env.toObject()` give them.
 *
 * @example
 * ```ts
 * const env: ModelEnv = { MODEL__DEFAULT: "offline", OPENAI_API_KEY: undefined };
 * ```
 */
export type ModelEnv = Readonly<Record<string, string | undefined>>;

/**
 * A model's size limits, in tokens.
 *
 * @example
 * ```ts
 * const limits: ModelLimits = { contextTokens: 128_000, maxOutputTokens: 16_384 };
 * ```
 */
export interface ModelLimits {
  /** The context window: input and output together. */
  contextTokens: number;
  /** The most output tokens one request may ask for. */
  maxOutputTokens: number;
  /** What the runtime asks for when `MODEL__MAX_OUTPUT_TOKENS` is unset (default: the smaller of 8,192 and `maxOutputTokens`). */
  defaultOutputTokens?: number;
  /** The most one request holds by default, whatever the window (default 200,000; `HISTORY__BUDGET_TOKENS` sets another). */
  defaultRequestTokens?: number;
}

/**
 * The rules a provider's API keeps for one model, as the runtime needs them.
 *
 * @example
 * ```ts
 * const rules: ModelProfile = {
 *   provider: "openai", limits: { contextTokens: 128_000, maxOutputTokens: 16_384 }, known: true,
 *   imagesInToolResults: true, maxToolDescriptionChars: 1_024, stableTools: true,
 * };
 * ```
 */
export interface ModelProfile {
  /** The provider's name in the table (`openai`, `anthropic`, ...; `custom` for a model given as an object). */
  provider: string;
  /** The model's limits: from the provider's table when `known`, else the provider's defaults. */
  limits: ModelLimits;
  /** True when `limits` come from the table of known models. */
  known: boolean;
  /** Whether a tool result may carry images (else the runtime sends a short text instead). */
  imagesInToolResults: boolean;
  /** The longest tool description the API accepts, in characters. */
  maxToolDescriptionChars: number;
  /**
   * Explicit cache breakpoints (Anthropic's `cache_control`): how many one request may carry,
   * and the fewest tokens a cached prefix needs. Absent when caching is automatic or absent.
   */
  breakpoints?: { max: number; minTokens: number };
  /** Provider options every request carries (OpenAI Responses: `store`). */
  requestOptions?: SharedV3ProviderOptions;
  /**
   * True when the provider caches prompt prefixes: the tool list then keeps a stable roster
   * across turns (see docs/long-conversations.md). False for the offline planner.
   */
  stableTools: boolean;
}

/** What `create()` gets besides the spec's text. */
export interface ProviderContext {
  /** The whole spec, for error messages ("openai:gpt-4o-mini"). */
  spec: string;
  env: ModelEnv;
  /** The fetch the provider clients use; tests pass one that never reaches the network. */
  fetch?: typeof globalThis.fetch;
  /** `MODEL__OPENAI_STORE`: let OpenAI keep responses and send references to them. */
  openaiStore?: boolean;
}

/**
 * One provider of the table.
 *
 * @example
 * ```ts
 * const { model, profile } = PROVIDERS.openai.create("gpt-4o-mini", { spec, env });
 * ```
 */
export interface ModelProvider {
  /** How a `MODEL__DEFAULT` value names a model of this provider, for messages (`openai:<model>`). */
  readonly form: string;
  /** Makes the model for the spec's text after the colon; throws an error naming the spec and the fix. */
  create(rest: string, context: ProviderContext): { model: LanguageModelV3; profile: ModelProfile };
  /**
   * The `provider` names of AI SDK models this entry's rules apply to when a team passes
   * a model object instead of a spec (`openai.responses`); absent when none.
   */
  readonly sdkProvider?: RegExp;
  /** The rules for a model of this provider, by its model id. */
  profile(modelId: string, context: Omit<ProviderContext, "spec" | "env">): ModelProfile;
}

/**
 * A required variable, or an error naming `MODEL__DEFAULT` and the variable.
 *
 * @example
 * ```ts
 * const apiKey = requireKey(env, "OPENAI_API_KEY", "openai:gpt-4o-mini");
 * ```
 */
export function requireKey(env: ModelEnv, variable: string, spec: string): string {
  const key = env[variable];
  if (key) return key;
  throw new Error(
    `MODEL__DEFAULT is "${spec}" but ${variable} is not set; set ${variable} or choose another model (MODEL__DEFAULT=offline needs no key).`,
  );
}

/**
 * The model name of a spec, or an error saying how to write it.
 *
 * @example
 * ```ts
 * requireModel("gpt-4o-mini", "openai:gpt-4o-mini", "openai:<model>"); // "gpt-4o-mini"
 * ```
 */
export function requireModel(model: string, spec: string, form: string): string {
  if (model.trim() !== "") return model.trim();
  throw new Error(`MODEL__DEFAULT "${spec}" names no model; write it as "${form}".`);
}

/**
 * The limits of the longest table key the model id starts with (dated ids such as
 * `claude-sonnet-4-5-20250929` match `claude-sonnet-4-5`).
 *
 * @example
 * ```ts
 * lookupLimits({ "gpt-4o": a, "gpt-4o-mini": b }, "gpt-4o-mini-2024-07-18"); // b
 * ```
 */
export function lookupLimits<T>(table: Record<string, T>, modelId: string): T | undefined {
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (modelId.startsWith(key) && (!best || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}
