// deno-lint-ignore-file no-explicit-any -- reading frozen message parts back
/**
 * The settled prefix a process keeps of a session (`_settled.ts`): user messages and finished
 * assistant messages from seq 0, frozen; never past a running or pending one; forgotten for a
 * session made again under the same id.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { SETTLED, SettledMessages } from "./_settled.ts";
import { newSessionRecord } from "./create.ts";
import type { StoredMessage } from "./records.ts";

const user = (turn: number): StoredMessage => ({
  role: "user",
  id: `u${turn}`,
  turn,
  created_at: "2026-12-02T00:00:00.000Z",
  content: "hi",
  message_type: "standard",
  attachments: [],
  model: { role: "user", content: "hi" },
});
const assistant = (turn: number, status: "completed" | "pending"): StoredMessage => ({
  role: "assistant",
  id: `a${turn}`,
  turn,
  created_at: "2026-12-02T00:00:00.000Z",
  output_mode: "text",
  steps: [{ role: "assistant", content: [{ type: "text", text: "ok" }] }],
  calls: [],
  text: "ok",
  status,
  model: "scripted",
});

test("the settled prefix stops at the first pending message, frozen deep; a new session by the id starts over", () => {
  const settled = new SettledMessages();
  const record = { ...newSessionRecord({ id: "p", roles: [] }, "s"), message_count: 4 };
  const messages = [user(1), assistant(1, "completed"), user(2), assistant(2, "pending")]
    .map((message, seq) => ({ seq, message }));
  assert.deepEqual(settled.prefix("s", record), []);
  settled.extend("s", record, messages);
  const kept = settled.prefix("s", record);
  assert.equal(kept.length, 3, "the pending assistant message is read from the store each time");
  assert.ok(Object.isFrozen(kept[1].message) && Object.isFrozen((kept[1].message as any).steps[0]));
  assert.ok(
    SETTLED.has((kept[0].message as any).model),
    "the model message may skip the SDK's check",
  );
  assert.throws(() => {
    (kept[0].message as any).content = "changed";
  }, TypeError);
  assert.ok(!Object.isFrozen(messages[3].message), "the pending one stays the caller's to change");
  const again = { ...record, created_at: "2026-12-03T00:00:00.000Z" };
  assert.deepEqual(settled.prefix("s", again), [], "another session under the same id");
});
