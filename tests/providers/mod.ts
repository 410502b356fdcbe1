/**
 * Local servers that speak three providers' wire formats as their public
 * documentation describes them, for tests and the bench: OpenAI's Responses
 * API, Anthropic's Messages API and an OpenAI-compatible Chat Completions
 * API. A brain (`_brain.ts`) decides what the model says; the servers own
 * validation, error bodies, limits, caches and streaming. Tokens are counted
 * as a quarter of the UTF-8 bytes (`_tokens.ts`), an approximation.
 *
 * @example
 * ```ts
 * import { openaiResponsesServer } from "./tests/providers/mod.ts";
 * const server = await openaiResponsesServer();
 * const app = createRuntime({ model: "openai:gpt-4o-mini",
 *   env: { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.url } });
 * ```
 *
 * @module
 */
export {
  type Brain,
  type BrainMessage,
  type BrainReply,
  type BrainRequest,
  defaultBrain,
  spokenText,
} from "./_brain.ts";
export { BreakpointCache, PrefixCache } from "./_cache.ts";
export type {
  ProviderServer,
  ProviderServerOptions,
  RecordedRequest,
  ServerModel,
} from "./_server.ts";
export { countTokens } from "./_tokens.ts";
export {
  ANTHROPIC_MODELS,
  type AnthropicMessagesServer,
  anthropicMessagesServer,
} from "./anthropic_messages.ts";
export {
  CHAT_MODELS,
  type ChatCompletionsServer,
  chatCompletionsServer,
} from "./chat_completions.ts";
export {
  OPENAI_MODELS,
  type OpenAIResponsesServer,
  openaiResponsesServer,
} from "./openai_responses.ts";
