/**
 * Deep nesting (point 6): bodies nested thousands of levels deep, wherever a
 * body is read (HTTP JSON, Socket.IO payloads, AG-UI input), are refused
 * with a 4xx naming the field, before zod or any recursion sees them.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { client } from "../../server/transports/_test_kit.ts";
import {
  action,
  assertRefused,
  nest,
  post,
  splice,
  startTarget,
  type Target,
  underAttack,
} from "./_kit.ts";

let target: Target;
before(async () => (target = await startTarget()));
after(() => target.close());

test("host_context.background nested 5,000 levels is a 422 naming it", async () => {
  const res = await underAttack(target, () =>
    post(
      target.url,
      "/api/chat",
      splice({
        session_id: "deep-bg",
        content: "hi",
        host_context: { version: 1, background: "@@" },
      }, nest(5_000, "a", "1")),
    ));
  assertRefused(res, 422, "host_context.background");
});

test("action parameters nested 5,000 levels are a 422 naming them", async () => {
  const res = await underAttack(target, () =>
    post(
      target.url,
      "/api/chat",
      splice({
        session_id: "deep-params",
        content: "check name",
        host_context: { version: 1, actions: [action("@@")] },
      }, nest(5_000, "properties", "{}")),
    ));
  assertRefused(res, 422, "host_context.actions.0.parameters");
});

test("a tool_result nested 5,000 levels is a 422 naming it", async () => {
  const res = await underAttack(target, () =>
    post(
      target.url,
      "/api/chat",
      splice(
        { session_id: "deep-result", content: "", tool_call_id: "c1", tool_result: "@@" },
        nest(5_000, "x", "[1]"),
      ),
    ));
  assertRefused(res, 422, "tool_result");
});

test("a million brackets are refused without parsing them", async () => {
  const text = "[".repeat(1_000_000) + "]".repeat(1_000_000);
  const res = await underAttack(target, () => post(target.url, "/api/chat", text));
  assertRefused(res, 422, "nested more than 64 levels");
});

test("AG-UI input nested 5,000 levels is a 422", async () => {
  const res = await underAttack(target, () =>
    post(
      target.url,
      "/api/agui",
      splice({
        threadId: "deep-agui",
        runId: "r1",
        messages: [{ id: "m1", role: "user", content: "hi" }],
        state: "@@",
        tools: [],
        context: [],
      }, nest(5_000, "s", "1")),
    ));
  assertRefused(res, 422, "state");
});

test("a Socket.IO payload nested 5,000 levels is refused naming the field; the socket stays usable", async () => {
  const socket = await client(target.url);
  try {
    // Written as a raw Socket.IO packet: socket.io-client's encoder would recurse into the value.
    const payload = splice({
      session_id: "deep-sio",
      content: "hi",
      host_context: { version: 1, background: "@@" },
    }, nest(5_000, "a", "1"));
    const refusal = await underAttack(target, () => {
      socket.socket.io.engine.write(`2/assistant,["assistant_message",${payload}]`);
      return socket.until((e) => e.event === "assistant:error");
    });
    assert.equal(refusal.payload.type, "validation");
    assert.match(refusal.payload.message, /host_context\.background.*nested more than 64/);
    const joined = await socket.ask("assistant_join_session", { session_id: "deep-sio" });
    assert.equal(joined.ok, true);
  } finally {
    socket.close();
  }
});
