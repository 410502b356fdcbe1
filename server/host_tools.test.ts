import { test } from "node:test";
import assert from "node:assert/strict";
import { harness } from "./testing/harness.ts";
import { scriptedModel, type ScriptedStep } from "./testing/scripted_model.ts";
import type { SessionEvent } from "./events/hub.ts";

const CONTEXT = {
  actions: [
    {
      name: "set_position",
      description: "Set the controlled object's position",
      parameters: {
        type: "object",
        properties: { x: { type: "number" } },
        required: ["x"],
        additionalProperties: false,
      },
    },
    { name: "wave", description: "Wave a hand", parameters: { type: "object", properties: {} } },
  ],
  view: { name: "scene", data: { current_x: 0, revision: 3 } },
};

function decide(steps: ScriptedStep[]) {
  const model = scriptedModel(steps);
  const h = harness({ model });
  const events: SessionEvent[] = [];
  const watch = async (sid: string) =>
    (await h.app.engine()).hub.subscribe(sid, (e) => events.push(e));
  const ask = (sid: string, extra: Record<string, unknown> = {}) =>
    h.chat({
      id: `${sid}-1`,
      session_id: sid,
      output_mode: "host_tools",
      content: "User: move to 3",
      host_context: CONTEXT,
      ...extra,
    });
  return { model, h, events, watch, ask };
}

test("hold alone decides hold with no content and nothing pending", async () => {
  const { h, ask } = decide([{ calls: [{ name: "hold", args: {} }] }]);
  const res = await ask("h1");
  assert.equal(res.status, 200);
  assert.equal(res.body.content, null);
  assert.equal(res.body.decision, "hold");
  assert.equal(res.body.pending_tool_call, null);
  assert.equal((await h.call("GET", "/api/sessions/h1")).body.has_pending_tool_call, false);
  await h.close();
});

for (const order of [["hold", "set_position"], ["set_position", "hold"]]) {
  test(`hold wins over a co-emitted action (${order.join(" then ")}) and the action is never admitted`, async () => {
    const { h, ask } = decide([{
      calls: order.map((name) => ({ name, args: name === "hold" ? {} : { x: 3 } })),
    }]);
    const res = await ask("h2");
    assert.equal(res.body.decision, "hold");
    assert.equal(res.body.pending_tool_call, null);
    const calls = (await h.call("GET", "/api/sessions/h2/messages")).body.messages[1].tool_calls;
    assert.equal(
      calls.find((c: { tool_name: string }) => c.tool_name === "set_position").status,
      "cancelled",
    );
    await h.close();
  });
}

test("one action decides pending with exactly one call and an empty queue", async () => {
  const { h, ask } = decide([{ calls: [{ name: "set_position", args: { x: 3 } }] }]);
  const res = await ask("p1");
  assert.equal(res.body.decision, "pending");
  assert.equal(res.body.content, null);
  assert.equal(res.body.pending_tool_call.tool_name, "set_position");
  assert.deepEqual(res.body.pending_tool_call.arguments, { x: 3 });
  assert.deepEqual(res.body.pending_tool_call.queued, []);
  await h.close();
});

test("two proposed actions fail the turn with invalid_decision and leave nothing pending", async () => {
  const { h, ask, watch, events } = decide([{
    calls: [{ name: "set_position", args: { x: 3 } }, { name: "wave", args: {} }],
  }]);
  await watch("two");
  const res = await ask("two");
  assert.equal(res.body.error_type, "invalid_decision");
  assert.equal(res.body.pending_tool_call, null);
  assert.equal((await h.call("GET", "/api/sessions/two")).body.has_pending_tool_call, false);
  const error = events.find((e) => e.event === "assistant:error");
  assert.equal(error?.payload.type === "error" && error.payload.error_type, "invalid_decision");
  await h.close();
});

