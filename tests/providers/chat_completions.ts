/**
 * A local server for an OpenAI-compatible Chat Completions API
 * (`POST /v1/chat/completions`), following OpenAI's documentation of it:
 * validation of messages (roles, content parts, text only in tool messages,
 * tool calls answered by tool messages), tool definitions (names, and
 * descriptions of at most 1,024 characters), error bodies
 * `{error: {message, type, param, code}}`, the context window
 * (`context_length_exceeded`, counting `max_tokens` too), the output limit,
 * automatic prompt caching (`usage.prompt_tokens_details.cached_tokens`),
 * and streaming chunks with usage only when `stream_options.include_usage`
 * asks for it, ended by `data: [DONE]`.
 *
 * @module
 */
import { type Brain, type BrainMessage, type BrainReply, defaultBrain } from "./_brain.ts";
import { PrefixCache } from "./_cache.ts";
import {
  isObject,
  json,
  makeId,
  never,
  type ProviderServer,
  type ProviderServerOptions,
  readJson,
  recorded,
  type RecordedRequest,
  serveProvider,
  type ServerModel,
  sse,
  type SseEvent,
  think,
  WireError,
} from "./_server.ts";
import {
  countTokens,
  digestOf,
  imageSize,
  openaiImageTokens,
  type Segment,
  segmentTokens,
} from "./_tokens.ts";
import { openaiError } from "./openai_responses.ts";

/** The models this server knows by default: a local model, and OpenAI's own. */
export const CHAT_MODELS: Record<string, ServerModel> = {
  "llama3.2": { contextTokens: 131_072, maxOutputTokens: 8_192 },
  "gpt-4o-mini": { contextTokens: 128_000, maxOutputTokens: 16_384 },
};

const MAX_DESCRIPTION = 1_024;

const invalid = (message: string, param: string | null, code: string | null, status = 400) =>
  new WireError(status, openaiError(message, "invalid_request_error", param, code));

/** A running Chat Completions server. */
export interface ChatCompletionsServer extends ProviderServer {
  cache: PrefixCache;
}

// deno-lint-ignore no-explicit-any -- request JSON, validated field by field
type Json = any;

/**
 * Starts a Chat Completions server on loopback.
 *
 * @example
 * ```ts
 * const server = await chatCompletionsServer();
 * const spec = `openai-compatible:${server.url}#llama3.2`;
 * ```
 */
export async function chatCompletionsServer(
  options: ProviderServerOptions = {},
): Promise<ChatCompletionsServer> {
  const requests: RecordedRequest[] = [];
  const models = { ...CHAT_MODELS, ...options.models };
  const brain: Brain = options.brain ?? defaultBrain;
  const apiKey = options.apiKey === undefined ? "test-key" : options.apiKey;
  const cache = new PrefixCache();

  const handler = recorded(requests, async (request, record, url) => {
    const answer = (response: Response, error?: unknown) => {
      if (error) record.error = error;
      return response;
    };
    if (request.method !== "POST" || url.pathname !== "/v1/chat/completions") {
      throw invalid(`Invalid URL (${request.method} ${url.pathname})`, null, null, 404);
    }
    if (apiKey !== null && request.headers.get("authorization") !== `Bearer ${apiKey}`) {
      throw invalid("Incorrect API key provided.", null, "invalid_api_key", 401);
    }
    const body = await readJson(request);
    record.body = body;
    if (!isObject(body)) {
      throw invalid("We could not parse the JSON body of your request.", null, null);
    }
    const { limits, maxTokens, segments } = check(body, models);
    const inputTokens = segments.reduce((n, s) => n + segmentTokens(s), 0);
    record.inputTokens = inputTokens;
    if (inputTokens > limits.contextTokens) {
      throw invalid(
        `This model's maximum context length is ${limits.contextTokens} tokens. However, your messages resulted in ${inputTokens} tokens. Please reduce the length of the messages.`,
        "messages",
        "context_length_exceeded",
      );
    }
    if (maxTokens !== undefined && inputTokens + maxTokens > limits.contextTokens) {
      throw invalid(
        `This model's maximum context length is ${limits.contextTokens} tokens. However, you requested ${
          inputTokens + maxTokens
        } tokens (${inputTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`,
        "messages",
        "context_length_exceeded",
      );
    }
    const reply = await think(brain, {
      api: "chat-completions",
      model: body.model,
      ...brainView(body.messages),
      tools: (body.tools ?? []).map((t: Json) => ({
        name: t.function.name,
        description: t.function.description ?? "",
        parameters: t.function.parameters,
      })),
      index: requests.length - 1,
    });
    if (reply.fail) {
      const error = reply.fail === 429
        ? openaiError("Rate limit reached for requests.", "requests", null, "rate_limit_exceeded")
        : openaiError("The server had an error while processing your request.", "server_error");
      return answer(json(reply.fail, error), error);
    }
    if (reply.stall === "headers") return answer(await never(request.signal));
    const completion = respond(
      body,
      reply,
      inputTokens,
      cache.use(segments),
      maxTokens ?? limits.maxOutputTokens,
    );
    record.usage = completion.usage;
    if (body.stream !== true) return answer(json(200, completion));
    return answer(
      sse(streamChunks(completion, body.stream_options?.include_usage === true), {
        delayMs: options.chunkDelayMs ?? 0,
        stall: reply.stall === "events",
        done: true,
      }),
    );
  });

  const server = await serveProvider(handler, requests);
  return { ...server, cache };
}

