/**
 * A local server for Anthropic's Messages API (`POST /v1/messages`), as its
 * documentation describes it: `x-api-key` and `anthropic-version` headers,
 * validation of the body (required `max_tokens`, roles, content blocks,
 * `tool_use`/`tool_result` pairing, at most 4 `cache_control` blocks),
 * error bodies `{type: "error", error: {type, message}, request_id}`, the
 * context window ("prompt is too long", and input plus `max_tokens` over the
 * window), each model's output limit, explicit prompt caching with its
 * minimum length and 20-block lookback (`cache_creation_input_tokens`,
 * `cache_read_input_tokens`), and the streaming events (`message_start` …
 * `message_stop`).
 *
 * @module
 */
import { type Brain, type BrainMessage, type BrainReply, defaultBrain } from "./_brain.ts";
import { BreakpointCache, type CacheBlock } from "./_cache.ts";
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
  anthropicImageTokens,
  countTokens,
  digestOf,
  imageSize,
  segmentTokens,
} from "./_tokens.ts";

/** The models this server knows by default (Anthropic's model and prompt-caching pages). */
export const ANTHROPIC_MODELS: Record<string, ServerModel> = {
  "claude-sonnet-4-5": { contextTokens: 200_000, maxOutputTokens: 64_000, minCacheTokens: 1_024 },
  "claude-sonnet-4-5-20250929": {
    contextTokens: 200_000,
    maxOutputTokens: 64_000,
    minCacheTokens: 1_024,
  },
  "claude-haiku-4-5": { contextTokens: 200_000, maxOutputTokens: 64_000, minCacheTokens: 4_096 },
  "claude-opus-4-1": { contextTokens: 200_000, maxOutputTokens: 32_000, minCacheTokens: 1_024 },
};

const MAX_BREAKPOINTS = 4;

/** The Messages API error body. */
export function anthropicError(type: string, message: string) {
  return { type: "error", error: { type, message }, request_id: makeId("req_") };
}

const invalid = (message: string, status = 400) =>
  new WireError(status, anthropicError("invalid_request_error", message));

/** A running Messages server. */
export interface AnthropicMessagesServer extends ProviderServer {
  cache: BreakpointCache;
}

// deno-lint-ignore no-explicit-any -- request JSON, validated field by field
type Json = any;

/**
 * Starts a Messages API server on loopback.
 *
 * @example
 * ```ts
 * const server = await anthropicMessagesServer();
 * const env = { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url };
 * ```
 */
export async function anthropicMessagesServer(
  options: ProviderServerOptions = {},
): Promise<AnthropicMessagesServer> {
  const requests: RecordedRequest[] = [];
  const models = { ...ANTHROPIC_MODELS, ...options.models };
  const brain: Brain = options.brain ?? defaultBrain;
  const apiKey = options.apiKey === undefined ? "test-key" : options.apiKey;
  const cache = new BreakpointCache();

  const handler = recorded(requests, async (request, record, url) => {
    const answer = (response: Response, error?: unknown) => {
      if (error) record.error = error;
      return response;
    };
    if (request.method !== "POST" || url.pathname !== "/v1/messages") {
      throw new WireError(404, anthropicError("not_found_error", "Not Found"));
    }
    if (apiKey !== null && request.headers.get("x-api-key") !== apiKey) {
      throw new WireError(401, anthropicError("authentication_error", "invalid x-api-key"));
    }
    if (!request.headers.get("anthropic-version")) {
      throw invalid("anthropic-version: header is required");
    }
    const body = await readJson(request);
    record.body = body;
    if (!isObject(body)) {
      throw invalid("There was an issue with your request body: not valid JSON");
    }
    const limits = checkTop(body, models);
    const blocks = cacheBlocks(body);
    const inputTokens = blocks.reduce((n, b) => n + segmentTokens(b.segment), 0);
    record.inputTokens = inputTokens;
    if (inputTokens > limits.contextTokens) {
      throw invalid(
        `prompt is too long: ${inputTokens} tokens > ${limits.contextTokens} maximum`,
      );
    }
    if (inputTokens + body.max_tokens > limits.contextTokens) {
      throw invalid(
        `input length and \`max_tokens\` exceed context limit: ${inputTokens} + ${body.max_tokens} > ${limits.contextTokens}, decrease input length or \`max_tokens\` and try again`,
      );
    }
    const reply = await think(brain, {
      api: "anthropic-messages",
      model: body.model,
      system: systemText(body.system),
      messages: brainMessages(body.messages),
      tools: (body.tools ?? []).map((t: Json) => ({
        name: t.name,
        description: t.description ?? "",
        parameters: t.input_schema,
      })),
      index: requests.length - 1,
    });
    if (reply.fail) {
      const error = failure(reply.fail);
      return answer(json(reply.fail, error), error);
    }
    if (reply.stall === "headers") return answer(await never(request.signal));
    const usage = cache.use(blocks, limits.minCacheTokens ?? 1_024);
    const message = respond(body, reply, usage);
    record.usage = message.usage;
    if (body.stream !== true) return answer(json(200, message, { "request-id": makeId("req_") }));
    return answer(
      sse(streamEvents(message), {
        delayMs: options.chunkDelayMs ?? 0,
        stall: reply.stall === "events",
      }),
    );
  });

  const server = await serveProvider(handler, requests);
  return { ...server, cache };
}

