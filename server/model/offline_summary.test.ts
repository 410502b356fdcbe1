import { test } from "node:test";
import assert from "node:assert/strict";
import { offlineSummary, type TranscriptEntry } from "./offline_summary.ts";

const entries = (n: number): TranscriptEntry[] =>
  Array.from({ length: n }, (_, i) => [
    { kind: "user" as const, text: `close issue ${i}` },
    {
      kind: "call" as const,
      name: "close_issue",
      arguments: { number: i },
      outcome: "completed: {}",
    },
    { kind: "assistant" as const, text: `Closed ${i}.` },
  ]).flat();

test("the offline summary is one line a turn: asked, did, said", () => {
  assert.equal(
    offlineSummary("", entries(1), 2_000),
    "Asked: close issue 0. Did: close_issue (number 0): completed: {}. Said: Closed 0.",
  );
});

test("the same turns always give the same bytes, and the newest lines are kept within the limit", () => {
  const a = offlineSummary("Earlier: a.", entries(200), 3_000);
  assert.equal(a, offlineSummary("Earlier: a.", entries(200), 3_000));
  assert.ok(a.length <= 3_000);
  assert.match(a, /^\(\d+ earlier lines left out\.\)/);
  assert.match(a, /close issue 199/);
  assert.doesNotMatch(a, /close issue 0\./);
});
