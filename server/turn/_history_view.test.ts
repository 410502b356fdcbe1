import { test } from "node:test";
import assert from "node:assert/strict";
import type { ModelMessage } from "ai";
import { messageTokens } from "../history/estimate.ts";
import { type HistoryState, initialState } from "../history/state.ts";
import { itemsOf, viewOf } from "../history/view.ts";
import { planCompaction } from "../history/compact.ts";
import { SettledMessages } from "../session/_settled.ts";
import type { SessionRecord } from "../session/records.ts";
import { conversation } from "../testing/conversation.ts";
import { historyView } from "./_history_view.ts";

const record = { created_at: "t0", owner_id: "me", message_count: 1_000 } as SessionRecord;

/** What the view must equal: everything built anew, as before the prefix was kept. */
function reference(
  past: ReturnType<typeof conversation>,
  current: { seq: number; steps: ModelMessage[] },
  state: HistoryState,
  fix: (m: ModelMessage) => ModelMessage,
) {
  const items = itemsOf(past, current);
  const messages = viewOf(items, state).map(fix);
  return { items, messages, tokens: messages.reduce((n, m) => n + messageTokens(m), 0) };
}

test("a request's history equals the history built anew, turn after turn, and turns each settled message once", () => {
  const all = conversation(40);
  const settled = new SettledMessages();
  let calls = 0;
  const fix = (m: ModelMessage) => (calls++, m.role === "tool" ? { ...m } : m);
  // The same fix for the reference, without counting.
  const same = (m: ModelMessage) => (m.role === "tool" ? { ...m } : m);
  let state = initialState();
  for (let n = 2; n <= all.length; n += 2) {
    // The session's messages as a turn loads them: the settled prefix kept, then the rest.
    settled.extend("s", record, all.slice(0, n - 1));
    const past = [
      ...settled.prefix("s", record),
      ...all.slice(settled.prefix("s", record).length, n - 1),
    ];
    const current = {
      seq: n - 1,
      steps: (all[n - 1].message as { steps: ModelMessage[] }).steps.slice(0, 2),
    };
    if (n === 60) {
      // A compaction: the view starts over under the new state.
      state = {
        ...planCompaction(itemsOf(past, current), state, {
          fixedTokens: 500,
          targetTokens: 20_000,
          keepTurns: 4,
          protectedResults: 2,
          summaryTokens: 1_000,
        })!.state,
        summary: "earlier turns",
      };
    }
    calls = 0;
    const view = historyView("s", past, current, state, "rules", fix);
    const want = reference(past, current, state, same);
    assert.deepEqual(view.messages, want.messages, `turn ${n / 2}`);
    assert.equal(view.tokens, want.tokens);
    assert.equal(view.items.length, want.items.length);
    assert.equal(view.summary, state.summary !== "");
    // Each request turns only what is new: the last settled message and the running steps,
    // whatever the history's length (and everything once after the compaction).
    if (n !== 60 && n > 2) assert.ok(calls <= 8, `turn ${n / 2}: ${calls} messages turned`);
  }
});

test("another provider's rules, or a history that is not the kept one, builds the view anew", () => {
  const all = conversation(6);
  const settled = new SettledMessages();
  settled.extend("r", record, all);
  const past = settled.prefix("r", record).slice(0, 10);
  const current = { seq: 10, steps: [] };
  const state = initialState();
  let calls = 0;
  const count = (m: ModelMessage) => (calls++, m);
  historyView("r", past, current, state, "a", count);
  const first = calls;
  calls = 0;
  historyView("r", past, current, state, "a", count);
  assert.equal(calls, 0, "all of it kept");
  historyView("r", past, current, state, "b", count);
  assert.equal(calls, first, "other rules: built again");
  calls = 0;
  const other = conversation(6).slice(0, 10);
  new SettledMessages().extend("x", record, other);
  historyView("r", other, current, state, "b", count);
  assert.equal(calls, first, "another history under the same id: built again");
});
