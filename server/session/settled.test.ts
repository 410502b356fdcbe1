// deno-lint-ignore-file no-explicit-any -- reading frozen message parts back
/**
 * The settled prefix a process keeps of a session (`_settled.ts`): user messages and finished
 * assistant messages from seq 0, frozen; never past a running or pending one; forgotten for a
 * session made again under the same id.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { SETTLED, SettledMessages } from "./_settled.ts";
import { memoryStore } from "../kv/memory.ts";
import type { Key, ListOptions } from "../kv/store.ts";
import { wrapStore } from "../testing/wrap_store.ts";
import { SessionRepo } from "./repo.ts";
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

test("two loads of a session at once each answer every message once, also when one extends the kept prefix while the other lists", async () => {
  const inner = memoryStore();
  // The second list waits until the first load has extended the kept prefix.
  let lists = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const store = wrapStore(inner, {
    name: inner.name,
    capabilities: inner.capabilities,
    list: async <T>(prefix: Key, options?: ListOptions) => {
      const n = ++lists;
      const entries = await inner.list<T>(prefix, options);
      if (n === 2) await released;
      return entries;
    },
  });
  const repo = new SessionRepo(store);
  const record = { ...newSessionRecord({ id: "p", roles: [] }, "s"), message_count: 2 };
  assert.ok(
    await repo.commit(record, null, [
      repo.putMessage("s", 0, user(1)),
      repo.putMessage("s", 1, assistant(1, "completed")),
    ]),
  );
  assert.deepEqual((await repo.load("s"))?.messages.map((m) => m.message.id), ["u1", "a1"]);
  const next = { ...record, message_count: 4 };
  const current = await repo.record("s");
  assert.ok(
    await repo.commit(next, current!.version, [
      repo.putMessage("s", 2, user(2)),
      repo.putMessage("s", 3, assistant(2, "completed")),
    ]),
  );
  // Both start from the kept prefix (u1, a1) and list what follows it.
  const waiting = repo.load("s");
  const first = await repo.load("s");
  release();
  const second = await waiting;
  for (const loaded of [first, second]) {
    assert.deepEqual(loaded?.messages.map((m) => m.message.id), ["u1", "a1", "u2", "a2"]);
  }
});
