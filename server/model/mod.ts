/**
 * Model selection for Tether's turn planner.
 *
 * `modelFromSpec()` turns `MODEL__DEFAULT` into an AI SDK `LanguageModelV3`:
 * OpenAI, Anthropic, any OpenAI-compatible server, or the offline model.
 * `offlineModel()` is a deterministic planner with no provider behind it: it
 * calls the actions a message names and reports their results, so the
 * runtime, the demo and the tests work without a key.
 *
 * @example
 * ```ts
 * import { streamText } from "ai";
 * import { cacheBreakpointOptions, modelFromSpec } from "./mod.ts";
 *
 * const { model, name } = modelFromSpec(undefined, { MODEL__DEFAULT: "offline" });
 * const result = streamText({ model, prompt: "What is on screen?" });
 * for await (const delta of result.textStream) console.log(name, delta);
 * cacheBreakpointOptions(name); // undefined: only Anthropic needs a breakpoint
 * ```
 *
 * @module
 */

export {
  cacheBreakpointOptions,
  defaultModelSpec,
  type ModelEnv,
  modelFromSpec,
  type ModelSpecOptions,
  profileOfModel,
  type SelectedModel,
} from "./from_config.ts";
export { type ModelLimits, type ModelProfile, PROVIDERS } from "./providers/mod.ts";
export { offlineModel } from "./offline.ts";
export {
  asLanguageModelV3,
  type LanguageModelV4Like,
  type ModelObject,
  UnsupportedModelError,
} from "./ai_sdk7.ts";
