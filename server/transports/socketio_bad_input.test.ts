import { test } from "node:test";
import assert from "node:assert/strict";
import { scriptedModel } from "../testing/scripted_model.ts";
import { client, completed, mid, runtime } from "./_test_kit.ts";

test("bad input gets one assistant:error of the documented type, and the connection stays usable", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "still here" }]) });
  const a = await client(rt.url);
  const cases: [string, unknown, string, RegExp][] = [
    ["assistant_message", "hello", "validation", /message body must be a JSON object/],
    ["assistant_message", { id: mid(), content: "hi" }, "validation", /session_id is required/],
    [
      "assistant_message",
      { id: mid(), session_id: "b1", content: "hi", tool_outcome: "failed" },
      "validation",
      /tool_outcome was sent without tool_call_id/,
    ],
    ["assistant_join_session", 5, "validation", /must be a JSON object/],
    ["assistant_join_session", {}, "validation", /session_id is required/],
    [
      "assistant_join_session",
      { session_id: "b1", host_context: { version: 1, colour: "red" } },
      "validation",
      /host_context\.colour/,
    ],
    [
      "assistant_join_session",
      { session_id: "b1", host_context: { version: 2 } },
      "validation",
      /version 1/,
    ],
    [
      "assistant_join_session",
      { session_id: "b1", after: -3 },
      "validation",
      /after must be a non-negative integer/,
    ],
    [
      "assistant_join_session",
      { session_id: "b1", after: "soon" },
      "validation",
      /after must be a non-negative integer/,
    ],
    ["assistant_dance", { session_id: "b1" }, "validation", /assistant_dance.*not known/],
    ["assistant_cancel", {}, "validation", /session_id is required/],
    ["assistant_cancel", { session_id: "nobody" }, "session", /nobody does not exist/],
    [
      "assistant_message",
      { id: mid(), session_id: "b1", content: "", tool_call_id: "call_1", tool_result: 1 },
      "session",
      /does not exist/,
    ],
  ];
  for (const [event, payload, type, message] of cases) {
    const before = a.events.length;
    const answer = await a.ask(event, payload);
    assert.equal(answer.ok, false, `${event} ${JSON.stringify(payload)} is refused`);
    assert.equal(
      answer.error.type,
      type,
      `${event} ${JSON.stringify(payload)}: ${answer.error.message}`,
    );
    assert.match(answer.error.message, message);
    assert.equal(a.events.length, before + 1, "exactly one assistant:error");
    assert.equal(a.events.at(-1)!.event, "assistant:error");
    assert.equal(
      a.events.at(-1)!.payload.seq,
      undefined,
      "a transport error is not a session event",
    );
  }
  assert.equal(
    await rt.engine.repo.record("b1"),
    null,
    "nothing was stored for the refused requests",
  );
  assert.equal(await rt.engine.repo.record("nobody"), null);
  const answer = await a.ask("assistant_message", { id: mid(), session_id: "b1", content: "hi" });
  assert.equal(answer.content, "still here");
  await a.until(completed);
  a.close();
  await rt.close();
});

test("a refused request without an acknowledgement still gets its assistant:error", async () => {
  const rt = await runtime();
  const a = await client(rt.url);
  a.socket.emit("assistant_message", [1, 2, 3]);
  a.socket.emit("assistant_join_session");
  a.socket.emit("whatever");
  await a.until(() => a.events.length === 3);
  assert.deepEqual(a.events.map((e) => [e.event, e.payload.type]), [
    ["assistant:error", "validation"],
    ["assistant:error", "validation"],
    ["assistant:error", "validation"],
  ]);
  assert.ok(a.events.some((e) => /"whatever" is not known/.test(e.payload.message)));
  a.close();
  await rt.close();
});

test("a repeated message id is a session error and leaves the session usable", async () => {
  const rt = await runtime({ model: scriptedModel([{ text: "ok" }]) });
  const a = await client(rt.url);
  const id = mid();
  assert.equal(
    (await a.ask("assistant_message", { id, session_id: "dup", content: "one" })).ok,
    true,
  );
  const again = await a.ask("assistant_message", { id, session_id: "dup", content: "one" });
  assert.equal(again.error.type, "session");
  assert.match(again.error.message, /already used/);
  assert.equal(
    (await a.ask("assistant_message", { id: mid(), session_id: "dup", content: "two" })).ok,
    true,
  );
  a.close();
  await rt.close();
});
