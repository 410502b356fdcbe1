import { test } from "node:test";
import assert from "node:assert/strict";
import { harness } from "./testing/harness.ts";

test("?missing=null answers 200 null for a session not started yet, and the session once it is", async () => {
  const h = harness();
  const missing = await h.call("GET", "/api/sessions/not-yet?missing=null");
  assert.equal(missing.status, 200);
  assert.equal(missing.body, null);
  // Without the parameter the route keeps its contract: an unknown session is a 404.
  assert.equal((await h.call("GET", "/api/sessions/not-yet")).status, 404);
  await h.chat({ session_id: "not-yet", content: "hello" });
  const found = await h.call("GET", "/api/sessions/not-yet?missing=null");
  assert.equal(found.status, 200);
  assert.equal(found.body.session_id, "not-yet");
  assert.equal(found.body.message_count, 2);
  await h.close();
});

test("?missing=null answers another principal's session as an unknown one, and refuses a malformed id", async () => {
  const h = harness({
    access: {
      authenticate: (req: Request) => ({ id: req.headers.get("x-user") ?? "nobody", roles: [] }),
    } as never,
  });
  await h.chat({ session_id: "ann-1", content: "hello" }, { "x-user": "ann" });
  const other = await h.call("GET", "/api/sessions/ann-1?missing=null", undefined, {
    "x-user": "bob",
  });
  const unknown = await h.call("GET", "/api/sessions/nobody-1?missing=null", undefined, {
    "x-user": "bob",
  });
  assert.deepEqual([other.status, other.body], [200, null]);
  assert.deepEqual([unknown.status, unknown.body], [200, null], "the same answer for both");
  // The session itself stays closed to Bob.
  const messages = await h.call("GET", "/api/sessions/ann-1/messages", undefined, {
    "x-user": "bob",
  });
  assert.equal(messages.status, 403);
  const bad = await h.call("GET", `/api/sessions/${"x".repeat(65)}?missing=null`);
  assert.equal(bad.status, 422);
  await h.close();
});
