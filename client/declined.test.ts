import assert from "node:assert/strict";
import { test } from "node:test";
import { declinedResult, isDeclined } from "./_declined.ts";
import type { PendingToolCall } from "./_protocol.ts";
import { applyEvent, type HostState, initialState, type StateEvent } from "./state.ts";

const fold = (...events: StateEvent[]) => events.reduce(applyEvent, initialState("s-1"));
const calls = (state: HostState) =>
  state.messages.flatMap((m) =>
    m.toolCalls.map((c) => ({ status: c.status, waiting: c.waitingFor, declined: !!c.declined }))
  );

const call: PendingToolCall = {
  tool_name: "create_issue",
  call_id: "h-1",
  arguments: { title: "Dark mode" },
  queued: [],
  category: "host",
  waiting_for: "host",
};
const hostCall: StateEvent = ["assistant:tool_call", {
  type: "tool_call",
  tool_name: "create_issue",
  arguments: { title: "Dark mode" },
  call_id: "h-1",
  category: "host",
}];

test("the decline sentence names the action and is recognised, and nothing else is", () => {
  assert.equal(
    declinedResult("create_issue"),
    "The user cancelled create_issue; nothing was changed.",
  );
  assert.ok(isDeclined(declinedResult("create_issue")));
  assert.ok(!isDeclined("create_issue failed: the server said no"));
  assert.ok(!isDeclined({ declined: true }));
});

test("a host call waiting for the user's confirmation is not shown as running", () => {
  const asking = fold(hostCall, ["action:confirm", { call }]);
  assert.deepEqual(calls(asking), [{
    status: "pending",
    waiting: "confirmation",
    declined: false,
  }]);
  assert.equal(asking.pending?.call_id, "h-1");
  const running = applyEvent(asking, ["action:start", { call }]);
  assert.deepEqual(calls(running), [{ status: "running", waiting: undefined, declined: false }]);
});

test("a declined host call is cancelled, not failed: live, as the runtime echoes it, and from the store", () => {
  const live = fold(hostCall, ["action:confirm", { call }], ["action:end", {
    call,
    outcome: "declined",
    result: declinedResult("create_issue"),
  }]);
  assert.deepEqual(calls(live), [{ status: "cancelled", waiting: undefined, declined: true }]);
  assert.equal(live.pending, null);

  const echoed = fold(hostCall, ["assistant:tool_error", {
    type: "tool_error",
    tool_name: "create_issue",
    call_id: "h-1",
    error: declinedResult("create_issue"),
  }]);
  assert.deepEqual(calls(echoed), [{ status: "cancelled", waiting: undefined, declined: true }]);

  const stored = fold(["history", [{
    id: "a-1",
    role: "assistant",
    content: "",
    toolCalls: [{
      callId: "h-1",
      toolName: "create_issue",
      arguments: {},
      category: "host",
      status: "failed",
      output: declinedResult("create_issue"),
    }],
  }]]);
  assert.deepEqual(calls(stored), [{ status: "cancelled", waiting: undefined, declined: true }]);
});

test("a real failure stays a failure", () => {
  const failed = fold(hostCall, ["action:end", {
    call,
    outcome: "failed",
    result: "create_issue failed: a new issue needs a title",
  }]);
  assert.deepEqual(calls(failed), [{ status: "failed", waiting: undefined, declined: false }]);
});
