/**
 * The table of model providers: a `MODEL__DEFAULT` value names one by the
 * text before its first colon. A new provider is one file and one line here.
 *
 * @module
 */
import { anthropic } from "./anthropic.ts";
import { offline } from "./offline.ts";
import { openai } from "./openai.ts";
import { openaiCompatible } from "./openai_compatible.ts";
import type { ModelProvider } from "./provider.ts";

/**
 * Every provider, by the name a spec starts with.
 *
 * @example
 * ```ts
 * PROVIDERS["openai-compatible"].form; // "openai-compatible:<base url>#<model>"
 * ```
 */
export const PROVIDERS = {
  offline,
  openai,
  anthropic,
  "openai-compatible": openaiCompatible,
} satisfies Record<string, ModelProvider>;

/** A provider's name in the table. */
export type ProviderName = keyof typeof PROVIDERS;

export type {
  ModelEnv,
  ModelLimits,
  ModelProfile,
  ModelProvider,
  ProviderContext,
} from "./provider.ts";
export { OFFLINE_PROFILE } from "./offline.ts";
