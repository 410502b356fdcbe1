/**
 * Control characters (point 7): session ids outside [A-Za-z0-9._:-]{1,64} are
 * refused naming `session_id` on every transport, and no log line can be
 * forged: every line is one JSON object with its control characters escaped.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { client } from "../../server/transports/_test_kit.ts";
import { assertRefused, post, startTarget, type Target, underAttack } from "./_kit.ts";

let target: Target;
before(async () => (target = await startTarget()));
after(() => target.close());

const FORGED = 's1\r\n{"level":"info","msg":"admin logged in"}\u001b[2K';

test("a session id with CR, LF and an ANSI escape is a 422 naming session_id", async () => {
  const res = await underAttack(
    target,
    () => post(target.url, "/api/chat", { session_id: FORGED, content: "hi" }),
  );
  assertRefused(res, 422, "session_id");
});

test("the same id in a route is a 422 naming session_id", async () => {
  const res = await underAttack(target, async () => {
    const r = await fetch(`${target.url}/api/sessions/${encodeURIComponent(FORGED)}`);
    return { status: r.status, body: await r.json() };
  });
  assertRefused(res, 422, "session_id");
});

test("AG-UI threadId and Socket.IO session ids follow the same rule", async () => {
  const agui = await post(target.url, "/api/agui", {
    threadId: FORGED,
    runId: "r",
    messages: [{ id: "m", role: "user", content: "hi" }],
    tools: [],
    context: [],
  });
  assertRefused(agui, 422, "threadId");
  const socket = await client(target.url);
  try {
    for (const event of ["assistant_join_session", "assistant_message", "assistant_cancel"]) {
      const answer = await socket.ask(event, { session_id: FORGED, content: "hi" });
      assert.equal(answer.ok, false, event);
      assert.match(answer.error.message, /session_id/);
    }
  } finally {
    socket.close();
  }
});

test("ids of every allowed character still work", async () => {
  const res = await post(target.url, "/api/chat", { session_id: "Ab9._:-z", content: "hi" });
  assert.equal(res.status, 200);
});

test("a failure carrying control characters is logged as one escaped JSON line", () => {
  target.logs.length = 0;
  const engine = target.engine;
  engine.options.logger.error(`turn failed for ${FORGED}`, { session_id: FORGED });
  assert.equal(target.logs.length, 1);
  const line = target.logs[0];
  // deno-lint-ignore no-control-regex -- the escape character is what must not reach the log
  assert.doesNotMatch(line, /[\r\n\u001b\u2028\u2029]/);
  assert.equal(JSON.parse(line).session_id, FORGED);
});
