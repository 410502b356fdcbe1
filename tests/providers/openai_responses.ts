/**
 * A local server for OpenAI's Responses API (`POST /v1/responses`), as its
 * documentation describes it: bearer authentication, strict validation of
 * the body (unknown parameters, item types, tool-call pairing), error bodies
 * `{error: {message, type, param, code}}`, the model's context window
 * (`context_length_exceeded`) and output limit, automatic prompt caching
 * (`usage.input_tokens_details.cached_tokens`), stored responses (`store`,
 * default true) and `item_reference` (404 when the item is not stored), and
 * the semantic streaming events (`response.created` … `response.completed`).
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

/** The models this server knows by default (OpenAI's model pages). */
export const OPENAI_MODELS: Record<string, ServerModel> = {
  "gpt-4o-mini": { contextTokens: 128_000, maxOutputTokens: 16_384 },
  "gpt-4o": { contextTokens: 128_000, maxOutputTokens: 16_384 },
  "gpt-4.1-mini": { contextTokens: 1_047_576, maxOutputTokens: 32_768 },
  "gpt-5-mini": { contextTokens: 400_000, maxOutputTokens: 128_000 },
};

/** The Responses API's top-level parameters; any other is `unknown_parameter`. */
const PARAMETERS = new Set([
  "model",
  "input",
  "instructions",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "max_output_tokens",
  "max_tool_calls",
  "temperature",
  "top_p",
  "top_logprobs",
  "stream",
  "stream_options",
  "store",
  "metadata",
  "previous_response_id",
  "include",
  "reasoning",
  "text",
  "truncation",
  "user",
  "service_tier",
  "prompt_cache_key",
  "prompt_cache_retention",
  "safety_identifier",
  "background",
  "conversation",
  "prompt",
]);

/** The OpenAI error body. */
export function openaiError(
  message: string,
  type = "invalid_request_error",
  param: string | null = null,
  code: string | null = null,
) {
  return { error: { message, type, param, code } };
}

const invalid = (status: number, message: string, param: string | null, code: string | null) =>
  new WireError(status, openaiError(message, "invalid_request_error", param, code));

/** A running Responses server. */
export interface OpenAIResponsesServer extends ProviderServer {
  /** Drops every stored response, as after OpenAI's retention period or with another project's key. */
  forget(): void;
  /** The stored responses' output items, by id. */
  stored: Map<string, unknown>;
  cache: PrefixCache;
}

// deno-lint-ignore no-explicit-any -- request JSON, validated field by field
type Json = any;

interface Checked {
  model: string;
  limits: ServerModel;
  items: Json[];
  tools: Json[];
  segments: Segment[];
  stream: boolean;
  store: boolean;
  maxOutput: number | undefined;
}

/**
 * Starts a Responses API server on loopback.
 *
 * @example
 * ```ts
 * const server = await openaiResponsesServer();
 * const env = { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.url };
 * ```
 */
