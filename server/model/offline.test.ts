import { test } from "node:test";
import assert from "node:assert/strict";
import { generateText, jsonSchema, type ModelMessage, stepCountIs, streamText, tool } from "ai";
import { offlineModel } from "./offline.ts";

const selectIssue = tool({
  description: "Select an issue in the list.",
  inputSchema: jsonSchema<{ number: number }>({
    type: "object",
    properties: { number: { type: "integer" } },
    required: ["number"],
  }),
});
const labelSchema = jsonSchema<{ label: "bug" | "feature" }>({
  type: "object",
  properties: { label: { type: "string", enum: ["bug", "feature"] } },
  required: ["label"],
});
const setTitle = tool({
  description: "Rename an issue.",
  inputSchema: jsonSchema<{ number: number; title: string }>({
    type: "object",
    properties: { number: { type: "integer" }, title: { type: "string" } },
    required: ["number", "title"],
  }),
});
const tools = {
  select_issue: selectIssue,
  set_title: setTitle,
  filter: tool({ description: "Filter the list.", inputSchema: labelSchema }),
  show_only: tool({ description: "Show only one label.", inputSchema: labelSchema }),
};

const context = {
  version: 1,
  view: {
    name: "tasks",
    description: "The issue list, filtered to open bugs.",
    data: { issues: [{ number: 42, title: "Fix login" }, { number: 43, title: "Dark mode" }] },
  },
  navigation: [{ name: "agents", description: "Running agents" }],
};
const block = `<host_context>\n${JSON.stringify(context)}\n</host_context>\n\n`;

function callsOf(result: { toolCalls: { toolName: string; input: unknown }[] }) {
  return result.toolCalls.map((c) => [c.toolName, c.input]);
}

test("naming an action by its words calls it with the number that follows", async () => {
  const result = await generateText({
    model: offlineModel(),
    prompt: block + "select issue 42",
    tools,
  });
  assert.deepEqual(callsOf(result), [["select_issue", { number: 42 }]]);
  assert.equal(result.finishReason, "tool-calls");
});

test("an action named by its exact name is called", async () => {
  const result = await generateText({
    model: offlineModel(),
    prompt: "please run select_issue with 7",
    tools,
  });
  assert.deepEqual(callsOf(result), [["select_issue", { number: 7 }]]);
});

test("two named actions are called in order, each with its own arguments", async () => {
  const result = await generateText({
    model: offlineModel(),
    prompt: block + `Set title 43 to "Dark theme", then select issue 42.`,
    tools,
  });
  assert.deepEqual(callsOf(result), [
    ["set_title", { number: 43, title: "Dark theme" }],
    ["select_issue", { number: 42 }],
  ]);
  const ids = result.toolCalls.map((c) => c.toolCallId);
  assert.equal(new Set(ids).size, 2);
});

test("quoted text and enum words fill the label", async () => {
  const quoted = await generateText({
    model: offlineModel(),
    prompt: `filter by label "bug"`,
    tools,
  });
  assert.deepEqual(callsOf(quoted), [["filter", { label: "bug" }]]);
  const plural = await generateText({ model: offlineModel(), prompt: "show only bugs", tools });
  assert.deepEqual(callsOf(plural), [["show_only", { label: "bug" }]]);
  const curly = await generateText({ model: offlineModel(), prompt: "filters: “feature”", tools });
  assert.deepEqual(callsOf(curly), [["filter", { label: "feature" }]]);
});

test("a search beside filters: the words no filter takes are the text, the others stay filters", async () => {
  // A board of its own, not the demo's: a filter of a column and an owner, and a text search.
  const findTasks = tool({
    description: "Find tasks by column, owner or text in their title.",
    inputSchema: jsonSchema<{ column?: string; owner?: string; text?: string }>({
      type: "object",
      properties: {
        column: { type: "string", enum: ["todo", "doing", "done"] },
        owner: { type: "string", enum: ["ines", "omar"] },
        text: { type: "string" },
      },
    }),
  });
  const board = { find_tasks: findTasks };
  const plan = async (prompt: string) =>
    callsOf(await generateText({ model: offlineModel(), prompt, tools: board }));
  assert.deepEqual(await plan("find upload tasks in doing"), [
    ["find_tasks", { column: "doing", text: "upload" }],
  ]);
  assert.deepEqual(await plan("show doing tasks about upload"), [
    ["find_tasks", { column: "doing", text: "upload" }],
  ]);
  assert.deepEqual(await plan("find venue tasks assigned to ines"), [
    ["find_tasks", { owner: "ines", text: "venue" }],
  ]);
  // Only filters: no text.
  assert.deepEqual(await plan("find doing tasks assigned to omar"), [
    ["find_tasks", { column: "doing", owner: "omar" }],
  ]);
});

