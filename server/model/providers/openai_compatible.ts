/**
 * `openai-compatible:<base url>#<model>`: any server that speaks OpenAI's
 * Chat Completions (Ollama, vLLM, LM Studio, llama.cpp), with
 * `OPENAI_COMPATIBLE_API_KEY` if it needs one.
 *
 * The runtime cannot know such a model's window: it assumes 32,768 tokens
 * until `MODEL__CONTEXT_TOKENS` says otherwise. Streams ask for usage
 * (`stream_options.include_usage`); a tool message carries text only, so an
 * image in a tool result becomes a short text.
 *
 * @module
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { OPENAI_TOOL_DESCRIPTION_CHARS } from "./openai.ts";
import { type ModelLimits, type ModelProvider, requireModel } from "./provider.ts";

/** What an unknown local model is assumed to hold. */
const ASSUMED: ModelLimits = { contextTokens: 32_768, maxOutputTokens: 4_096 };

const FORM = "openai-compatible:<base url>#<model>";

/**
 * The OpenAI-compatible provider (Chat Completions).
 *
 * @example
 * ```ts
 * const { model } = openaiCompatible.create("http://localhost:11434/v1#llama3.2", { spec, env });
 * ```
 */
export const openaiCompatible: ModelProvider = {
  form: FORM,
  create(rest, { spec, env, fetch }) {
    const hash = rest.lastIndexOf("#");
    const baseURL = hash < 0 ? rest : rest.slice(0, hash);
    const id = requireModel(hash < 0 ? "" : rest.slice(hash + 1), spec, FORM);
    if (!URL.canParse(baseURL) || !/^https?:/.test(baseURL)) {
      throw new Error(
        `MODEL__DEFAULT "${spec}" has no http(s) base URL before "#"; write it as "${FORM}".`,
      );
    }
    const apiKey = env.OPENAI_COMPATIBLE_API_KEY || undefined;
    return {
      model: createOpenAICompatible({ name: "local", baseURL, apiKey, fetch, includeUsage: true })(
        id,
      ),
      profile: this.profile(id, {}),
    };
  },
  profile: () => ({
    provider: "openai-compatible",
    limits: ASSUMED,
    known: false,
    imagesInToolResults: false,
    maxToolDescriptionChars: OPENAI_TOOL_DESCRIPTION_CHARS,
    stableTools: true,
  }),
};
