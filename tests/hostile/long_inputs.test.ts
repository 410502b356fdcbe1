/**
 * Very long inputs (point 3): long messages are read in bounded work by the
 * offline planner, messages over LIMITS__MAX_CONTENT_CHARS are a 413 naming
 * `content`, bodies over LIMITS__MAX_BODY_BYTES a 413 before parsing.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { client } from "../../server/transports/_test_kit.ts";
import { action, assertRefused, post, startTarget, type Target, underAttack } from "./_kit.ts";

let target: Target;
before(async () => (target = await startTarget({ LIMITS__MAX_BODY_BYTES: "16000000" })));
after(() => target.close());

const selectIssue = action({
  type: "object",
  properties: { number: { type: "integer" } },
  required: ["number"],
}, "select_issue");

test("a 150 KB message repeating an action name is answered in bounded time", async () => {
  const res = await underAttack(target, () =>
    post(target.url, "/api/chat", {
      session_id: "long-150k",
      content: "select issue 42 ".repeat(150_000 / 16),
      host_context: { version: 1, actions: [selectIssue] },
    }));
  assert.equal(res.status, 200);
});

test("a 10 MB message is a 413 naming content", async () => {
  const res = await underAttack(target, () =>
    post(target.url, "/api/chat", {
      session_id: "long-10m",
      content: "select issue 42 ".repeat(10_000_000 / 16),
      host_context: { version: 1, actions: [selectIssue] },
    }));
  assertRefused(res, 413, "content");
});

test("a body over the byte limit is a 413 before it is parsed", async () => {
  const res = await underAttack(
    target,
    () =>
      post(target.url, "/api/chat", { session_id: "long-body", content: "x".repeat(17_000_000) }),
  );
  assertRefused(res, 413, "LIMITS__MAX_BODY_BYTES");
});

test("over Socket.IO a message over the content limit is refused naming content", async () => {
  const socket = await client(target.url);
  try {
    const answer = await underAttack(target, () =>
      socket.ask("assistant_message", {
        session_id: "long-sio",
        content: "a".repeat(1_000_001),
      }));
    assert.equal(answer.ok, false);
    assert.match(answer.error.message, /content/);
  } finally {
    socket.close();
  }
});
