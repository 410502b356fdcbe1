import assert from "node:assert/strict";
import { test } from "node:test";
import type { PendingToolCall } from "./_protocol.ts";
import { applyEvent, type ChatMessage, initialState, type StateEvent } from "./state.ts";

const fold = (...events: StateEvent[]) => events.reduce(applyEvent, initialState("s-1"));
const shown = (messages: ChatMessage[]) =>
  messages.map((m) => [m.id, m.role, m.toolCalls.map((c) => `${c.callId} ${c.status}`)]);

const pending: PendingToolCall = {
  call_id: "c1",
  tool_name: "rename_milestone",
  arguments: { id: "m1" },
  category: "remote",
  waiting_for: "confirmation",
  verb: "update",
  preview: "Rename milestone m1",
  confirmations_required: 1,
  confirmations_received: 0,
  queued: [],
};
/** The runtime's announcement of a call renaming `milestone`. */
const announced = (callId: string, milestone: string): StateEvent => [
  "assistant:tool_call",
  {
    type: "tool_call",
    tool_name: "rename_milestone",
    arguments: { id: milestone },
    call_id: callId,
    category: "remote",
  },
];
const stored: ChatMessage[] = [
  { id: "u1", role: "user", content: "rename m1", toolCalls: [] },
  {
    id: "a1",
    role: "assistant",
    content: "",
    toolCalls: [{
      callId: "c1",
      toolName: "rename_milestone",
      category: "remote",
      arguments: { id: "m1" },
      status: "pending",
    }],
  },
];

test("the stored conversation read during a turn shows the turn's message once, before and after its answer names it", () => {
  const before = fold(
    ["user", { id: "u1", content: "rename m1" }],
    ["assistant:status", { type: "agent_status", status: "started" }],
    announced("c1", "m1"),
    // Read while the turn runs: another tab started one, or the connection came back.
    ["history", stored],
  );
  assert.deepEqual(shown(before.messages), [["u1", "user", []], ["a1", "assistant", [
    "c1 running",
  ]]]);
  const after = applyEvent(before, ["assistant:final_response", {
    type: "final_response",
    content: "",
    model: "offline",
    streamed: false,
    session_id: "s-1",
    message_id: "a1",
    pending_tool_call: pending,
  }]);
  assert.deepEqual(shown(after.messages), [["u1", "user", []], ["a1", "assistant", [
    "c1 pending",
  ]]]);
});

test("an unnamed message whose calls the store does not hold stays after the stored ones", () => {
  const live = fold(
    ["user", { id: "u2", content: "rename m2" }],
    announced("c2", "m2"),
    ["history", stored],
  );
  assert.deepEqual(shown(live.messages), [
    ["u1", "user", []],
    ["a1", "assistant", ["c1 pending"]],
    ["u2", "user", []],
    ["", "assistant", ["c2 running"]],
  ]);
});
