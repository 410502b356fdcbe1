import { test } from "node:test";
import assert from "node:assert/strict";
import { scriptedModel } from "../testing/scripted_model.ts";
import { client, completed, mid, runtime } from "./_test_kit.ts";

const CONTEXT = {
  actions: [{
    name: "set_position",
    description: "Set the controlled object's position",
    parameters: { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
  }],
};

test("silent decisions over Socket.IO: no prose or thinking reaches a client; a duplicate receipt is a session_error", async () => {
  const model = scriptedModel([{
    text: "thinking out loud",
    reasoning: "hidden",
    calls: [{ name: "set_position", args: { x: 3 } }],
  }]);
  const rt = await runtime({ model });
  const a = await client(rt.url);
  const watcher = await client(rt.url);
  try {
    await watcher.ask("assistant_join_session", { session_id: "dec" });
    const decision = await a.ask("assistant_message", {
      id: mid(),
      session_id: "dec",
      output_mode: "host_tools",
      content: "move to 3",
      host_context: CONTEXT,
    });
    assert.equal(decision.ok, true);
    assert.equal(decision.decision, "pending");
    await watcher.until(completed);
    for (const c of [a, watcher]) {
      const names = c.events.map((e) => e.event);
      assert.ok(
        !names.some((n) => /text_delta|thinking_delta|tool_call|tool_result/.test(n)),
        `no prose or previews: ${names}`,
      );
      assert.ok(!JSON.stringify(c.events).includes("thinking out loud"));
      assert.ok(!JSON.stringify(c.events).includes("hidden"));
    }
    const callId = decision.pending_tool_call.call_id;
    const receipt = await a.ask("assistant_message", {
      id: mid(),
      session_id: "dec",
      content: "",
      tool_call_id: callId,
      tool_result: { x: 3 },
    });
    assert.equal(receipt.decision, "completed");
    const before = a.events.length;
    const duplicate = await a.ask("assistant_message", {
      id: mid(),
      session_id: "dec",
      content: "",
      tool_call_id: callId,
      tool_result: { x: 3 },
    });
    assert.equal(duplicate.ok, false);
    const error = await a.until((e) =>
      e.event === "assistant:error" && a.events.indexOf(e) >= before
    );
    assert.equal(error.payload.type, "session");
    assert.equal(error.payload.error_type, "session_error");
    assert.match(error.payload.message, /already recorded/);
    assert.equal(
      model.prompts.length,
      1,
      "the receipt ran no model and the duplicate was not applied",
    );
  } finally {
    a.close();
    watcher.close();
    await rt.close();
  }
});