export async function openaiResponsesServer(
  options: ProviderServerOptions & {
    /** Refuse an over-long input inside the stream (OpenAI's `error` event) instead of with a 400. */
    overflowInStream?: boolean;
  } = {},
): Promise<OpenAIResponsesServer> {
  const requests: RecordedRequest[] = [];
  const models = { ...OPENAI_MODELS, ...options.models };
  const brain: Brain = options.brain ?? defaultBrain;
  const apiKey = options.apiKey === undefined ? "test-key" : options.apiKey;
  const stored = new Map<string, Json>();
  const unstored = new Set<string>();
  const cache = new PrefixCache();

  const handler = recorded(requests, async (request, record, url) => {
    const answer = (response: Response, error?: unknown) => {
      if (error) record.error = error;
      return response;
    };
    if (request.method !== "POST" || url.pathname !== "/v1/responses") {
      throw invalid(404, `Invalid URL (${request.method} ${url.pathname})`, null, null);
    }
    authenticate(request, apiKey);
    const body = await readJson(request);
    record.body = body;
    if (!isObject(body)) {
      throw invalid(
        400,
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
        null,
        null,
      );
    }
    const checked = check(body, models, stored, unstored);
    record.inputTokens = checked.segments.reduce((n, s) => n + segmentTokens(s), 0);
    const overflow = record.inputTokens > checked.limits.contextTokens
      ? openaiError(
        "Your input exceeds the context window of this model. Please adjust your input and try again.",
        "invalid_request_error",
        "input",
        "context_length_exceeded",
      )
      : null;
    if (overflow && !(checked.stream && options.overflowInStream)) {
      return answer(json(400, overflow), overflow);
    }
    const reply = overflow ? { text: "" } : await think(brain, {
      api: "openai-responses",
      model: checked.model,
      ...brainView(checked.items, body.instructions),
      tools: checked.tools.map((t: Json) => ({
        name: t.name,
        description: t.description ?? "",
        parameters: t.parameters,
      })),
      index: requests.length - 1,
    });
    if (reply.fail) {
      const error = failure(reply.fail);
      return answer(json(reply.fail, error), error);
    }
    if (reply.stall === "headers") return answer(await never(request.signal));
    const response = respond(checked, reply, overflow ? 0 : cache.use(checked.segments), record);
    if (checked.store) {
      for (const item of response.output) stored.set(item.id, item);
    } else {
      for (const item of response.output) unstored.add(item.id);
    }
    if (!overflow) record.usage = response.usage;
    if (!checked.stream) return answer(json(200, response));
    const events = overflow ? streamOverflow(response, overflow) : streamEvents(response);
    if (overflow) record.error = overflow;
    return answer(
      sse(events, {
        delayMs: options.chunkDelayMs ?? 0,
        stall: reply.stall === "events",
      }),
    );
  });

  const server = await serveProvider(handler, requests);
  return {
    ...server,
    stored,
    cache,
    forget: () => {
      for (const id of stored.keys()) unstored.delete(id);
      stored.clear();
    },
  };
}

function authenticate(request: Request, apiKey: string | null): void {
  if (apiKey === null) return;
  const header = request.headers.get("authorization") ?? "";
  const given = /^Bearer (.+)$/.exec(header)?.[1];
  if (!given) {
    throw invalid(
      401,
      "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      null,
      null,
    );
  }
  if (given !== apiKey) {
    const masked = given.length > 8
      ? `${given.slice(0, 3)}${"*".repeat(given.length - 7)}${given.slice(-4)}`
      : "*".repeat(given.length);
    throw invalid(
      401,
      `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      null,
      "invalid_api_key",
    );
  }
}

/** The error body OpenAI answers a failure status with. */
function failure(status: number) {
  if (status === 429) {
    return openaiError(
      "Rate limit reached for requests. Please try again in 1s.",
      "requests",
      null,
      "rate_limit_exceeded",
    );
  }
  if (status >= 500) {
    return openaiError(
      "The server had an error while processing your request. Sorry about that!",
      "server_error",
    );
  }
  return openaiError("The request was refused.", "invalid_request_error");
}

function check(
  body: Json,
  models: Record<string, ServerModel>,
  stored: Map<string, Json>,
  unstored: Set<string>,
): Checked {
  for (const key of Object.keys(body)) {
    if (!PARAMETERS.has(key)) {
      throw invalid(400, `Unknown parameter: '${key}'.`, key, "unknown_parameter");
    }
  }
  if (typeof body.model !== "string" || !body.model) {
    throw invalid(
      400,
      "Missing required parameter: 'model'.",
      "model",
      "missing_required_parameter",
    );
  }
  const limits = models[body.model];
  if (!limits) {
    throw invalid(
      400,
      `The requested model '${body.model}' does not exist.`,
      "model",
      "model_not_found",
    );
  }
  if (body.previous_response_id !== undefined) {
    throw invalid(
      404,
      `Previous response with id '${body.previous_response_id}' not found.`,
      "previous_response_id",
      "previous_response_not_found",
    );
  }
  const maxOutput = body.max_output_tokens;
  if (maxOutput !== undefined) {
    if (!Number.isInteger(maxOutput)) {
      throw invalid(
        400,
        "Invalid type for 'max_output_tokens': expected an integer.",
        "max_output_tokens",
        "invalid_type",
      );
    }
    if (maxOutput < 16) {
      throw invalid(
        400,
        `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${maxOutput} instead.`,
        "max_output_tokens",
        "integer_below_min_value",
      );
    }
    if (maxOutput > limits.maxOutputTokens) {
      throw invalid(
        400,
        `max_output_tokens is too large: ${maxOutput}. This model supports at most ${limits.maxOutputTokens} output tokens, whereas you provided ${maxOutput}.`,
        "max_output_tokens",
        "invalid_value",
      );
    }
  }
  if (body.store !== undefined && typeof body.store !== "boolean") {
    throw invalid(400, "Invalid type for 'store': expected a boolean.", "store", "invalid_type");
  }
  const tools = checkTools(body.tools);
  const raw = typeof body.input === "string"
    ? [{ type: "message", role: "user", content: body.input }]
    : body.input;
  if (!Array.isArray(raw)) {
    throw invalid(
      400,
      "Missing required parameter: 'input'.",
      "input",
      "missing_required_parameter",
    );
  }
  const items = raw.map((item: Json, i: number) => {
    if (isObject(item) && item.type === "item_reference") {
      const found = typeof item.id === "string" ? stored.get(item.id) : undefined;
      if (found) return found;
      const tail = unstored.has(item.id)
        ? " Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input."
        : "";
      throw invalid(404, `Item with id '${item.id}' not found.${tail}`, "input", null);
    }
    checkItem(item, i);
    return item;
  });
  checkPairs(items);
  const segments: Segment[] = [
    ...tools.map((t: Json) => ({
      text: JSON.stringify([t.name, t.description ?? "", t.parameters]),
    })),
    ...(typeof body.instructions === "string" ? [{ text: `system\n${body.instructions}` }] : []),
    ...items.flatMap(render),
  ];
  return {
    model: body.model,
    limits,
    items,
    tools,
    segments,
    stream: body.stream === true,
    store: body.store !== false,
    maxOutput,
  };
}

function checkTools(tools: Json): Json[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) {
    throw invalid(400, "Invalid type for 'tools': expected an array.", "tools", "invalid_type");
  }
  tools.forEach((t: Json, i: number) => {
    if (!isObject(t) || t.type !== "function") {
      throw invalid(
        400,
        `Invalid value: '${t?.type}'. Supported values are: 'function'.`,
        `tools[${i}].type`,
        "invalid_value",
      );
    }
    if (typeof t.name !== "string" || !/^[a-zA-Z0-9_-]{1,64}$/.test(t.name)) {
      throw invalid(
        400,
        `Invalid 'tools[${i}].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        `tools[${i}].name`,
        "invalid_value",
      );
    }
    if (t.parameters !== undefined && (!isObject(t.parameters) || t.parameters.type !== "object")) {
      throw invalid(
        400,
        `Invalid schema for function '${t.name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${t.parameters?.type}"'.`,
        `tools[${i}].parameters`,
        "invalid_function_parameters",
      );
    }
  });
  return tools;
}

