/**
 * The offline model against the demo: what people type to the issue
 * tracker (tests/_phrasings.ts), with the action and arguments each should
 * lead to, or the plain answer. The actions are the demo's own (the markup in
 * demo/index.html and demo/actions.ts) and the milestones tool server's; the
 * context is rendered by the runtime's own renderers, the page's block
 * followed by the tool server's, as `npm start` composes them.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateText } from "ai";
import { offlineModel } from "../server/model/offline.ts";
import { block, tools, unselectedBlock } from "./_demo_context.ts";
import { PHRASINGS } from "./_phrasings.ts";

// What a user types → the call it must make, or a pattern its plain answer must match.
const TABLE = PHRASINGS;

const INTERNAL = new RegExp(`\\b(?:${Object.keys(tools).join("|")})\\b`);

for (const [phrase, expected] of TABLE) {
  const what = expected instanceof RegExp
    ? `answers in words (${expected.source.slice(0, 40)})`
    : `calls ${expected[0]} ${JSON.stringify(expected[1])}`;
  test(`"${phrase}" ${what}`, async () => {
    // The order the tools are offered in never decides (the page lists them in its own order).
    const reversed = Object.fromEntries(Object.entries(tools).reverse());
    const other = await generateText({
      model: offlineModel(),
      prompt: block + phrase,
      tools: reversed,
    });
    const result = await generateText({ model: offlineModel(), prompt: block + phrase, tools });
    assert.deepEqual(
      other.toolCalls.map((c) => [c.toolName, c.input]),
      result.toolCalls.map((c) => [c.toolName, c.input]),
      "the same calls whatever the order",
    );
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

// With nothing selected (the demo as it first opens), words that point at an issue ask which one,
// in the person's own words with a number, instead of reading "close" as the closed filter.
const POINTING: [string, string][] = [
  ["close it", "close issue 67"],
  ["reopen it", "reopen issue 67"],
  ["open it", "open issue 67"],
  ["delete it", "delete issue 67"],
  ["select it", "select issue 67"],
  ["assign it to bob", "assign issue 67 to bob"],
  ["close this issue", "close issue 67"],
  ["close the selected issue", "close issue 67"],
];
for (const [phrase, example] of POINTING) {
  test(`"${phrase}" with nothing selected asks which issue, e.g. "${example}"`, async () => {
    const result = await generateText({
      model: offlineModel(),
      prompt: unselectedBlock + phrase,
      tools,
    });
    assert.deepEqual(result.toolCalls, []);
    assert.equal(
      result.text,
      `Which issue do you mean? Tell me its number, e.g. “${example}”, or words from its title.`,
    );
  });
}

test("with nothing selected, a request that names its issue or the filter still acts", async () => {
  for (
    const [phrase, call] of [
      ["close issue 42", ["change_status", { number: 42, status: "closed" }]],
      ["show closed issues", ["filter_issues", { state: "closed" }]],
      ["open the issue about login", ["open_issue", { number: 42 }]],
    ] as const
  ) {
    const result = await generateText({
      model: offlineModel(),
      prompt: unselectedBlock + phrase,
      tools,
    });
    assert.deepEqual(result.toolCalls.map((c) => [c.toolName, c.input]), [call], phrase);
  }
});

// A question about one issue is answered from what the page lists, with or without a selection,
// and never makes a call (before, "what is issue 42 about?" went to the issues page). With 42
// selected, the page also sends its body, and a question about what it is says that too.
const ABOUT_ONE: [string, string][] = [
  [
    "what is issue 42 about?",
    "#42 Fix login redirect loop on expired sessions (open, bug, alice).",
  ],
  ["summarize issue 42", "#42 Fix login redirect loop on expired sessions (open, bug, alice)."],
  ["who is assigned to 31?", "#31 Webhook retries flood the log (open, bug, bob)."],
  [
    "tell me about the login issue",
    "#42 Fix login redirect loop on expired sessions (open, bug, alice).",
  ],
  ["describe the csv export issue", "#12 Export issues as CSV (open, feature, bob)."],
  ["what is issue 3 about?", "Issue 3 is not in the list on screen now."],
];
const BODY = " After a session expires, /login redirects to itself until cookies are cleared.";
// The questions about what 42 is; "who is assigned" asks nothing its body says.
const withBody = new Map([
  ["what is issue 42 about?", BODY],
  ["summarize issue 42", BODY],
  ["tell me about the login issue", BODY],
]);
for (const [phrase, answer] of ABOUT_ONE) {
  test(`"${phrase}" is answered from the list, selected or not`, async () => {
    for (const context of [block, unselectedBlock]) {
      const result = await generateText({ model: offlineModel(), prompt: context + phrase, tools });
      assert.deepEqual(result.toolCalls, []);
      assert.equal(result.text, context === block ? answer + (withBody.get(phrase) ?? "") : answer);
    }
  });
}

test("a question about the page or a request that names issues is not read as a question about one", async () => {
  const page = await generateText({
    model: offlineModel(),
    prompt: block + "what is this page?",
    tools,
  });
  assert.match(page.text, /^You are on the issues view/);
  const filter = await generateText({
    model: offlineModel(),
    prompt: block + "what issues are assigned to alice",
    tools,
  });
  assert.deepEqual(filter.toolCalls.map((c) => [c.toolName, c.input]), [
    ["filter_issues", { assignee: "alice" }],
  ]);
});

test("the table has at least 150 phrasings", () => {
  assert.ok(TABLE.length >= 150, `${TABLE.length} phrasings`);
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

test(`"close 42, 31 and 7" and "the first two issues" make a call for each, in order`, async () => {
  const calls = async (prompt: string) =>
    (await generateText({ model: offlineModel(), prompt: block + prompt, tools })).toolCalls
      .map((c) => [c.toolName, c.input]);
  assert.deepEqual(await calls("close 42, 31 and 7"), [
    ["change_status", { number: 42, status: "closed" }],
    ["change_status", { number: 31, status: "closed" }],
    ["change_status", { number: 7, status: "closed" }],
  ]);
  assert.deepEqual(await calls("assign #58 and #51 to bob"), [
    ["assign_issue", { number: 58, assignee: "bob" }],
    ["assign_issue", { number: 51, assignee: "bob" }],
  ]);
  // The first few by their place in the list.
  assert.deepEqual(await calls("close the first two issues"), [
    ["change_status", { number: 67, status: "closed" }],
    ["change_status", { number: 61, status: "closed" }],
  ]);
  // A count in digits between a place and a plural is how many, as in words.
  assert.deepEqual(await calls("close the last 3 issues"), [
    ["change_status", { number: 15, status: "closed" }],
    ["change_status", { number: 12, status: "closed" }],
    ["change_status", { number: 7, status: "closed" }],
  ]);
  assert.deepEqual(await calls("close the first 2 bugs"), [
    ["change_status", { number: 58, status: "closed" }],
    ["change_status", { number: 51, status: "closed" }],
  ]);
  // A digit anywhere else is still an issue's number.
  assert.deepEqual(await calls("close the last 3"), [
    ["change_status", { number: 3, status: "closed" }],
  ]);
  // Two requests joined: each planned alone, "it" the first one's issue.
  assert.deepEqual(await calls("close 42 and assign it to bob"), [
    ["change_status", { number: 42, status: "closed" }],
    ["assign_issue", { number: 42, assignee: "bob" }],
  ]);
  assert.deepEqual(await calls("select the first issue, then open it"), [
    ["select_issue", { number: 67 }],
    ["open_issue", { number: 67 }],
  ]);
  // Never split inside quoted words.
  assert.deepEqual(await calls('search for "bugs and crashes" and select 42'), [
    ["filter_issues", { query: "bugs and crashes" }],
    ["select_issue", { number: 42 }],
  ]);
  // A number said twice is one call.
  assert.deepEqual(await calls("close 42 and 42"), [
    ["change_status", { number: 42, status: "closed" }],
  ]);
});

test("a very long message still finds the request at its start (the planner reads a bounded prefix)", async () => {
  const long = "close issue 42 " + "and then some more words about nothing ".repeat(20_000);
  const result = await generateText({ model: offlineModel(), prompt: block + long, tools });
  assert.deepEqual(result.toolCalls.map((c) => [c.toolName, c.input]), [
    ["change_status", { number: 42, status: "closed" }],
  ]);
});
