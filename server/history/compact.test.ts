import { test } from "node:test";
import assert from "node:assert/strict";
import type { ModelMessage } from "ai";
import type { StoredMessage } from "../session/records.ts";
import { OMITTED_NOTE, UNCHANGED_NOTE } from "./blocks.ts";
import { planCompaction } from "./compact.ts";
import { initialState } from "./state.ts";
import { SETTLED } from "../session/_settled.ts";
import { itemsOf, lastContext, lastPageShown, viewOf } from "./view.ts";
import { assistant, conversation, page, user } from "../testing/conversation.ts";

const limits = {
  fixedTokens: 500,
  targetTokens: 6_000,
  keepTurns: 4,
  protectedResults: 2,
  summaryTokens: 1_000,
};

test("compaction summarises the older turns, keeps the last four whole and the latest page in full", () => {
  const items = itemsOf(conversation(10));
  const plan = planCompaction(items, initialState(), limits)!;
  assert.deepEqual(plan.state.from, { seq: 12, step: 0 }, "the cut is the start of turn 7 of 10");
  assert.equal(plan.summarise.length, items.filter((i) => i.pos.seq < 12).length);
  assert.ok(plan.tokens <= limits.targetTokens);
  const view = viewOf(items, { ...plan.state, summary: "earlier turns" });
  assert.match(JSON.stringify(view[0]), /<conversation_summary>/);
  const pages = view.map((m) => JSON.stringify(m)).filter((t) => t.includes("<host_context>"));
  assert.equal(pages.length, 1, "one page in full");
  assert.ok(pages[0].includes("page: 10"), "the latest one");
  assert.ok(view.some((m) => JSON.stringify(m).includes(OMITTED_NOTE.slice(0, 30))));
  assert.equal(lastContext(view), page(10));
});

test("between compactions each request's history is a prefix of the next one's", () => {
  const past = conversation(10);
  const plan = planCompaction(itemsOf(past), initialState(), limits)!;
  const state = { ...plan.state, summary: "s" };
  const before = viewOf(itemsOf(past), state).map((m) => JSON.stringify(m));
  const more = [...past, user(20, `${UNCHANGED_NOTE}\n\nclose 10`), assistant(21, "ok", page(11))];
  const after = viewOf(itemsOf(more), state).map((m) => JSON.stringify(m));
  assert.deepEqual(after.slice(0, before.length), before);
  assert.equal(lastContext(viewOf(itemsOf(more), state)), page(11));
});

test("long tool results before the most recent ones are shortened; the recent ones stay whole", () => {
  const items = itemsOf(conversation(6));
  const plan = planCompaction(items, initialState(), {
    ...limits,
    keepTurns: 6,
    targetTokens: 100_000,
  })!;
  const view = viewOf(items, plan.state);
  const results = view.filter((m) => m.role === "tool").map((m) => JSON.stringify(m));
  assert.match(results[3], /left out to keep the conversation within the model's budget/);
  assert.doesNotMatch(results[4], /left out/);
  assert.ok(!results.some((r) => r.includes("r".repeat(3_000))));
});

test("a session whose page was only in summarised turns gets it in the summary message", () => {
  const past = conversation(8);
  // The last turns show no page at all.
  past.push(user(16, "close 8"), user(17, "close 9"), user(18, "close 10"), user(19, "close 11"));
  const plan = planCompaction(itemsOf(past), initialState(), { ...limits, keepTurns: 2 })!;
  assert.equal(plan.state.current, null);
  const view = viewOf(itemsOf(past), { ...plan.state, summary: "s" });
  assert.match(JSON.stringify(view[0]), /page: 8/);
});

/** Frozen deep and marked settled, as messages read back from the store are. */
function settle<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) settle(child);
    Object.freeze(value);
    SETTLED.add(value);
  }
  return value;
}

test("the last page shown, found without building the view, is the view's at every length and state", () => {
  const past: { seq: number; message: StoredMessage }[] = [];
  for (let t = 0; t < 12; t++) {
    past.push(user(2 * t, `${t % 4 === 0 ? page(t) : UNCHANGED_NOTE}\n\nclose ${t}`));
    past.push(assistant(2 * t + 1, "ok", t % 3 === 0 ? page(100 + t) : `no page ${t}`));
  }
  settle(past);
  const plan = planCompaction(itemsOf(past), initialState(), limits)!;
  const states = [
    initialState(),
    { ...plan.state, summary: "s" },
    { ...plan.state, summary: "s", current: null, context: page(7) },
    initialState(),
  ];
  let pages = 0;
  for (const state of states) {
    // Twice each: the second walk stops at answers the first one remembered.
    for (const _ of [1, 2]) {
      for (let n = 1; n <= past.length; n++) {
        const slice = past.slice(0, n);
        const expected = lastContext(viewOf(itemsOf(slice), state));
        if (expected !== null) pages++;
        assert.equal(lastPageShown(slice, undefined, state), expected, `${n} messages`);
      }
    }
  }
  assert.ok(pages > 100, "most lengths show a page");
  const current = {
    seq: 99,
    steps: [
      { role: "user", content: [{ type: "text", text: page(500) }] },
      { role: "assistant", content: "done" },
    ] as ModelMessage[],
  };
  assert.equal(lastPageShown(past, current, initialState()), page(500));
  assert.equal(
    lastPageShown(past, { seq: 99, steps: [current.steps[1]] }, initialState()),
    lastContext(viewOf(itemsOf(past), initialState())),
  );
});