function check(body: Json, models: Record<string, ServerModel>) {
  if (typeof body.model !== "string") {
    throw invalid("you must provide a model parameter", null, null);
  }
  const limits = models[body.model];
  if (!limits) {
    throw invalid(
      `The model \`${body.model}\` does not exist or you do not have access to it.`,
      null,
      "model_not_found",
      404,
    );
  }
  if (body.stream_options !== undefined && body.stream !== true) {
    throw invalid(
      "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      "stream_options",
      null,
    );
  }
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  if (maxTokens !== undefined && maxTokens > limits.maxOutputTokens) {
    const param = body.max_completion_tokens !== undefined ? "max_completion_tokens" : "max_tokens";
    throw invalid(
      `${param} is too large: ${maxTokens}. This model supports at most ${limits.maxOutputTokens} completion tokens, whereas you provided ${maxTokens}.`,
      param,
      "invalid_value",
    );
  }
  const tools: Json[] = body.tools ?? [];
  if (!Array.isArray(tools)) {
    throw invalid("Invalid type for 'tools': expected an array.", "tools", "invalid_type");
  }
  tools.forEach((t: Json, i: number) => {
    const f = t?.function;
    if (t?.type !== "function" || !isObject(f)) {
      throw invalid(
        `Missing required parameter: 'tools[${i}].function'.`,
        `tools[${i}].function`,
        "missing_required_parameter",
      );
    }
    if (typeof f.name !== "string" || !/^[a-zA-Z0-9_-]{1,64}$/.test(f.name)) {
      throw invalid(
        `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        `tools[${i}].function.name`,
        "invalid_value",
      );
    }
    if (typeof f.description === "string" && f.description.length > MAX_DESCRIPTION) {
      throw invalid(
        `Invalid 'tools[${i}].function.description': string too long. Expected a string with maximum length ${MAX_DESCRIPTION}, but got a string with length ${f.description.length} instead.`,
        `tools[${i}].function.description`,
        "string_above_max_length",
      );
    }
  });
  if (!Array.isArray(body.messages) || !body.messages.length) {
    throw invalid(
      "Missing required parameter: 'messages'.",
      "messages",
      "missing_required_parameter",
    );
  }
  checkMessages(body.messages);
  const segments: Segment[] = [
    ...tools.map((t: Json) => ({ text: JSON.stringify(t.function) })),
    ...body.messages.flatMap(render),
  ];
  return { limits, maxTokens, segments };
}

function checkMessages(messages: Json[]): void {
  let open: Set<string> | null = null;
  messages.forEach((m: Json, i: number) => {
    const at = `messages[${i}]`;
    if (!["system", "developer", "user", "assistant", "tool"].includes(m?.role)) {
      throw invalid(
        `Invalid value: '${m?.role}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'function', and 'developer'.`,
        `${at}.role`,
        "invalid_value",
      );
    }
    if (m.role === "tool") {
      if (!open || !open.delete(m.tool_call_id)) {
        throw invalid(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `${at}.role`,
          null,
        );
      }
      if (Array.isArray(m.content)) {
        m.content.forEach((p: Json, j: number) => {
          if (p?.type !== "text") {
            throw invalid(
              `Invalid value: '${p?.type}'. Supported values are: 'text'.`,
              `${at}.content[${j}].type`,
              "invalid_value",
            );
          }
        });
      } else if (typeof m.content !== "string") {
        throw invalid(
          `Invalid type for '${at}.content': expected one of a string or array of objects.`,
          `${at}.content`,
          "invalid_type",
        );
      }
      return;
    }
    if (open?.size) {
      throw invalid(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${
          [...open].join(", ")
        }`,
        `${at}.role`,
        null,
      );
    }
    open = null;
    if (m.role === "assistant" && Array.isArray(m.tool_calls) && m.tool_calls.length) {
      open = new Set(m.tool_calls.map((c: Json) => c.id));
    }
    if (m.role === "user" && Array.isArray(m.content)) {
      m.content.forEach((p: Json, j: number) => {
        if (!["text", "image_url", "input_audio", "file"].includes(p?.type)) {
          throw invalid(
            `Invalid value: '${p?.type}'. Supported values are: 'text', 'image_url', 'input_audio', 'refusal', 'audio', and 'file'.`,
            `${at}.content[${j}].type`,
            "invalid_value",
          );
        }
      });
    }
  });
  if (open && (open as Set<string>).size) {
    throw invalid(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${
        [...(open as Set<string>)].join(", ")
      }`,
      "messages",
      null,
    );
  }
}

function render(m: Json): Segment[] {
  const head = `${m.role}\n`;
  const calls = (m.tool_calls ?? []).map((c: Json) => ({
    text: `call ${c.function?.name} ${c.function?.arguments}`,
  }));
  if (typeof m.content === "string" || m.content == null) {
    return [{ text: head + (m.content ?? "") }, ...calls];
  }
  return [
    { text: head },
    ...m.content.map((p: Json): Segment => {
      if (p.type === "image_url") {
        const url = String(p.image_url?.url ?? "");
        const data = url.startsWith("data:") ? url.slice(url.indexOf(",") + 1) : "";
        return {
          blob: digestOf(url),
          tokens: openaiImageTokens(imageSize(data), p.image_url?.detail),
        };
      }
      if (p.type === "text") return { text: p.text ?? "" };
      return { blob: digestOf(JSON.stringify(p)), tokens: Math.ceil(JSON.stringify(p).length / 6) };
    }),
    ...calls,
  ];
}

function brainView(messages: Json[]): { system: string; messages: BrainMessage[] } {
  const system: string[] = [];
  const out: BrainMessage[] = [];
  for (const m of messages) {
    const text = typeof m.content === "string"
      ? m.content
      : (m.content ?? []).filter((p: Json) => p.type === "text").map((p: Json) => p.text).join(
        "\n",
      );
    if (m.role === "system" || m.role === "developer") {
      system.push(text);
      continue;
    }
    if (m.role === "tool") {
      let last = out.at(-1);
      if (last?.role !== "tool") {
        out.push(last = { role: "tool", text: "", calls: [], results: [], images: 0 });
      }
      last.results.push({ id: m.tool_call_id, output: text, error: false, images: 0 });
      continue;
    }
    out.push({
      role: m.role,
      text,
      calls: (m.tool_calls ?? []).map((c: Json) => {
        let args: unknown = c.function.arguments;
        try {
          args = JSON.parse(c.function.arguments);
        } catch { /* kept as text */ }
        return { id: c.id, name: c.function.name, arguments: args };
      }),
      results: [],
      images: Array.isArray(m.content)
        ? m.content.filter((p: Json) => p.type === "image_url").length
        : 0,
    });
  }
  return { system: system.join("\n"), messages: out };
}

function respond(body: Json, reply: BrainReply, input: number, cached: number, budget: number) {
  let text: string | null = reply.text ?? null;
  let finish = "stop";
  let outputTokens = 0;
  if (text !== null && countTokens(text) > budget) {
    text = text.slice(0, budget * 4);
    finish = "length";
  }
  if (text) outputTokens += countTokens(text);
  const toolCalls = finish === "length" ? [] : (reply.calls ?? []).map((call) => {
    const args = JSON.stringify(call.arguments ?? {});
    outputTokens += countTokens(call.name + args);
    return {
      id: makeId("call_"),
      type: "function",
      function: { name: call.name, arguments: args },
    };
  });
  if (toolCalls.length) finish = "tool_calls";
  return {
    id: makeId("chatcmpl-"),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    system_fingerprint: "fp_local",
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: text,
        refusal: null,
        ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
      },
      logprobs: null,
      finish_reason: finish,
    }],
    usage: {
      prompt_tokens: input,
      completion_tokens: outputTokens,
      total_tokens: input + outputTokens,
      prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
    },
  };
}

function streamChunks(completion: Json, includeUsage: boolean): SseEvent[] {
  const { message, finish_reason } = completion.choices[0];
  const base = {
    id: completion.id,
    object: "chat.completion.chunk",
    created: completion.created,
    model: completion.model,
    system_fingerprint: completion.system_fingerprint,
  };
  const chunk = (delta: Json, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const chunks: Json[] = [chunk({ role: "assistant", content: "", refusal: null })];
  for (const piece of message.content?.match(/\S+\s*|\s+/g) ?? []) {
    chunks.push(chunk({ content: piece }));
  }
  (message.tool_calls ?? []).forEach((c: Json, index: number) => {
    chunks.push(
      chunk({
        tool_calls: [{
          index,
          id: c.id,
          type: "function",
          function: { name: c.function.name, arguments: "" },
        }],
      }),
    );
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: c.function.arguments } }] }));
  });
  chunks.push(chunk({}, finish_reason));
  if (includeUsage) chunks.push({ ...base, choices: [], usage: completion.usage });
  return chunks.map((data) => ({ data }));
}