const ITEM_TYPES = [
  "message",
  "function_call",
  "function_call_output",
  "reasoning",
  "item_reference",
];

function checkItem(item: Json, i: number): void {
  const at = `input[${i}]`;
  if (!isObject(item)) {
    throw invalid(400, `Invalid type for '${at}': expected an object.`, at, "invalid_type");
  }
  const type = item.type ?? "message";
  if (!ITEM_TYPES.includes(type)) {
    throw invalid(
      400,
      `Invalid value: '${type}'. Supported values are: ${
        ITEM_TYPES.map((t) => `'${t}'`).join(", ")
      }.`,
      `${at}.type`,
      "invalid_value",
    );
  }
  if (type === "message") {
    if (!["user", "system", "developer", "assistant"].includes(item.role)) {
      throw invalid(
        400,
        `Invalid value: '${item.role}'. Supported values are: 'assistant', 'system', 'developer', and 'user'.`,
        `${at}.role`,
        "invalid_value",
      );
    }
    if (typeof item.content === "string") return;
    if (!Array.isArray(item.content)) {
      throw invalid(
        400,
        `Missing required parameter: '${at}.content'.`,
        `${at}.content`,
        "missing_required_parameter",
      );
    }
    const allowed = item.role === "assistant"
      ? ["output_text", "refusal"]
      : ["input_text", "input_image", "input_file"];
    item.content.forEach((part: Json, j: number) => {
      if (!allowed.includes(part?.type)) {
        throw invalid(
          400,
          `Invalid value: '${part?.type}'. Supported values are: ${
            allowed.map((a) => `'${a}'`).join(", ")
          }.`,
          `${at}.content[${j}].type`,
          "invalid_value",
        );
      }
    });
  } else if (type === "function_call") {
    for (const key of ["call_id", "name", "arguments"]) {
      if (typeof item[key] !== "string") {
        throw invalid(
          400,
          `Missing required parameter: '${at}.${key}'.`,
          `${at}.${key}`,
          "missing_required_parameter",
        );
      }
    }
  } else if (type === "function_call_output") {
    if (typeof item.call_id !== "string") {
      throw invalid(
        400,
        `Missing required parameter: '${at}.call_id'.`,
        `${at}.call_id`,
        "missing_required_parameter",
      );
    }
    const ok = typeof item.output === "string" ||
      (Array.isArray(item.output) &&
        item.output.every((p: Json) =>
          ["input_text", "input_image", "input_file"].includes(p?.type)
        ));
    if (!ok) {
      throw invalid(
        400,
        `Invalid type for '${at}.output': expected a string or a list of input content.`,
        `${at}.output`,
        "invalid_type",
      );
    }
  }
}

