/**
 * The offline model against the demo: what people type to the issue
 * tracker, with the action and arguments each should lead to, or the plain
 * answer. The actions are the demo's own (the markup in demo/index.html and
 * demo/actions.ts), the context is rendered by the runtime's own renderer.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateText } from "ai";
import { offlineModel } from "../server/model/offline.ts";
import { block, tools } from "./_demo_context.ts";

type Expected = [string, Record<string, unknown>] | RegExp;

// What a user types → the call it must make, or a pattern its plain answer must match.
const TABLE: [string, Expected][] = [
  // The phrasings from the issue.
  ["select issue 42", ["select_issue", { number: 42 }]],
  ["close 42", ["change_status", { number: 42, status: "closed" }]],
  ["close issue 42", ["change_status", { number: 42, status: "closed" }]],
  ["reopen issue 42", ["change_status", { number: 42, status: "open" }]],
  ["help", /I can:\n- select an issue in the list/],
  ["what is on screen?", /issues view[\s\S]*\n- Issues: #67 Changelog page for 3\.2/],
  ["show me the issues assigned to alice", ["filter_issues", { assignee: "alice" }]],
  ["open the issue about login", ["open_issue", { number: 42 }]],
  ["show only bugs", ["show_only", { label: "bug" }]],
  ["change status of issue 42 to closed", ["change_status", { number: 42, status: "closed" }]],
  [`create issue "Dark mode flickers" label ui`, [
    "create_issue",
    { title: "Dark mode flickers", label: "ui" },
  ]],
  // Verbs for selecting and opening.
  ["pick 12", ["select_issue", { number: 12 }]],
  ["choose issue 7", ["select_issue", { number: 7 }]],
  ["select the webhook issue", ["select_issue", { number: 31 }]],
  ["open 42", ["open_issue", { number: 42 }]],
  ["show issue 19", ["open_issue", { number: 19 }]],
  ["open the CSV export issue", ["open_issue", { number: 12 }]],
  // Closing, reopening, pointing at the selected issue.
  ["close it", ["change_status", { number: 42, status: "closed" }]],
  ["close the login issue", ["change_status", { number: 42, status: "closed" }]],
  ["please close #31", ["change_status", { number: 31, status: "closed" }]],
  ["reopen 23", ["change_status", { number: 23, status: "open" }]],
  ["mark 31 as closed", ["change_status", { number: 31, status: "closed" }]],
  ["resolve issue 58", ["change_status", { number: 58, status: "closed" }]],
  // Filtering.
  ["show closed issues", ["filter_issues", { state: "closed" }]],
  ["show all issues", ["filter_issues", { state: "all" }]],
  ["show bugs", ["show_only", { label: "bug" }]],
  ["only docs", ["filter_issues", { label: "docs" }]],
  ["filter by performance", ["filter_issues", { label: "performance" }]],
  ["which issues are assigned to bob?", ["filter_issues", { assignee: "bob" }]],
  ["list bugs assigned to bob", ["filter_issues", { label: "bug", assignee: "bob" }]],
  [`search for "dark mode"`, ["filter_issues", { query: "dark mode" }]],
  ["clear filters", ["clear_filters", {}]],
  ["reset the filters", ["clear_filters", {}]],
  // Assigning.
  ["assign 27 to dana", ["assign_issue", { number: 27, assignee: "dana" }]],
  ["give the saved filters issue to chen", ["assign_issue", { number: 61, assignee: "chen" }]],
  // Creating and deleting.
  [`file a bug "Crash on save"`, ["create_issue", { title: "Crash on save", label: "bug" }]],
  [`new issue "Typo in footer" for bob`, [
    "create_issue",
    { title: "Typo in footer", assignee: "bob" },
  ]],
  ["delete issue 12", ["delete_issue", { number: 12 }]],
  ["remove issue 67", ["delete_issue", { number: 67 }]],
  ["delete the issue about CSV", ["delete_issue", { number: 12 }]],
  // Going places.
  ["go to new issue", ["go_to", { page: "new issue" }]],
  ["take me to the new issue form", ["go_to", { page: "new issue" }]],
  ["new issue", ["go_to", { page: "new issue" }]],
  // Plain answers.
  ["what can you do?", /\n- close or reopen an issue\n/],
  ["hi", /^Hello! /],
  ["thanks", /welcome/],
  ["how many issues are there?", /Shown: 14 of 18 issues/],
  [
    "open the issue about unicorns",
    /^Which issue do you mean\? Tell me its number, e\.g\. “open issue 67”/,
  ],
  ["what do you see?", /Selected issue: #42 Fix login redirect loop/],
  ["look at the screen", /You are on the issues view/],
  ["make me a sandwich", /I did not understand that.*Try “select issue 67”/],
];

const INTERNAL = new RegExp(`\\b(?:${Object.keys(tools).join("|")})\\b`);

for (const [phrase, expected] of TABLE) {
  const what = expected instanceof RegExp
    ? `answers in words (${expected.source.slice(0, 40)})`
    : `calls ${expected[0]} ${JSON.stringify(expected[1])}`;
  test(`"${phrase}" ${what}`, async () => {
    const result = await generateText({ model: offlineModel(), prompt: block + phrase, tools });
    const calls = result.toolCalls.map((c) => [c.toolName, c.input]);
    if (expected instanceof RegExp) {
      assert.deepEqual(calls, [], "no action for a question");
      assert.match(result.text, expected);
      assert.doesNotMatch(result.text, INTERNAL, "no internal tool names in a plain answer");
      assert.doesNotMatch(
        result.text,
        /look at (?:the )?screen/i,
        "never offers what it cannot do",
      );
    } else {
      assert.deepEqual(calls, [expected]);
    }
  });
}

test("the table has at least 40 phrasings", () => {
  assert.ok(TABLE.length >= 40, `${TABLE.length} phrasings`);
});

test(`"close issue 42 and select issue 7" makes both calls, in order`, async () => {
  const result = await generateText({
    model: offlineModel(),
    prompt: block + "close issue 42 and select issue 7",
    tools,
  });
  assert.deepEqual(result.toolCalls.map((c) => [c.toolName, c.input]), [
    ["change_status", { number: 42, status: "closed" }],
    ["select_issue", { number: 7 }],
  ]);
});

test("a very long message still finds the request at its start (the planner reads a bounded prefix)", async () => {
  const long = "close issue 42 " + "and then some more words about nothing ".repeat(20_000);
  const result = await generateText({ model: offlineModel(), prompt: block + long, tools });
  assert.deepEqual(result.toolCalls.map((c) => [c.toolName, c.input]), [
    ["change_status", { number: 42, status: "closed" }],
  ]);
});
