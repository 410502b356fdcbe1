import assert from "node:assert/strict";
import { test } from "node:test";
import { parseCancelSession, parseJoinSession } from "./client_payloads.ts";

test("joining a session accepts either spelling and validates the host context", () => {
  const joined = parseJoinSession({ sessionId: "s-1", hostContext: { page: { name: "orders" } } });
  assert.ok(joined.ok);
  assert.deepEqual(joined.value, {
    session_id: "s-1",
    host_context: { version: 1, view: { name: "orders" } },
  });
  const bad = parseJoinSession({ session_id: "s-1", host_context: { view: {} } });
  assert.ok(!bad.ok);
  assert.deepEqual(bad.issues.map((i) => i.path), ["host_context.view.name"]);
});

test("cancelling needs a session id and nothing else", () => {
  assert.ok(parseCancelSession({ session_id: "s-1" }).ok);
  const missing = parseCancelSession({});
  assert.ok(!missing.ok);
  assert.equal(missing.issues[0]?.path, "session_id");
  const extra = parseCancelSession({ session_id: "s-1", message_id: "m" });
  assert.ok(!extra.ok);
  assert.equal(extra.issues[0]?.path, "message_id");
  assert.ok(!parseCancelSession("s-1").ok);
});
