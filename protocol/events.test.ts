import assert from "node:assert/strict";
import { test } from "node:test";
import { ERROR_TYPES, isRetryable, RETRYABLE_ERROR_TYPES } from "./error_type.ts";
import * as z from "zod/mini";
import {
  ASSISTANT_NAMESPACE,
  CLIENT_EVENTS,
  eventIssues,
  SERVER_EVENTS,
  type ServerEvents,
} from "./events.ts";
import {
  type Approval,
  PENDING_STATE_KEYS,
  type PendingState,
  pendingStateSchema,
} from "./pending_kinds.ts";

const final = {
  type: "final_response",
  content: null,
  model: "m",
  streamed: true,
  session_id: "s",
  message_id: "a",
} as const;

const approval: Approval = {
  status: "pending",
  request_id: "apr_1",
  reason: "A reviewer must look.",
  expires_at: "2030-01-01T00:00:00Z",
  timeout_seconds: 300,
};

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
      ...final,
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

test("each server event's schema refuses a payload the wire does not allow, naming the field", () => {
  const call = { type: "tool_call", tool_name: "t", arguments: {}, call_id: "c" };
  assert.deepEqual(eventIssues("assistant:tool_call", { ...call, category: "host", seq: 3 }), []);
  assert.match(eventIssues("assistant:tool_call", call).join(), /assistant:tool_call\.category/);
  assert.match(
    eventIssues("assistant:status", { type: "agent_status", status: "paused" }).join(),
    /assistant:status\.status/,
  );
  assert.match(
    eventIssues("assistant:error", { type: "error", message: "m" }).join(),
    /terminal/,
  );
  assert.deepEqual(eventIssues("assistant:nothing", {}), [
    "assistant:nothing is not a server event",
  ]);
  const pending = { tool_name: "t", call_id: "c", arguments: {}, queued: [], category: "remote" };
  assert.deepEqual(
    eventIssues("assistant:final_response", {
      ...final,
      pending_tool_call: { ...pending, waiting_for: "approval", approval },
    }),
    [],
  );
  // A confirmation without its preview, an approval without its hold: refused, field by field.
  assert.match(
    eventIssues("assistant:final_response", {
      ...final,
      pending_tool_call: { ...pending, waiting_for: "confirmation", verb: "delete" },
    }).join(),
    /pending_tool_call\.preview/,
  );
  assert.match(
    eventIssues("assistant:final_response", {
      ...final,
      pending_tool_call: { ...pending, waiting_for: "approval" },
    }).join(),
    /pending_tool_call\.approval/,
  );
});

test("a pending state carries only its own wait's fields, at compile time too", () => {
  const host: PendingState = { category: "host", waiting_for: "host" };
  // @ts-expect-error: a call waiting for its host has no approval.
  const wrong: PendingState = { category: "host", waiting_for: "host", approval };
  assert.equal(z.safeParse(pendingStateSchema, host).success, true);
  assert.deepEqual(z.parse(pendingStateSchema, wrong), host, "what does not belong is dropped");
  assert.deepEqual([...PENDING_STATE_KEYS].sort(), [
    "approval",
    "category",
    "confirmations_received",
    "confirmations_required",
    "preview",
    "verb",
    "waiting_for",
  ]);
});