test("a receipt completes silently without a model run, also when it omits output_mode; failed is recorded", async () => {
  for (const outcome of ["success", "failed"] as const) {
    const sid = `r-${outcome}`;
    const { h, ask, model } = decide([{ calls: [{ name: "set_position", args: { x: 3 } }] }, {
      text: "SHOULD NOT RUN",
    }]);
    const first = await ask(sid);
    const receipt = await h.chat({
      id: `${sid}-2`,
      session_id: sid,
      content: "",
      tool_call_id: first.body.pending_tool_call.call_id,
      tool_result: { x: 3 },
      tool_outcome: outcome,
    });
    assert.equal(receipt.status, 200);
    assert.equal(receipt.body.decision, "completed");
    assert.equal(receipt.body.content, null);
    assert.equal(model.prompts.length, 1, "no model ran for the receipt");
    const message = (await h.call("GET", `/api/sessions/${sid}/messages`)).body.messages[1];
    assert.equal(message.tool_calls[0].status, outcome === "failed" ? "failed" : "completed");
    const dup = await h.chat({
      id: `${sid}-3`,
      session_id: sid,
      content: "",
      tool_call_id: first.body.pending_tool_call.call_id,
      tool_result: 1,
    });
    assert.equal(dup.status, 409, "a duplicate receipt is refused");
    await h.close();
  }
});

test("no text, thinking or tool-preview event reaches a client and no prose reaches the store", async () => {
  const { h, ask, watch, events } = decide([{
    text: "Let me think aloud",
    reasoning: "secret thoughts",
    calls: [{ name: "set_position", args: { x: 3 } }],
  }]);
  await watch("quiet");
  const res = await ask("quiet");
  assert.equal(res.body.decision, "pending");
  const names = events.map((e) => e.event);
  assert.deepEqual(names, ["assistant:status", "assistant:final_response", "assistant:status"]);
  const stored = JSON.stringify((await h.call("GET", "/api/sessions/quiet/messages")).body);
  assert.ok(!stored.includes("think aloud") && !stored.includes("secret"), "no prose stored");
  const engine = await h.app.engine();
  const raw = JSON.stringify(await engine.store.list(["message", "quiet"]));
  assert.ok(
    !raw.includes("think aloud") && !raw.includes("secret thoughts"),
    "no prose in the store itself",
  );
  await h.close();
});

test("prose is removed from a cancelled decision's stored message too", async () => {
  const { h, ask } = decide([{ text: "narration", delayMs: 5_000 }]);
  const turn = ask("cx");
  await h.started("cx");
  await h.call("POST", "/api/chat/cx/cancel");
  const res = await turn;
  assert.equal(res.body.error_type, "cancelled");
  const engine = await h.app.engine();
  assert.ok(!JSON.stringify(await engine.store.list(["message", "cx"])).includes("narration"));
  await h.close();
});

test("cancel does not revoke an idle pending action", async () => {
  const { h, ask } = decide([{ calls: [{ name: "set_position", args: { x: 3 } }] }]);
  const first = await ask("idle");
  const cancel = await h.call("POST", "/api/chat/idle/cancel");
  assert.deepEqual(cancel.body, { cancelled: false });
  const receipt = await h.chat({
    session_id: "idle",
    content: "",
    tool_call_id: first.body.pending_tool_call.call_id,
    tool_result: "ok",
  });
  assert.equal(receipt.body.decision, "completed");
  await h.close();
});

test("the offline model decides: a named action is proposed, nothing named holds", async () => {
  const h = harness({ model: "offline" });
  const named = await h.chat({
    session_id: "o1",
    output_mode: "host_tools",
    content: "set position 5",
    host_context: CONTEXT,
  });
  assert.equal(named.body.decision, "pending");
  assert.deepEqual(named.body.pending_tool_call.arguments, { x: 5 });
  const none = await h.chat({
    session_id: "o2",
    output_mode: "host_tools",
    content: "how are you",
    host_context: CONTEXT,
  });
  assert.equal(none.body.decision, "hold");
  await h.close();
});

test("a host_tools turn offers only the context's actions and hold", async () => {
  const seen: string[][] = [];
  const model = scriptedModel((o) => {
    seen.push((o.tools ?? []).map((t) => t.name).sort());
    return { calls: [{ name: "hold", args: {} }] };
  });
  const h = harness({
    model,
    hostTools: [{
      name: "configured",
      description: "c",
      parameters: { type: "object", properties: {} },
    }],
    backendTools: [{
      name: "backend",
      description: "b",
      parameters: { type: "object", properties: {} },
      execute: () => 1,
    }],
  });
  await h.chat({
    session_id: "only",
    output_mode: "host_tools",
    content: "x",
    host_context: CONTEXT,
  });
  assert.deepEqual(seen[0], ["hold", "set_position", "wave"]);
  await h.close();
});
