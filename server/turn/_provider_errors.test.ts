import { test } from "node:test";
import assert from "node:assert/strict";
import { APICallError } from "ai";
import { isLengthRefusal, isLostReference, providerErrorFields } from "./_provider_errors.ts";

const api = (statusCode: number, body: unknown) =>
  new APICallError({
    message: "refused",
    url: "http://x",
    requestBodyValues: {},
    statusCode,
    responseBody: JSON.stringify(body),
    data: body,
  });

test("each provider's length refusal is recognised; other refusals are not", () => {
  const openai = api(400, {
    error: {
      message: "Your input exceeds the context window of this model.",
      type: "invalid_request_error",
      param: "input",
      code: "context_length_exceeded",
    },
  });
  const anthropic = api(400, {
    type: "error",
    error: {
      type: "invalid_request_error",
      message: "prompt is too long: 201234 tokens > 200000 maximum",
    },
  });
  const both = api(400, {
    type: "error",
    error: {
      type: "invalid_request_error",
      message: "input length and `max_tokens` exceed context limit: 1 + 2 > 3",
    },
  });
  const chat = api(400, {
    error: {
      message: "This model's maximum context length is 128000 tokens.",
      code: "context_length_exceeded",
    },
  });
  for (const e of [openai, anthropic, both, chat]) assert.equal(isLengthRefusal(e), true);
  assert.equal(isLengthRefusal(api(400, { error: { message: "Unknown parameter: 'x'." } })), false);
  assert.equal(
    isLengthRefusal(api(429, { error: { message: "too many tokens per minute" } })),
    false,
  );
  // OpenAI's stream error event, as the SDK hands it on.
  assert.equal(
    isLengthRefusal({ type: "error", code: "context_length_exceeded", message: "x" }),
    true,
  );
});

test("a reference to a response OpenAI no longer has is recognised", () => {
  assert.equal(
    isLostReference(api(404, { error: { message: "Item with id 'msg_1' not found." } })),
    true,
  );
  assert.equal(
    isLostReference(api(404, { error: { message: "The model does not exist." } })),
    false,
  );
});

test("the log gets the provider's status, kind and own words", () => {
  const fields = providerErrorFields(
    api(401, {
      type: "error",
      error: { type: "authentication_error", message: "invalid x-api-key" },
    }),
  );
  assert.deepEqual(fields, {
    status: 401,
    provider_error: "authentication_error: invalid x-api-key",
  });
});
