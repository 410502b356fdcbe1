import assert from "node:assert/strict";
import { test } from "node:test";
import type { HostState, ToolCallState } from "../client/mod.ts";
import { callStatus } from "./_call_status.ts";

const call = (status: ToolCallState["status"], output?: unknown): ToolCallState => ({
  callId: "c1",
  toolName: "select_issue",
  arguments: { number: 42 },
  category: "host",
  status,
  output,
});

const state = (calls: ToolCallState[], patch: Partial<HostState> = {}): HostState => ({
  sessionId: "s",
  connection: "open",
  running: false,
  streamingText: "",
  pending: null,
  error: null,
  messages: [
    { id: "u1", role: "user", content: "select issue 42", toolCalls: [] },
    { id: "a1", role: "assistant", content: "", toolCalls: calls },
  ],
  ...patch,
});

test("completed and failed calls say done and failed", () => {
  assert.equal(callStatus(state([call("completed")]), 1, call("completed")), "done");
  assert.equal(callStatus(state([call("failed", "boom")]), 1, call("failed", "boom")), "failed");
});

test("a failure the SDK could not resolve says its outcome is unknown", () => {
  const c = call("failed", "The outcome of select_issue is unknown: the page was reloaded while it ran.");
  assert.equal(callStatus(state([c]), 1, c), "unknown");
});

test("an open call is running while it is pending or its turn is live", () => {
  const c = call("pending");
  const pending = { tool_name: "select_issue", call_id: "c1", arguments: {}, queued: [] };
  assert.equal(callStatus(state([c], { pending }), 1, c), "running");
  assert.equal(callStatus(state([c], { running: true }), 1, c), "running");
});

test("an open call is superseded by a later user message", () => {
  const c = call("running");
  const s = state([c]);
  s.messages.push({ id: "u2", role: "user", content: "never mind", toolCalls: [] });
  assert.equal(callStatus(s, 1, c), "superseded");
});

test("an open call of a cancelled turn is cancelled; of a failed turn, unknown", () => {
  const c = call("running");
  assert.equal(callStatus(state([c], { error: { message: "The turn was cancelled.", type: "cancelled" } }), 1, c), "cancelled");
  assert.equal(callStatus(state([c], { error: { message: "The provider failed.", type: "provider_error" } }), 1, c), "unknown");
});
