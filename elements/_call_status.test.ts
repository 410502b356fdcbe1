import assert from "node:assert/strict";
import { test } from "node:test";
import type { ToolCallState } from "../client/mod.ts";
import { callStatus } from "./_call_status.ts";

const call = (status: ToolCallState["status"]): ToolCallState => ({
  callId: "c1",
  toolName: "select_issue",
  arguments: { number: 42 },
  category: "host",
  status,
});

test("a completed call says done", () => {
  assert.equal(callStatus(call("completed")), "done");
});

test("a host call waiting for its page and a call in progress both say running", () => {
  assert.equal(callStatus(call("pending")), "running");
  assert.equal(callStatus(call("running")), "running");
});

test("every settled status of the runtime is shown as it is", () => {
  for (const status of ["failed", "cancelled", "superseded", "unknown"] as const) {
    assert.equal(callStatus(call(status)), status);
  }
});

test("a remote action waiting for Apply and a call held for an approver say so", () => {
  assert.equal(callStatus({ ...call("pending"), waitingFor: "confirmation" }), "confirming");
  assert.equal(callStatus({ ...call("pending"), waitingFor: "approval" }), "held");
});

test("a call the policy denied says denied; a declined one says cancelled, not failed", () => {
  assert.equal(callStatus({ ...call("failed"), denied: true }), "denied");
  assert.equal(callStatus({ ...call("cancelled"), declined: true }), "cancelled");
});