function failure(status: number) {
  if (status === 429) {
    return anthropicError(
      "rate_limit_error",
      "Number of request tokens has exceeded your rate limit.",
    );
  }
  if (status === 529) return anthropicError("overloaded_error", "Overloaded");
  if (status >= 500) return anthropicError("api_error", "Internal server error");
  return anthropicError("invalid_request_error", "The request was refused.");
}

function checkTop(body: Json, models: Record<string, ServerModel>): ServerModel {
  if (typeof body.model !== "string") throw invalid("model: Field required");
  const limits = models[body.model];
  if (!limits) throw new WireError(404, anthropicError("not_found_error", `model: ${body.model}`));
  if (body.max_tokens === undefined) throw invalid("max_tokens: Field required");
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) {
    throw invalid("max_tokens: Input should be a valid integer greater than or equal to 1");
  }
  if (body.max_tokens > limits.maxOutputTokens) {
    throw invalid(
      `max_tokens: ${body.max_tokens} > ${limits.maxOutputTokens}, which is the maximum allowed number of output tokens for ${body.model}`,
    );
  }
  if (!Array.isArray(body.messages)) throw invalid("messages: Field required");
  if (body.messages.length === 0) throw invalid("messages: at least one message is required");
  if (body.messages[0].role !== "user") {
    throw invalid('messages: first message must use the "user" role');
  }
  if (body.system !== undefined && typeof body.system !== "string") {
    if (!Array.isArray(body.system)) throw invalid("system: Input should be a valid list");
    body.system.forEach((b: Json, i: number) => {
      if (b?.type !== "text") throw invalid(`system.${i}.type: Input should be 'text'`);
      if (!b.text) throw invalid(`system.${i}.text: text content blocks must be non-empty`);
    });
  }
  (body.tools ?? []).forEach((t: Json, i: number) => {
    if (typeof t?.name !== "string" || !/^[a-zA-Z0-9_-]{1,64}$/.test(t.name)) {
      throw invalid(`tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
    }
    if (!isObject(t.input_schema) || t.input_schema.type !== "object") {
      throw invalid(`tools.${i}.custom.input_schema.type: Input should be 'object'`);
    }
  });
  checkMessages(body.messages);
  const count = countBreakpoints(body);
  if (count > MAX_BREAKPOINTS) {
    throw invalid(
      `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${count}.`,
    );
  }
  return limits;
}

const USER_BLOCKS = ["text", "image", "document", "tool_result", "search_result"];
const ASSISTANT_BLOCKS = ["text", "tool_use", "thinking", "redacted_thinking"];

function checkMessages(messages: Json[]): void {
  messages.forEach((m: Json, i: number) => {
    if (m?.role !== "user" && m?.role !== "assistant") {
      throw invalid(`messages.${i}.role: Input should be 'user' or 'assistant'`);
    }
    if (typeof m.content === "string") {
      if (!m.content && i < messages.length - 1) {
        throw invalid(
          `messages.${i}: all messages must have non-empty content except for the optional final assistant message`,
        );
      }
      return;
    }
    if (!Array.isArray(m.content)) {
      throw invalid(`messages.${i}.content: Input should be a valid list`);
    }
    const allowed = m.role === "user" ? USER_BLOCKS : ASSISTANT_BLOCKS;
    m.content.forEach((b: Json, j: number) => {
      if (!allowed.includes(b?.type)) {
        throw invalid(
          `messages.${i}.content.${j}.type: Input tag '${b?.type}' found using 'type' does not match any of the expected tags: ${
            allowed.map((a) => `'${a}'`).join(", ")
          }`,
        );
      }
      if (b.type === "text" && !b.text) {
        throw invalid(`messages.${i}.content.${j}.text: text content blocks must be non-empty`);
      }
    });
  });
  // Consecutive messages of one role are combined into one turn, as the API does.
  const turns: Json[] = [];
  for (const m of messages) {
    const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    const last = turns.at(-1);
    if (last?.role === m.role) last.blocks.push(...blocks);
    else turns.push({ role: m.role, blocks: [...blocks], index: turns.length });
  }
  turns.forEach((turn, i) => {
    if (turn.role !== "assistant") return;
    const ids = turn.blocks.filter((b: Json) => b.type === "tool_use").map((b: Json) => b.id);
    if (!ids.length) return;
    const next = turns[i + 1];
    const answered = new Set(
      (next?.blocks ?? []).filter((b: Json) => b.type === "tool_result").map((b: Json) =>
        b.tool_use_id
      ),
    );
    const missing = ids.filter((id: string) => !answered.has(id));
    if (missing.length && next) {
      throw invalid(
        `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${
          missing.join(", ")
        }. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    }
  });
  turns.forEach((turn, i) => {
    if (turn.role !== "user") return;
    const previous = turns[i - 1];
    const asked = new Set(
      (previous?.blocks ?? []).filter((b: Json) => b.type === "tool_use").map((b: Json) => b.id),
    );
    turn.blocks.forEach((b: Json, j: number) => {
      if (b.type === "tool_result" && !asked.has(b.tool_use_id)) {
        throw invalid(
          `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${b.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
    });
  });
}

function countBreakpoints(body: Json): number {
  let n = 0;
  const visit = (b: Json) => {
    if (b?.cache_control) n++;
    if (b?.type === "tool_result" && Array.isArray(b.content)) b.content.forEach(visit);
  };
  (body.tools ?? []).forEach(visit);
  if (Array.isArray(body.system)) body.system.forEach(visit);
  for (const m of body.messages) if (Array.isArray(m.content)) m.content.forEach(visit);
  return n;
}

/** The request's blocks in cache order (tools, system, messages), with their breakpoints. */
function cacheBlocks(body: Json): CacheBlock[] {
  const blocks: CacheBlock[] = [];
  for (const t of body.tools ?? []) {
    blocks.push({
      segment: { text: JSON.stringify([t.name, t.description ?? "", t.input_schema]) },
      breakpoint: !!t.cache_control,
    });
  }
  const system = typeof body.system === "string"
    ? [{ type: "text", text: body.system }]
    : body.system ?? [];
  for (const b of system) {
    blocks.push({ segment: { text: `system\n${b.text}` }, breakpoint: !!b.cache_control });
  }
  for (const m of body.messages) {
    const content = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    content.forEach((b: Json, j: number) => {
      const head = j === 0 ? `${m.role}\n` : "";
      blocks.push({ segment: blockSegment(b, head), breakpoint: !!b.cache_control });
    });
  }
  return blocks;
}

function blockSegment(b: Json, head: string): CacheBlock["segment"] {
  switch (b.type) {
    case "text":
      return { text: head + b.text };
    case "image": {
      const data = b.source?.data ?? b.source?.url ?? "";
      return {
        blob: digestOf(String(data)),
        tokens: anthropicImageTokens(imageSize(String(b.source?.data ?? ""))),
      };
    }
    case "document":
      return {
        blob: digestOf(JSON.stringify(b.source ?? {})),
        tokens: Math.ceil(String(b.source?.data ?? "").length / 6) || 1_500,
      };
    case "tool_use":
      return { text: `${head}call ${b.name} ${JSON.stringify(b.input ?? {})}` };
    case "tool_result": {
      const content = typeof b.content === "string"
        ? b.content
        : (b.content ?? []).map((c: Json) => (c.type === "text" ? c.text : `[${c.type}]`)).join(
          "\n",
        );
      const images = Array.isArray(b.content)
        ? b.content.filter((c: Json) => c.type === "image")
        : [];
      const imageTokens = images.reduce(
        (n: number, c: Json) => n + anthropicImageTokens(imageSize(String(c.source?.data ?? ""))),
        0,
      );
      const text = `${head}result ${b.tool_use_id}\n${content}`;
      return imageTokens
        ? {
          blob: digestOf(text) + digestOf(JSON.stringify(images)),
          tokens: countTokens(text) + imageTokens,
        }
        : { text };
    }
    default:
      return { text: head + JSON.stringify(b) };
  }
}

function systemText(system: Json): string {
  if (typeof system === "string") return system;
  return (system ?? []).map((b: Json) => b.text).join("\n");
}

function brainMessages(messages: Json[]): BrainMessage[] {
  return messages.map((m: Json) => {
    const blocks = typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
    const out: BrainMessage = { role: m.role, text: "", calls: [], results: [], images: 0 };
    const texts: string[] = [];
    for (const b of blocks) {
      if (b.type === "text") texts.push(b.text);
      else if (b.type === "image") out.images++;
      else if (b.type === "tool_use") {
        out.calls.push({ id: b.id, name: b.name, arguments: b.input });
      } else if (b.type === "tool_result") {
        const parts = typeof b.content === "string"
          ? [{ type: "text", text: b.content }]
          : b.content ?? [];
        out.results.push({
          id: b.tool_use_id,
          output: parts.filter((p: Json) => p.type === "text").map((p: Json) => p.text).join("\n"),
          error: b.is_error === true,
          images: parts.filter((p: Json) => p.type === "image").length,
        });
      }
    }
    out.text = texts.join("\n");
    return out;
  });
}

function respond(body: Json, reply: BrainReply, usage: ReturnType<BreakpointCache["use"]>) {
  const content: Json[] = [];
  let outputTokens = 0;
  let stop = "end_turn";
  if (reply.text) {
    let text = reply.text;
    if (countTokens(text) > body.max_tokens) {
      text = text.slice(0, body.max_tokens * 4);
      stop = "max_tokens";
    }
    outputTokens += countTokens(text);
    content.push({ type: "text", text });
  }
  if (stop !== "max_tokens") {
    for (const call of reply.calls ?? []) {
      outputTokens += countTokens(call.name + JSON.stringify(call.arguments ?? {}));
      content.push({
        type: "tool_use",
        id: makeId("toolu_"),
        name: call.name,
        input: call.arguments ?? {},
      });
      stop = "tool_use";
    }
  }
  return {
    id: makeId("msg_"),
    type: "message",
    role: "assistant",
    model: body.model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { ...usage, output_tokens: Math.max(1, outputTokens) },
  };
}

function streamEvents(message: Json): SseEvent[] {
  const events: Json[] = [{
    type: "message_start",
    message: {
      ...message,
      content: [],
      stop_reason: null,
      usage: { ...message.usage, output_tokens: 1 },
    },
  }];
  events.push({ type: "ping" });
  message.content.forEach((block: Json, index: number) => {
    if (block.type === "text") {
      events.push({
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      for (const text of block.text.match(/\S+\s*|\s+/g) ?? []) {
        events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text } });
      }
    } else {
      events.push({ type: "content_block_start", index, content_block: { ...block, input: {} } });
      events.push({
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    events.push({ type: "content_block_stop", index });
  });
  events.push({
    type: "message_delta",
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
  });
  events.push({ type: "message_stop" });
  return events.map((data) => ({ event: data.type, data }));
}
