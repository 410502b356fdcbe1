import assert from "node:assert/strict";
import { test } from "node:test";
import { confirmLabel, noticeText, plainReason, summarize, titleOf } from "./_words.ts";

test("reasons in people's words: no tool name, schema pattern or policy instruction", () => {
  const cases: [string, string, RegExp][] = [
    [
      "Invalid arguments for create_milestone: due: due must match the pattern ^\\d{4}-\\d{2}-\\d{2}$",
      "create_milestone",
      /^“due” is not in the expected form\.$/,
    ],
    [
      "delete_milestone could not be completed: the tool server answered 404.",
      "delete_milestone",
      /^it was not found\.$/,
    ],
    [
      "Tool 'create_issue' requires approval. Request approval before proceeding.",
      "create_issue",
      /^This needs a person's approval\.$/,
    ],
    ["select_issue failed: there is no issue #999", "select_issue", /^there is no issue #999\.$/],
    ["Invalid input: number is required", "select_issue", /^“number” is missing\.$/],
    // What the SDK's own check of a call's arguments says (protocol/json_schema.ts).
    ["title: title is required in the value; add it.", "create_issue", /^“title” is missing\.$/],
    ["content is required; add it as a string.", "create_issue", /^“content” is missing\.$/],
  ];
  for (const [text, name, expected] of cases) {
    const plain = plainReason(text, [name]);
    assert.match(plain, expected);
    assert.doesNotMatch(plain, new RegExp(`${name}|\\^|\\$|Request approval`));
  }
});

test("lists and records are summarised by their names, never [object Object]", () => {
  assert.equal(
    summarize({ milestones: [{ id: "m1", title: "Beta" }, { id: "m2", title: "Launch" }] }),
    "milestones: Beta, Launch",
  );
  assert.equal(summarize({ created: { id: "m4", title: "GA" } }), "created: GA");
  // A result about one numbered item names it as the list does, and not its fields again.
  assert.equal(
    summarize({ number: 42, title: "Fix login", state: "closed" }),
    "#42 Fix login, state: closed",
  );
  assert.equal(summarize([{ a: 1 }, { b: 2 }]), "2 items");
  assert.doesNotMatch(summarize({ x: [{}, {}], y: { z: 1 } }), /object Object/);
});

test("a result's note for a person is a sentence of its own, not one of its fields", () => {
  assert.equal(
    summarize({
      number: 42,
      title: "Fix login",
      state: "closed",
      note: "#42 is hidden by the current filters",
    }),
    "#42 Fix login, state: closed. #42 is hidden by the current filters.",
  );
  assert.equal(summarize({ message: "saved as a draft" }), "Saved as a draft.");
  // Fields after the note still count, up to four in all.
  assert.equal(summarize({ note: "moved.", column: "done" }), "column: done. Moved.");
});

test("statuses and labels name the action by its title", () => {
  assert.equal(titleOf("create_issue"), "Create issue");
  assert.equal(titleOf("create_issue", "File an issue"), "File an issue");
  assert.equal(noticeText("running", "create_issue"), "Create issue is running on this page…");
  assert.equal(
    noticeText("approval", "create_issue"),
    "Create issue is waiting for a person's approval.",
  );
  assert.equal(confirmLabel("create_issue"), "Confirm: Create issue");
});