test("a request that does not say which item asks which one instead of calling", async () => {
  const result = await generateText({
    model: offlineModel(),
    prompt: block + "select issue, any of them",
    tools,
  });
  assert.deepEqual(callsOf(result), []);
  assert.equal(
    result.text,
    "Which issue do you mean? Tell me its number, e.g. “select issue 42”, or words from its title.",
  );
});

test("a required title the words do not give is asked for, in the person's words, instead of a call that would be refused", async () => {
  const result = await generateText({
    model: offlineModel(),
    prompt: block + "set title 5",
    tools,
  });
  assert.deepEqual(callsOf(result), []);
  assert.equal(result.text, `What should its title be? Put it in quotes, e.g. “set title 5 "…"”.`);
});

test("words inside quotes never name an action", async () => {
  const result = await generateText({
    model: offlineModel(),
    prompt: `set title 5 to "select issue"`,
    tools,
  });
  assert.deepEqual(callsOf(result), [["set_title", { number: 5, title: "select issue" }]]);
});

function afterCall(
  output: { type: "json"; value: Record<string, string | number> } | {
    type: "error-text";
    value: string;
  },
): ModelMessage[] {
  return [
    { role: "user", content: block + "select issue 42" },
    {
      role: "assistant",
      content: [{
        type: "tool-call",
        toolCallId: "c1",
        toolName: "select_issue",
        input: { number: 42 },
      }],
    },
    {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "c1", toolName: "select_issue", output }],
    },
    // The runtime sends the current context right after the result.
    { role: "user", content: block },
  ];
}

test("after a tool result it answers with the action in words and a short summary", async () => {
  const result = await generateText({
    model: offlineModel(),
    messages: afterCall({ type: "json", value: { selected: 42 } }),
    tools,
  });
  assert.equal(result.toolCalls.length, 0);
  assert.equal(result.text, "Done: select issue (selected 42).");
});

test("a result about one item names it as the list does, and its note is a sentence of its own", async () => {
  const value = {
    number: 42,
    title: "Fix login redirect loop",
    state: "closed",
    note: "#42 is hidden by the current filters",
  };
  const result = await generateText({
    model: offlineModel(),
    messages: afterCall({ type: "json", value }),
    tools,
  });
  assert.equal(
    result.text,
    "Done: select issue (#42 Fix login redirect loop, state closed). #42 is hidden by the current filters.",
  );
});

test("after a failed tool result it says it could not do it and why, without calling again", async () => {
  const result = await generateText({
    model: offlineModel(),
    messages: afterCall({ type: "error-text", value: "Invalid input: number is required" }),
    tools,
  });
  assert.equal(result.toolCalls.length, 0);
  assert.match(result.text, /^“Select issue” did not work\. Tell me again/);
  assert.doesNotMatch(result.text, /Invalid input/, "the reason is shown beside the call, once");
  assert.doesNotMatch(result.text, /select_issue/);
});

test("a backend tool runs once and its result ends the loop", async () => {
  let runs = 0;
  const result = await generateText({
    model: offlineModel(),
    prompt: "count the issues",
    stopWhen: stepCountIs(5),
    tools: {
      ...tools,
      count_issues: tool({
        description: "Count the issues.",
        inputSchema: jsonSchema<Record<string, never>>({ type: "object", properties: {} }),
        execute: () => {
          runs++;
          return "a list of 2 issues";
        },
      }),
    },
  });
  assert.equal(runs, 1);
  assert.equal(result.steps.length, 2);
  assert.equal(result.text, "Done: count issues (a list of 2 issues).");
});

test("a long result is shortened in the answer", async () => {
  const long = "x".repeat(1000);
  const result = await generateText({
    model: offlineModel(),
    messages: [
      { role: "user", content: "select issue 1" },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c", toolName: "select_issue", input: {} }],
      },
      {
        role: "tool",
        content: [{
          type: "tool-result",
          toolCallId: "c",
          toolName: "select_issue",
          output: { type: "text", value: long },
        }],
      },
    ],
    tools,
  });
  assert.ok(result.text.length < 260, result.text);
  assert.match(result.text, /^Done: select issue \(x+…\)\.$/);
});