/** Every function call answered by an output, every output answering an earlier call. */
function checkPairs(items: Json[]): void {
  const open = new Set<string>();
  for (const item of items) {
    if (item.type === "function_call") open.add(item.call_id);
    else if (item.type === "function_call_output") {
      if (!open.delete(item.call_id)) {
        throw invalid(
          400,
          `No tool call found for function call output with call_id ${item.call_id}.`,
          "input",
          null,
        );
      }
    }
  }
  const [first] = open;
  if (first) throw invalid(400, `No tool output found for function call ${first}.`, "input", null);
}

function render(item: Json): Segment[] {
  const type = item.type ?? "message";
  if (type === "function_call") return [{ text: `call ${item.name} ${item.arguments}` }];
  if (type === "reasoning") return [{ text: JSON.stringify(item.summary ?? []) }];
  if (type === "function_call_output") {
    if (typeof item.output === "string") {
      return [{ text: `result ${item.call_id}\n${item.output}` }];
    }
    return [{ text: `result ${item.call_id}` }, ...item.output.flatMap(partSegments)];
  }
  if (typeof item.content === "string") return [{ text: `${item.role}\n${item.content}` }];
  return [{ text: item.role }, ...item.content.flatMap(partSegments)];
}

function partSegments(part: Json): Segment[] {
  if (part.type === "input_text" || part.type === "output_text") return [{ text: part.text ?? "" }];
  if (part.type === "refusal") return [{ text: part.refusal ?? "" }];
  if (part.type === "input_image") {
    const url = String(part.image_url ?? part.file_id ?? "");
    const data = url.startsWith("data:") ? url.slice(url.indexOf(",") + 1) : "";
    return [{ blob: digestOf(url), tokens: openaiImageTokens(imageSize(data), part.detail) }];
  }
  // A file counts a sixth of its base64 characters (the runtime's estimate counts a quarter).
  const data = String(part.file_data ?? part.file_url ?? part.file_id ?? "");
  return [{ blob: digestOf(data), tokens: Math.ceil(data.length / 6) }];
}

function textOf(content: Json): { text: string; images: number } {
  if (typeof content === "string") return { text: content, images: 0 };
  let text = "";
  let images = 0;
  for (const part of content ?? []) {
    if (part.type === "input_image") images++;
    else if (typeof part.text === "string") text += (text ? "\n" : "") + part.text;
  }
  return { text, images };
}

function brainView(
  items: Json[],
  instructions: unknown,
): { system: string; messages: BrainMessage[] } {
  const system: string[] = typeof instructions === "string" ? [instructions] : [];
  const messages: BrainMessage[] = [];
  const blank = (role: BrainMessage["role"]): BrainMessage => ({
    role,
    text: "",
    calls: [],
    results: [],
    images: 0,
  });
  for (const item of items) {
    const type = item.type ?? "message";
    if (type === "message" && (item.role === "system" || item.role === "developer")) {
      system.push(textOf(item.content).text);
    } else if (type === "message") {
      const { text, images } = textOf(item.content);
      messages.push({ ...blank(item.role), text, images });
    } else if (type === "function_call") {
      let last = messages.at(-1);
      if (last?.role !== "assistant") messages.push(last = blank("assistant"));
      let args: unknown = item.arguments;
      try {
        args = JSON.parse(item.arguments);
      } catch { /* kept as text */ }
      last.calls.push({ id: item.call_id, name: item.name, arguments: args });
    } else if (type === "function_call_output") {
      let last = messages.at(-1);
      if (last?.role !== "tool") messages.push(last = blank("tool"));
      const { text, images } = textOf(item.output);
      last.results.push({ id: item.call_id, output: text, error: false, images });
    }
  }
  return { system: system.join("\n"), messages };
}

