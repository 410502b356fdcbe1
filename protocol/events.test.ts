import assert from "node:assert/strict";
import { test } from "node:test";
import { ERROR_TYPES, isRetryable, RETRYABLE_ERROR_TYPES } from "./error_type.ts";
import { ASSISTANT_NAMESPACE, CLIENT_EVENTS, SERVER_EVENTS, type ServerEvents } from "./events.ts";

test("server event names are the wire names clients already listen for", () => {
  assert.deepEqual(Object.values(SERVER_EVENTS).sort(), [
    "assistant:error",
    "assistant:final_response",
    "assistant:status",
    "assistant:text_delta",
    "assistant:thinking_delta",
    "assistant:tool_call",
    "assistant:tool_error",
    "assistant:tool_result",
  ]);
  assert.equal(ASSISTANT_NAMESPACE, "/assistant");
});

test("client event names are the wire names the runtime listens for", () => {
  assert.deepEqual(CLIENT_EVENTS, {
    join_session: "assistant_join_session",
    message: "assistant_message",
    cancel: "assistant_cancel",
  });
});

test("the event map pairs each name with a payload whose type field matches the wire", () => {
  const samples: { [E in keyof ServerEvents]: ServerEvents[E] } = {
    "assistant:status": { type: "agent_status", status: "started", seq: 1 },
    "assistant:text_delta": { type: "text_delta", content: "Hi" },
    "assistant:thinking_delta": { type: "thinking_delta", content: "..." },
    "assistant:tool_call": {
      type: "tool_call",
      tool_name: "t",
      arguments: {},
      call_id: "c",
      category: "host",
    },
    "assistant:tool_result": { type: "tool_result", tool_name: "t", output: 1, call_id: "c" },
    "assistant:tool_error": { type: "tool_error", tool_name: "t", error: "e", call_id: "c" },
    "assistant:final_response": {
      type: "final_response",
      content: null,
      model: "m",
      streamed: true,
      session_id: "s",
      message_id: "a",
      decision: "pending",
      pending_tool_call: {
        tool_name: "t",
        call_id: "c",
        arguments: {},
        queued: [],
        category: "host",
        waiting_for: "host",
      },
    },
    "assistant:error": {
      type: "error",
      message: "m",
      terminal: true,
      retry_allowed: false,
      error_type: "usage_limit",
    },
  };
  for (const name of Object.values(SERVER_EVENTS)) assert.ok(samples[name].type);
});

test("exactly the four transient error types may be retried", () => {
  assert.equal(ERROR_TYPES.length, 13);
  assert.deepEqual(ERROR_TYPES.filter(isRetryable), [...RETRYABLE_ERROR_TYPES]);
  assert.deepEqual([...RETRYABLE_ERROR_TYPES], [
    "rate_limit",
    "provider_error",
    "connection_error",
    "timeout",
  ]);
  assert.equal(isRetryable(undefined), false);
});
