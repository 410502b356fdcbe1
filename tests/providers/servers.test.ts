// deno-lint-ignore-file no-explicit-any -- provider JSON read back in tests
/**
 * The local provider servers keep their providers' documented rules: these
 * tests speak to them over HTTP as a client of each API would, without
 * Tether in between.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { anthropicMessagesServer, chatCompletionsServer, openaiResponsesServer } from "./mod.ts";

const post = async (url: string, body: unknown, headers: Record<string, string>) => {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch { /* a stream */ }
  return { status: res.status, json, text };
};
const bearer = { authorization: "Bearer test-key" };
const claude = { "x-api-key": "test-key", "anthropic-version": "2023-06-01" };
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 97}`).join(" ");

test("Responses: key, unknown parameters and models are refused in OpenAI's error shape", async () => {
  const server = await openaiResponsesServer();
  try {
    const url = `${server.url}/responses`;
    const noKey = await post(url, { model: "gpt-4o-mini", input: "hi" }, {});
    assert.equal(noKey.status, 401);
    assert.equal(noKey.json.error.type, "invalid_request_error");
    const unknown = await post(url, { model: "gpt-4o-mini", input: "hi", fancy: 1 }, bearer);
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.json.error, {
      message: "Unknown parameter: 'fancy'.",
      type: "invalid_request_error",
      param: "fancy",
      code: "unknown_parameter",
    });
    const model = await post(url, { model: "gpt-9", input: "hi" }, bearer);
    assert.equal(model.json.error.code, "model_not_found");
    const low = await post(
      url,
      { model: "gpt-4o-mini", input: "hi", max_output_tokens: 8 },
      bearer,
    );
    assert.equal(low.json.error.code, "integer_below_min_value");
  } finally {
    await server.close();
  }
});

test("Responses: a function call must be answered, an output must answer a call", async () => {
  const server = await openaiResponsesServer();
  try {
    const url = `${server.url}/responses`;
    const call = { type: "function_call", call_id: "call_1", name: "f", arguments: "{}" };
    const unanswered = await post(url, {
      model: "gpt-4o-mini",
      input: [{ role: "user", content: "hi" }, call, { role: "user", content: "again" }],
    }, bearer);
    assert.equal(unanswered.status, 400);
    assert.match(unanswered.json.error.message, /No tool output found for function call call_1/);
    const orphan = await post(url, {
      model: "gpt-4o-mini",
      input: [{ type: "function_call_output", call_id: "call_9", output: "x" }],
    }, bearer);
    assert.match(orphan.json.error.message, /No tool call found .* call_9/);
  } finally {
    await server.close();
  }
});

test("Responses: stored items can be referenced; forgotten or unstored ones answer 404", async () => {
  const server = await openaiResponsesServer();
  try {
    const url = `${server.url}/responses`;
    const first = await post(url, { model: "gpt-4o-mini", input: "hello" }, bearer);
    const id = first.json.output[0].id;
    const again = await post(url, {
      model: "gpt-4o-mini",
      input: [{ role: "user", content: "hello" }, { type: "item_reference", id }, {
        role: "user",
        content: "more",
      }],
    }, bearer);
    assert.equal(again.status, 200);
    server.forget();
    const lost = await post(url, {
      model: "gpt-4o-mini",
      input: [{ type: "item_reference", id }, { role: "user", content: "more" }],
    }, bearer);
    assert.equal(lost.status, 404);
    assert.equal(lost.json.error.message, `Item with id '${id}' not found.`);
    const unstored = await post(url, { model: "gpt-4o-mini", input: "x", store: false }, bearer);
    const ref = await post(url, {
      model: "gpt-4o-mini",
      input: [{ type: "item_reference", id: unstored.json.output[0].id }],
    }, bearer);
    assert.equal(ref.status, 404);
    assert.match(ref.json.error.message, /Items are not persisted when `store` is set to false/);
  } finally {
    await server.close();
  }
});

test("Responses: input over the window is context_length_exceeded, as a 400 or in the stream", async () => {
  const models = { tiny: { contextTokens: 2_000, maxOutputTokens: 500 } };
  for (const overflowInStream of [false, true]) {
    const server = await openaiResponsesServer({ models, overflowInStream });
    try {
      const res = await post(
        `${server.url}/responses`,
        { model: "tiny", input: words(3_000), stream: true },
        bearer,
      );
      if (!overflowInStream) {
        assert.equal(res.status, 400);
        assert.equal(res.json.error.code, "context_length_exceeded");
        assert.equal(res.json.error.param, "input");
      } else {
        assert.equal(res.status, 200);
        assert.match(res.text, /event: response\.created/);
        assert.match(
          res.text,
          /event: error\ndata: \{"type":"error".*"code":"context_length_exceeded"/,
        );
      }
    } finally {
      await server.close();
    }
  }
});

test("Responses: cached_tokens counts the common prefix from 1,024 tokens on, in steps of 128", async () => {
  const server = await openaiResponsesServer();
  try {
    const url = `${server.url}/responses`;
    const prefix = words(1_500); // about 1,700 tokens
    const small = await post(url, { model: "gpt-4o-mini", input: "short" }, bearer);
    assert.equal(small.json.usage.input_tokens_details.cached_tokens, 0);
    const a = await post(url, { model: "gpt-4o-mini", input: `${prefix} first` }, bearer);
    assert.equal(a.json.usage.input_tokens_details.cached_tokens, 0);
    const b = await post(url, { model: "gpt-4o-mini", input: `${prefix} second` }, bearer);
    const cached = b.json.usage.input_tokens_details.cached_tokens;
    assert.ok(cached >= 1_024 && cached <= b.json.usage.input_tokens, `cached ${cached}`);
    assert.equal((cached - 1_024) % 128, 0);
  } finally {
    await server.close();
  }
});

test("Responses: the stream carries the documented events, numbered, ending in response.completed", async () => {
  const server = await openaiResponsesServer({
    brain: () => ({ text: "Hi there", calls: [{ name: "f", arguments: { a: 1 } }] }),
  });
  try {
    const res = await post(`${server.url}/responses`, {
      model: "gpt-4o-mini",
      input: "hi",
      stream: true,
      tools: [{ type: "function", name: "f", parameters: { type: "object", properties: {} } }],
    }, bearer);
    const events = [...res.text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(events.slice(0, 2), ["response.created", "response.in_progress"]);
    assert.ok(events.includes("response.output_text.delta"));
    assert.ok(events.includes("response.function_call_arguments.done"));
    assert.equal(events.at(-1), "response.completed");
    const numbers = [...res.text.matchAll(/"sequence_number":(\d+)/g)].map((m) => Number(m[1]));
    assert.deepEqual(numbers, numbers.map((_, i) => i));
  } finally {
    await server.close();
  }
});

test("Messages: headers, max_tokens and the model's output limit are checked", async () => {
  const server = await anthropicMessagesServer();
  try {
    const url = `${server.url}/messages`;
    const body = {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [{ role: "user", content: "hi" }],
    };
    assert.equal(
      (await post(url, body, { "x-api-key": "nope", "anthropic-version": "2023-06-01" })).json.error
        .type,
      "authentication_error",
    );
    const version = await post(url, body, { "x-api-key": "test-key" });
    assert.equal(version.json.error.message, "anthropic-version: header is required");
    const { max_tokens: _, ...noMax } = body;
    assert.equal((await post(url, noMax, claude)).json.error.message, "max_tokens: Field required");
    const over = await post(url, { ...body, max_tokens: 64_001 }, claude);
    assert.equal(over.status, 400);
    assert.match(
      over.json.error.message,
      /max_tokens: 64001 > 64000, which is the maximum allowed/,
    );
    const ok = await post(url, body, claude);
    assert.equal(ok.status, 200);
    assert.equal(ok.json.type, "message");
  } finally {
    await server.close();
  }
});

test("Messages: tool_use needs its tool_result right after; at most 4 cache_control blocks", async () => {
  const server = await anthropicMessagesServer();
  try {
    const url = `${server.url}/messages`;
    const unanswered = await post(url, {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "f", input: {} }] },
        { role: "user", content: "go on" },
      ],
    }, claude);
    assert.equal(unanswered.status, 400);
    assert.match(
      unanswered.json.error.message,
      /messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1/,
    );
    const cc = { type: "ephemeral" };
    const five = await post(url, {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: [{ type: "text", text: "a", cache_control: cc }, {
        type: "text",
        text: "b",
        cache_control: cc,
      }],
      messages: [{
        role: "user",
        content: ["c", "d", "e"].map((text) => ({ type: "text", text, cache_control: cc })),
      }],
    }, claude);
    assert.equal(
      five.json.error.message,
      "A maximum of 4 blocks with cache_control may be provided. Found 5.",
    );
  } finally {
    await server.close();
  }
});

test("Messages: the window counts input and max_tokens; the errors say which", async () => {
  const server = await anthropicMessagesServer({
    models: { small: { contextTokens: 2_000, maxOutputTokens: 1_000, minCacheTokens: 1_024 } },
  });
  try {
    const url = `${server.url}/messages`;
    const long = await post(url, {
      model: "small",
      max_tokens: 10,
      messages: [{ role: "user", content: words(3_000) }],
    }, claude);
    assert.match(long.json.error.message, /^prompt is too long: \d+ tokens > 2000 maximum$/);
    const both = await post(url, {
      model: "small",
      max_tokens: 1_000,
      messages: [{ role: "user", content: words(800) }],
    }, claude);
    assert.match(
      both.json.error.message,
      /^input length and `max_tokens` exceed context limit: \d+ \+ 1000 > 2000/,
    );
  } finally {
    await server.close();
  }
});

test("Messages: a breakpoint under the minimum caches nothing; above it, writes then reads", async () => {
  const server = await anthropicMessagesServer();
  try {
    const url = `${server.url}/messages`;
    const cc = { type: "ephemeral" };
    const ask = (system: string, text: string) =>
      post(url, {
        model: "claude-sonnet-4-5",
        max_tokens: 100,
        system: [{ type: "text", text: system, cache_control: cc }],
        messages: [{ role: "user", content: text }],
      }, claude);
    const short = await ask("You help.", "hi");
    assert.equal(short.json.usage.cache_creation_input_tokens, 0);
    const again = await ask("You help.", "hi");
    assert.equal(
      again.json.usage.cache_read_input_tokens,
      0,
      "nothing under 1,024 tokens is cached",
    );
    const big = words(1_200);
    const write = await ask(big, "one");
    assert.ok(write.json.usage.cache_creation_input_tokens >= 1_024);
    const read = await ask(big, "two");
    assert.equal(
      read.json.usage.cache_read_input_tokens,
      write.json.usage.cache_creation_input_tokens,
    );
    assert.equal(read.json.usage.cache_creation_input_tokens, 0);
    assert.ok(read.json.usage.input_tokens > 0);
  } finally {
    await server.close();
  }
});

test("Chat Completions: descriptions over 1,024, unanswered calls and images in tool messages are refused", async () => {
  const server = await chatCompletionsServer();
  try {
    const url = `${server.url}/chat/completions`;
    const long = await post(url, {
      model: "llama3.2",
      messages: [{ role: "user", content: "hi" }],
      tools: [{
        type: "function",
        function: { name: "f", description: "x".repeat(1_025), parameters: { type: "object" } },
      }],
    }, bearer);
    assert.equal(long.json.error.code, "string_above_max_length");
    assert.equal(long.json.error.param, "tools[0].function.description");
    const calls = [{ id: "call_1", type: "function", function: { name: "f", arguments: "{}" } }];
    const unanswered = await post(url, {
      model: "llama3.2",
      messages: [{ role: "user", content: "hi" }, {
        role: "assistant",
        content: null,
        tool_calls: calls,
      }, { role: "user", content: "?" }],
    }, bearer);
    assert.match(unanswered.json.error.message, /did not have response messages: call_1/);
    const image = await post(url, {
      model: "llama3.2",
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: null, tool_calls: calls },
        {
          role: "tool",
          tool_call_id: "call_1",
          content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AA" } }],
        },
      ],
    }, bearer);
    assert.equal(image.json.error.code, "invalid_value");
  } finally {
    await server.close();
  }
});

test("Chat Completions: usage is streamed only with stream_options.include_usage, then [DONE]", async () => {
  const server = await chatCompletionsServer();
  try {
    const url = `${server.url}/chat/completions`;
    const messages = [{ role: "user", content: "hi" }];
    const without = await post(url, { model: "llama3.2", messages, stream: true }, bearer);
    assert.doesNotMatch(without.text, /"prompt_tokens"/);
    const withUsage = await post(url, {
      model: "llama3.2",
      messages,
      stream: true,
      stream_options: { include_usage: true },
    }, bearer);
    assert.match(withUsage.text, /"choices":\[\],"usage":\{"prompt_tokens":\d+/);
    assert.match(withUsage.text, /data: \[DONE\]\n\n$/);
    const notStreaming = await post(url, {
      model: "llama3.2",
      messages,
      stream_options: { include_usage: true },
    }, bearer);
    assert.equal(notStreaming.json.error.param, "stream_options");
  } finally {
    await server.close();
  }
});

test("Chat Completions: over the window with the completion counted is context_length_exceeded", async () => {
  const server = await chatCompletionsServer({
    models: { small: { contextTokens: 2_000, maxOutputTokens: 1_000 } },
  });
  try {
    const res = await post(`${server.url}/chat/completions`, {
      model: "small",
      max_tokens: 1_000,
      messages: [{ role: "user", content: words(800) }],
    }, bearer);
    assert.equal(res.status, 400);
    assert.equal(res.json.error.code, "context_length_exceeded");
    assert.match(
      res.json.error.message,
      /However, you requested \d+ tokens \(\d+ in the messages, 1000 in the completion\)/,
    );
  } finally {
    await server.close();
  }
});