test("asked what it sees, it describes the host context in words", async () => {
  const result = await generateText({
    model: offlineModel(),
    prompt: block + "what can you see?",
    tools,
  });
  assert.equal(result.toolCalls.length, 0);
  assert.match(result.text, /tasks view: The issue list, filtered to open bugs\./);
  assert.match(result.text, /Issues: #42 Fix login; #43 Dark mode\./);
  assert.match(result.text, /Pages you can go to: “agents”/);
  assert.doesNotMatch(result.text, /select_issue|set_title|show_only/);
  assert.ok(result.usage.inputTokens! > 0 && result.usage.outputTokens! > 0);
});

test("a context rendered as key: value lines is summarised too", async () => {
  const lines =
    `<host_context>\nview: board\ndescription: Cards by column\ndata.cards: [1, 2, 3]\n</host_context>\nwhat is on the page?`;
  const result = await generateText({ model: offlineModel(), prompt: lines, tools });
  assert.match(result.text, /board view: Cards by column\.\n\n- Cards: 3\./);
});

test("without a context a greeting says what it is and what it can do, in words", async () => {
  const result = await generateText({ model: offlineModel(), prompt: "hello", tools });
  assert.match(result.text, /offline assistant/);
  assert.match(result.text, /- select an issue in the list\n- rename an issue/);
  assert.match(result.text, /Try “filter bug”, “show only bug”/);
  assert.doesNotMatch(result.text, /select_issue|set_title|show_only/);
});

test("streaming produces several text deltas that add up to the answer", async () => {
  const result = streamText({ model: offlineModel(), prompt: block + "what is on screen?", tools });
  const deltas: string[] = [];
  for await (const delta of result.textStream) deltas.push(delta);
  assert.ok(deltas.length >= 3, `only ${deltas.length} deltas`);
  assert.equal(deltas.join(""), await result.text);
  assert.equal(await result.finishReason, "stop");
  assert.ok((await result.usage).outputTokens! > 0);
});

test("a streamed response carries the tool calls with their arguments", async () => {
  const result = streamText({
    model: offlineModel(),
    prompt: "filter bug and select issue 3",
    tools,
  });
  const calls: [string, unknown][] = [];
  for await (const part of result.fullStream) {
    if (part.type === "tool-call") calls.push([part.toolName, part.input]);
  }
  assert.deepEqual(calls, [["filter", { label: "bug" }], ["select_issue", { number: 3 }]]);
  assert.equal(await result.finishReason, "tool-calls");
});

test("the same prompt gives the same answer and ids, and a later turn new ids", async () => {
  const first = await generateText({ model: offlineModel(), prompt: "select issue 42", tools });
  const again = await generateText({ model: offlineModel(), prompt: "select issue 42", tools });
  assert.deepEqual(
    again.toolCalls.map((c) => c.toolCallId),
    first.toolCalls.map((c) => c.toolCallId),
  );
  const later = await generateText({
    model: offlineModel(),
    messages: [...afterCall({ type: "json", value: { selected: 42 } }), {
      role: "assistant",
      content: "Done.",
    }, {
      role: "user",
      content: "select issue 42",
    }],
    tools,
  });
  assert.notEqual(later.toolCalls[0].toolCallId, first.toolCalls[0].toolCallId);
});

test("tool choice none answers in text even when an action is named", async () => {
  const result = await generateText({
    model: offlineModel(),
    prompt: "select issue 42",
    tools,
    toolChoice: "none",
  });
  assert.equal(result.toolCalls.length, 0);
  assert.notEqual(result.text, "");
});

test("a result's display cards are left out of the offline answer", async () => {
  const { generateText } = await import("ai");
  const result = await generateText({
    model: offlineModel(),
    messages: [
      { role: "user", content: "select issue 42" },
      {
        role: "assistant",
        content: [{
          type: "tool-call",
          toolCallId: "c1",
          toolName: "select_issue",
          input: { number: 42 },
        }],
      },
      {
        role: "tool",
        content: [{
          type: "tool-result",
          toolCallId: "c1",
          toolName: "select_issue",
          output: {
            type: "json",
            value: { selected: 42, display: [{ title: "#42", url: "https://x.test/42" }] },
          },
        }],
      },
    ],
  });
  assert.equal(result.text, "Done: select issue (selected 42).");
});

test("a host's decline is said as a cancel, not as a failure to retry", async () => {
  const result = await generateText({
    model: offlineModel(),
    messages: afterCall({
      type: "error-text",
      value: "The action failed: The user cancelled select_issue; nothing was changed.",
    }),
    tools,
  });
  assert.equal(result.text, "You cancelled “Select issue”; nothing was changed.");
});

test("a failure's reason is said once, without the prefixes the layers added", async () => {
  const result = await generateText({
    model: offlineModel(),
    messages: afterCall({
      type: "error-text",
      value: "The action failed: select_issue failed: there is no issue #999",
    }),
    tools,
  });
  assert.match(result.text, /^“Select issue” did not work\. /);
});

test("every block the runtime puts before the words is context: remote context, the unchanged note, a later one", async () => {
  const page =
    `<host_context>\nview: tasks\ndata:\n  issues: [{"number":42,"title":"Fix login"},{"number":7,"title":"Dark mode"}]\n  selected_issue: {"number":42,"title":"Fix login"}\n</host_context>`;
  const remote = `<remote_context>\n{"milestones":3,"next_due":"Beta"}\n</remote_context>`;
  const later = `<team_context>\n{"issue":5}\n</team_context>`;
  for (const blocks of [[page, remote], [page, remote, later], [remote, page]]) {
    const result = await generateText({
      model: offlineModel(),
      prompt: `${blocks.join("\n\n")}\n\nselect it`,
      tools,
    });
    assert.deepEqual(result.toolCalls.map((c) => [c.toolName, c.input]), [
      ["select_issue", { number: 42 }],
    ]);
  }
  // A later turn whose page is unchanged: the note and the remote block are no words either.
  const messages: ModelMessage[] = [
    { role: "user", content: `${page}\n\nhello` },
    { role: "assistant", content: "Hello!" },
    {
      role: "user",
      content:
        `<host_context_unchanged>The page is as the last host_context above shows it.</host_context_unchanged>\n\n${remote}\n\nhelp`,
    },
  ];
  const help = await generateText({ model: offlineModel(), messages, tools });
  assert.deepEqual(help.toolCalls, []);
  assert.match(help.text, /I can:/);
  assert.doesNotMatch(help.text, /milestones|next due/i);
});

test("a call whose outcome is unknown asks for the page to be checked, not for the call again", async () => {
  const result = await generateText({
    model: offlineModel(),
    messages: afterCall({
      type: "error-text",
      value:
        "The outcome of select_issue is unknown: the page was reloaded or closed while it ran. Check its effect before trying again.",
    }),
    tools,
  });
  assert.equal(
    result.text,
    "I cannot tell whether “Select issue” took effect; check the page before trying again.",
  );
});

test("a decline, a reviewer's no and the policy's no read as answers in people's words, never as failures", async () => {
  const cases: [string, RegExp][] = [
    [
      "The user declined this action, so it was not carried out.",
      /^You cancelled “Select issue”; nothing was changed\.$/,
    ],
    [
      "An operator denied the call: not during the freeze",
      /^The reviewer declined “Select issue”; nothing was changed\.$/,
    ],
    [
      "Tool 'select_issue' requires approval. Request approval before proceeding.",
      /^“Select issue” is not allowed here; nothing was changed\.$/,
    ],
  ];
  for (const [value, expected] of cases) {
    const result = await generateText({
      model: offlineModel(),
      messages: afterCall({ type: "error-text", value }),
      tools,
    });
    assert.match(result.text, expected);
    assert.doesNotMatch(result.text, /select_issue|Tell me again|Request approval/);
  }
});

test("a result listing records is summarised by their names, never as [object Object]", async () => {
  const messages = afterCall({
    type: "json",
    value: { milestones: [{ id: "m1", title: "Beta" }, { id: "m2", title: "Launch" }] },
  } as unknown as { type: "json"; value: { selected: number } });
  const result = await generateText({ model: offlineModel(), messages, tools });
  assert.match(result.text, /milestones Beta, Launch/);
  assert.doesNotMatch(result.text, /object Object/);
});