function respond(checked: Checked, reply: BrainReply, cached: number, record: RecordedRequest) {
  const output: Json[] = [];
  let outputTokens = 0;
  let incomplete = false;
  const budget = checked.maxOutput ?? checked.limits.maxOutputTokens;
  if (reply.text) {
    let text = reply.text;
    if (countTokens(text) > budget) {
      text = text.slice(0, budget * 4);
      incomplete = true;
    }
    outputTokens += countTokens(text);
    output.push({
      type: "message",
      id: makeId("msg_"),
      status: incomplete ? "incomplete" : "completed",
      role: "assistant",
      content: [{ type: "output_text", text, annotations: [] }],
    });
  }
  for (const call of incomplete ? [] : reply.calls ?? []) {
    const args = JSON.stringify(call.arguments ?? {});
    outputTokens += countTokens(call.name + args);
    output.push({
      type: "function_call",
      id: makeId("fc_"),
      call_id: makeId("call_"),
      name: call.name,
      arguments: args,
      status: "completed",
    });
  }
  const input = record.inputTokens ?? 0;
  return {
    id: makeId("resp_"),
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: incomplete ? "incomplete" : "completed",
    error: null,
    incomplete_details: incomplete ? { reason: "max_output_tokens" } : null,
    model: checked.model,
    output,
    parallel_tool_calls: true,
    store: checked.store,
    max_output_tokens: checked.maxOutput ?? null,
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: cached },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: input + outputTokens,
    },
  };
}

/** The semantic events of a streamed response, numbered. */
function streamEvents(response: Json): SseEvent[] {
  const events: Json[] = [];
  const start = {
    ...response,
    status: "in_progress",
    output: [],
    usage: null,
    incomplete_details: null,
  };
  events.push({ type: "response.created", response: start });
  events.push({ type: "response.in_progress", response: start });
  response.output.forEach((item: Json, output_index: number) => {
    if (item.type === "message") {
      const text = item.content[0].text;
      events.push({
        type: "response.output_item.added",
        output_index,
        item: { ...item, status: "in_progress", content: [] },
      });
      const part = { type: "output_text", text: "", annotations: [] };
      events.push({
        type: "response.content_part.added",
        item_id: item.id,
        output_index,
        content_index: 0,
        part,
      });
      for (const delta of text.match(/\S+\s*|\s+/g) ?? []) {
        events.push({
          type: "response.output_text.delta",
          item_id: item.id,
          output_index,
          content_index: 0,
          delta,
          logprobs: [],
        });
      }
      events.push({
        type: "response.output_text.done",
        item_id: item.id,
        output_index,
        content_index: 0,
        text,
        logprobs: [],
      });
      events.push({
        type: "response.content_part.done",
        item_id: item.id,
        output_index,
        content_index: 0,
        part: { ...part, text },
      });
    } else {
      events.push({
        type: "response.output_item.added",
        output_index,
        item: { ...item, status: "in_progress", arguments: "" },
      });
      events.push({
        type: "response.function_call_arguments.delta",
        item_id: item.id,
        output_index,
        delta: item.arguments,
      });
      events.push({
        type: "response.function_call_arguments.done",
        item_id: item.id,
        output_index,
        arguments: item.arguments,
      });
    }
    events.push({ type: "response.output_item.done", output_index, item });
  });
  events.push({
    type: response.status === "incomplete" ? "response.incomplete" : "response.completed",
    response,
  });
  return events.map((data, sequence_number) => ({
    event: data.type,
    data: { ...data, sequence_number },
  }));
}

/** An over-long input refused inside the stream: created, in progress, then the `error` event. */
function streamOverflow(response: Json, overflow: Json): SseEvent[] {
  const start = { ...response, status: "in_progress", output: [], usage: null };
  const events: Json[] = [
    { type: "response.created", response: start },
    { type: "response.in_progress", response: start },
    {
      type: "error",
      code: overflow.error.code,
      message: overflow.error.message,
      param: overflow.error.param,
    },
  ];
  return events.map((data, sequence_number) => ({
    event: data.type,
    data: { ...data, sequence_number },
  }));
}
