import { test } from "node:test";
import assert from "node:assert/strict";
import { reportResults } from "./_answer.ts";

const ok = (toolName: string, value: unknown) => ({
  toolName,
  ok: true,
  text: JSON.stringify(value),
});

test("calls of one action that worked one after another are one sentence, notes after it", () => {
  assert.equal(
    reportResults([
      ok("close_task", { id: 9, title: "Write the launch post", column: "done" }),
      ok("close_task", {
        id: 8,
        title: "Fix the upload timeout",
        column: "done",
        note: "#8 is hidden",
      }),
    ]),
    "Done: close task (#9 Write the launch post, column done; #8 Fix the upload timeout, column done). #8 is hidden.",
  );
});

test("another action, or a failure between them, starts a sentence of its own", () => {
  assert.equal(
    reportResults([
      ok("close_task", { id: 9, title: "Write the launch post" }),
      ok("pick_task", { id: 8, title: "Fix the upload timeout" }),
      { toolName: "close_task", ok: false, text: "Error: the board is read-only" },
      ok("close_task", { id: 5, title: "Rotate the API keys" }),
    ]),
    "Done: close task (#9 Write the launch post). Done: pick task (#8 Fix the upload timeout). " +
      "“Close task” did not work. Done: close task (#5 Rotate the API keys).",
  );
});

test("a call that worked without a result to name is said alone, with its note", () => {
  assert.equal(
    reportResults([
      ok("refresh_board", { note: "The board is up to date" }),
      ok("refresh_board", {}),
    ]),
    "Done: refresh board. The board is up to date. Done: refresh board.",
  );
});

test("a note said once is not said again", () => {
  const note = "#8 is hidden by the current filters";
  assert.equal(
    reportResults([
      ok("close_task", { id: 8, title: "Fix the upload timeout", note }),
      ok("pick_task", { id: 8, title: "Fix the upload timeout", note }),
      ok("refresh_board", { note }),
    ]),
    "Done: close task (#8 Fix the upload timeout). #8 is hidden by the current filters. " +
      "Done: pick task (#8 Fix the upload timeout). Done: refresh board.",
  );
});
