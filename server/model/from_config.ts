/**
 * Turns the `MODEL__DEFAULT` setting into a `LanguageModelV3`.
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

import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3, SharedV3ProviderOptions } from "@ai-sdk/provider";
import { offlineModel } from "./offline.ts";

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
}

/**
 * The model a spec selects, with the name results report and the options its prompt needs.
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
}

const ACCEPTED = 'accepted forms are "offline", "openai:<model>", "anthropic:<model>" ' +
  'and "openai-compatible:<base url>#<model>"';

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

function requireKey(env: ModelEnv, variable: string, spec: string): string {
  const key = env[variable];
  if (key) return key;
  throw new Error(
    `MODEL__DEFAULT is "${spec}" but ${variable} is not set; set ${variable} or choose another model (MODEL__DEFAULT=offline needs no key).`,
  );
}

function requireModel(model: string, spec: string, form: string): string {
  if (model.trim() !== "") return model.trim();
  throw new Error(`MODEL__DEFAULT "${spec}" names no model; write it as "${form}".`);
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
  if (resolved === "offline") return { model: offlineModel(), name: "offline", offline: true };
  const colon = resolved.indexOf(":");
  const provider = colon < 0 ? resolved : resolved.slice(0, colon);
  const rest = colon < 0 ? "" : resolved.slice(colon + 1);
  const { fetch } = options;
  const selected = (model: LanguageModelV3): SelectedModel => {
    const providerOptions = cacheBreakpointOptions(resolved);
    return providerOptions
      ? { model, name: resolved, offline: false, providerOptions }
      : { model, name: resolved, offline: false };
  };

  switch (provider) {
    case "openai": {
      const model = requireModel(rest, resolved, "openai:<model>");
      const apiKey = requireKey(env, "OPENAI_API_KEY", resolved);
      // An explicit baseURL keeps the SDK from reading process.env itself.
      const baseURL = env.OPENAI_BASE_URL || "https://api.openai.com/v1";
      return selected(createOpenAI({ apiKey, baseURL, fetch })(model));
    }
    case "anthropic": {
      const model = requireModel(rest, resolved, "anthropic:<model>");
      const apiKey = requireKey(env, "ANTHROPIC_API_KEY", resolved);
      const baseURL = env.ANTHROPIC_BASE_URL || "https://api.anthropic.com/v1";
      return selected(createAnthropic({ apiKey, baseURL, fetch })(model));
    }
    case "openai-compatible": {
      const form = "openai-compatible:<base url>#<model>";
      const hash = rest.lastIndexOf("#");
      const baseURL = hash < 0 ? rest : rest.slice(0, hash);
      const model = requireModel(hash < 0 ? "" : rest.slice(hash + 1), resolved, form);
      if (!URL.canParse(baseURL) || !/^https?:/.test(baseURL)) {
        throw new Error(
          `MODEL__DEFAULT "${resolved}" has no http(s) base URL before "#"; write it as "${form}".`,
        );
      }
      const apiKey = env.OPENAI_COMPATIBLE_API_KEY || undefined;
      return selected(createOpenAICompatible({ name: "local", baseURL, apiKey, fetch })(model));
    }
    default:
      throw new Error(
        `MODEL__DEFAULT "${resolved}" is not a model this runtime knows; ${ACCEPTED}.`,
      );
  }
}
