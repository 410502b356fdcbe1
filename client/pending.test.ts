import assert from "node:assert/strict";
import { test } from "node:test";
import type { PendingAction, PendingToolCall } from "./_protocol.ts";
import { pendingCall, waitingFor } from "./pending.ts";
import { applyEvent, type HostState, initialState, type StateEvent } from "./state.ts";

const fold = (...events: StateEvent[]) => events.reduce(applyEvent, initialState("s-1"));
const calls = (state: HostState) => state.messages.flatMap((m) => m.toolCalls);

const preview: PendingToolCall = {
  tool_name: "delete_task",
  call_id: "rc-1",
  arguments: { id: "task_789" },
  queued: [],
  category: "remote",
  waiting_for: "confirmation",
  verb: "delete",
  preview: "Delete the task “Ship it”",
  confirmations_required: 2,
  confirmations_received: 0,
};
const final = (pending: PendingToolCall | null): StateEvent => [
  "assistant:final_response",
  {
    type: "final_response",
    content: "",
    model: "m",
    streamed: true,
    session_id: "s-1",
    message_id: "a-1",
    pending_tool_call: pending,
  },
];
const remoteCall: StateEvent = ["assistant:tool_call", {
  type: "tool_call",
  tool_name: "delete_task",
  arguments: { id: "task_789" },
  call_id: "rc-1",
  category: "remote",
  verb: "delete",
}];
const approval = {
  status: "pending" as const,
  request_id: "apr_1",
  reason: "Needs a look.",
  expires_at: "2030-01-01T00:00:00Z",
  timeout_seconds: 300,
};

test("who a pending call waits for, also from a runtime that predates waiting_for", () => {
  assert.equal(waitingFor(preview), "confirmation");
  assert.equal(waitingFor({ category: "remote" }), "confirmation");
  assert.equal(waitingFor({ category: "host", approval }), "approval");
  assert.equal(waitingFor({}), "host");
  assert.equal(waitingFor({ category: "remote", waiting_for: "approval" }), "approval");
});

test("a stored pending_action reads back as the pending call it was", () => {
  const { call_id, ...rest } = preview;
  const stored: PendingAction = {
    ...rest,
    tool_call_id: call_id,
    assistant_message_id: "a-1",
    confirmations_received: 1,
  };
  assert.deepEqual(pendingCall(stored), { ...preview, confirmations_received: 1 });
});

test("a remote delete waits for the user with its preview; the first apply counts one", () => {
  let state = fold(remoteCall, final(preview));
  assert.equal(state.pending, preview);
  const [call] = calls(state);
  assert.equal(call.status, "pending");
  assert.equal(call.waitingFor, "confirmation");
  assert.equal(call.preview, "Delete the task “Ship it”");
  assert.deepEqual(call.confirmations, { required: 2, received: 0 });
  state = applyEvent(state, ["answer", { callId: "rc-1", decision: "apply" }]);
  assert.equal(calls(state)[0].answering, "apply");
  state = applyEvent(state, final({ ...preview, confirmations_received: 1 }));
  assert.deepEqual(calls(state)[0].confirmations, { required: 2, received: 1 });
  assert.equal(calls(state)[0].answering, undefined, "the runtime's answer settles the sending");
});

test("an answer that could not be sent leaves the preview open", () => {
  let state = fold(remoteCall, final(preview), ["answer", { callId: "rc-1", decision: "cancel" }]);
  state = applyEvent(state, ["answer", { callId: "rc-1" }]);
  assert.equal(calls(state)[0].answering, undefined);
  assert.equal(calls(state)[0].status, "pending");
});

test("a declined call is cancelled, not failed; a denied one is failed with its reason", () => {
  const declined = fold(remoteCall, final(preview), ["assistant:tool_error", {
    type: "tool_error",
    tool_name: "delete_task",
    call_id: "rc-1",
    error: "The user declined.",
    declined: true,
  }]);
  assert.equal(calls(declined)[0].status, "cancelled");
  assert.equal(calls(declined)[0].declined, true);
  const denied = fold(["assistant:tool_error", {
    type: "tool_error",
    tool_name: "run_shell",
    call_id: "d-1",
    error: "Blocked by shell-safety.",
    policy: "deny",
  }]);
  assert.deepEqual(
    [calls(denied)[0].status, calls(denied)[0].denied, calls(denied)[0].output],
    ["failed", true, "Blocked by shell-safety."],
  );
});

test("a held call waits for approval, then as a host call once released", () => {
  const held: StateEvent = ["assistant:tool_call", {
    type: "tool_call",
    tool_name: "close_issue",
    arguments: { number: 7 },
    call_id: "h-1",
    category: "host",
    approval,
  }];
  const pending = {
    tool_name: "close_issue",
    call_id: "h-1",
    arguments: { number: 7 },
    queued: [],
    category: "host" as const,
  };
  let state = fold(held, final({ ...pending, waiting_for: "approval", approval }));
  assert.equal(calls(state)[0].waitingFor, "approval");
  assert.equal(calls(state)[0].approval?.reason, "Needs a look.");
  state = applyEvent(state, final({ ...pending, waiting_for: "host" }));
  assert.equal(calls(state)[0].waitingFor, undefined);
  assert.equal(calls(state)[0].status, "pending");
});

test("result cards come with the tool result's display", () => {
  const card = { title: "RTX 4070", url: "https://shop.example.com/p/4070" };
  const state = fold(["assistant:tool_call", {
    type: "tool_call",
    tool_name: "search",
    arguments: {},
    call_id: "g-1",
    category: "remote",
    verb: "get",
  }], ["assistant:tool_result", {
    type: "tool_result",
    tool_name: "search",
    output: { results: [] },
    call_id: "g-1",
    display: [card],
  }]);
  assert.deepEqual(calls(state)[0].display, [card]);
});

test("a new message supersedes an open preview and closes it", () => {
  const state = fold(remoteCall, final(preview), ["user", { id: "m-2", content: "never mind" }]);
  assert.equal(calls(state)[0].status, "superseded");
  assert.equal(state.pending, null);
});
