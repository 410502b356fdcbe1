import { test } from "node:test";
import assert from "node:assert/strict";
import { harness, ISSUE_CONTEXT } from "./testing/harness.ts";
import { scriptedModel } from "./testing/scripted_model.ts";
import type { PolicyHook, PolicyRequest } from "./tools/policy.ts";

test("every tool call passes the policy hook; a denial goes back to the model and nothing is pended", async () => {
  const asked: PolicyRequest[] = [];
  const policy: PolicyHook = (request) => {
    asked.push(request);
    return { decision: "deny", reason: "Selecting is off today." };
  };
  const model = scriptedModel([{ calls: [{ name: "select_issue", args: { number: 42 } }] }, {
    text: "I may not.",
  }]);
  const h = harness({ model, policy });
  const res = await h.chat({ session_id: "pol", content: "go", host_context: ISSUE_CONTEXT });
  assert.equal(res.body.pending_tool_call, null);
  assert.equal(asked.length, 1);
  assert.equal(asked[0].toolName, "select_issue");
  assert.equal(asked[0].category, "host");
  assert.deepEqual(asked[0].arguments, { number: 42 });
  assert.match(JSON.stringify(model.prompts[1].prompt.at(-1)), /Selecting is off today/);
  await h.close();
});

test("a policy that throws fails closed", async () => {
  const model = scriptedModel([{ calls: [{ name: "select_issue", args: { number: 42 } }] }, {
    text: "refused",
  }]);
  const h = harness({
    model,
    policy: () => {
      throw new Error("policy service down");
    },
  });
  const res = await h.chat({ session_id: "pol2", content: "go", host_context: ISSUE_CONTEXT });
  assert.equal(res.body.pending_tool_call, null);
  const calls = (await h.call("GET", "/api/sessions/pol2/messages")).body.messages[1].tool_calls;
  assert.equal(calls[0].status, "failed");
  assert.match(calls[0].error, /policy service down/);
  await h.close();
});

test("arguments are validated before the policy is asked", async () => {
  let asked = 0;
  const model = scriptedModel([{ calls: [{ name: "select_issue", args: {} }] }, {
    text: "fixing",
  }]);
  const h = harness({ model, policy: () => (asked++, { decision: "allow" }) });
  await h.chat({ session_id: "pol3", content: "go", host_context: ISSUE_CONTEXT });
  assert.equal(asked, 0);
  await h.close();
});
