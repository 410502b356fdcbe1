import { test } from "node:test";
import assert from "node:assert/strict";
import {
  countAnswer,
  type Listed,
  oneAtATime,
  placedLook,
  rangeAnswer,
  unfilterable,
} from "./_groups.ts";
import {
  besideSelected,
  findItem,
  type Item,
  itemOf,
  ordinalItem,
  ordinalPhrase,
} from "./_items.ts";
import type { Action } from "./_match.ts";
import { tokenize } from "./_text.ts";

// A task board, not the demo's issue tracker: nothing here may depend on the demo's words.
const items: Item[] = [
  { number: 9, title: "Write the launch post", facts: ["todo", "marketing", "ines"] },
  { number: 8, title: "Fix the upload timeout", facts: ["doing", "backend", "omar"] },
  { number: 5, title: "Rotate the API keys", facts: ["todo", "backend"] },
  { number: 2, title: "Book the venue", facts: ["done", "events", "ines"] },
];
const listed: Listed = { items, kind: "task", kinds: "tasks" };
const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
});
const actions: Action[] = [
  {
    name: "move_task",
    description: "Move a task to another column.",
    schema: object({ id: { type: "integer" }, column: { enum: ["todo", "doing", "done"] } }, [
      "id",
      "column",
    ]),
  },
  {
    name: "archive_task",
    description: "Archive a task.",
    schema: object({ id: { type: "integer" } }, ["id"]),
  },
  {
    name: "show_column",
    description: "Show only one column.",
    schema: object({ column: { enum: ["todo", "doing", "done", "archived"] } }, ["column"]),
  },
];

test("an ordinal names an item by its place in the list on screen", () => {
  const place = (text: string) => ordinalItem(tokenize(text), items, "task");
  assert.equal(place("archive the first task"), 9);
  assert.equal(place("archive the last one"), 2);
  assert.equal(place("the second backend task"), 5, "the second of those with the fact");
  assert.equal(place("the second big task"), undefined, "what follows says what the items are");
  assert.equal(place("the third item"), 5);
  assert.equal(place("the fifth task"), undefined, "past the end of the list");
  // By number, wherever the list puts them: numbers are handed out in order.
  assert.equal(place("the newest task"), 9);
  assert.equal(place("the oldest backend task"), 5);
  assert.equal(ordinalItem(tokenize("the oldest task"), [...items].reverse(), "task"), 2);
  assert.equal(place("first things first"), undefined, "not followed by what the items are");
  // The place wins over words of a title ("the first" is no part of "Write the launch post").
  assert.equal(
    findItem(tokenize("the last task, the venue one"), items, undefined, new Set(), "task"),
    2,
  );
});

test("the first or last few are named in the list's order, among those with a fact too", () => {
  const few = (text: string) => ordinalPhrase(tokenize(text), items, "task");
  assert.deepEqual(few("archive the first two tasks"), { numbers: [9, 8], fact: undefined });
  assert.deepEqual(few("archive the last three tasks"), { numbers: [8, 5, 2], fact: undefined });
  assert.deepEqual(few("the first two backend tasks"), { numbers: [8, 5], fact: "backend" });
  assert.deepEqual(few("the first ten tasks"), { numbers: [9, 8, 5, 2], fact: undefined });
  // A count only after first or last; a digit there is read as a task's number elsewhere.
  assert.equal(few("the second two tasks"), undefined);
  assert.equal(few("the first 3 tasks"), undefined);
});

test("next and previous are beside the selected item in the list on screen", () => {
  const beside = (text: string, selected?: number) =>
    besideSelected(tokenize(text), items, selected, "task");
  assert.equal(beside("select the next task", 8), 5);
  assert.equal(beside("archive the previous one", 8), 9);
  assert.equal(beside("select the next task", 2), undefined, "past the end");
  assert.equal(beside("select the next task"), undefined, "nothing selected");
  assert.equal(beside("the next big thing", 8), undefined, "not followed by what the items are");
});

test("a count names how many of the items on screen match, and which", () => {
  assert.equal(
    countAnswer("how many backend tasks are there?", listed, actions),
    "2 of the 4 tasks on screen match “backend”:\n- #8 Fix the upload timeout\n- #5 Rotate the API keys",
  );
  assert.equal(
    countAnswer("how many todo tasks does ines have?", listed, actions),
    "1 of the 4 tasks on screen matches “todo” and “ines”:\n- #9 Write the launch post",
  );
  // "archived" is a value an action takes, so it is understood though no task on screen has it.
  assert.equal(
    countAnswer("how many archived tasks?", listed, actions),
    "None of the 4 tasks on screen match “archived”.",
  );
  assert.equal(countAnswer("how many tasks are there?", listed, actions), undefined);
  assert.equal(countAnswer("archive the backend tasks", listed, actions), undefined);
});

test("a change asked of several items says it goes one at a time and names the first", () => {
  assert.equal(
    oneAtATime("archive all backend tasks", listed, actions),
    "I archive one task at a time. The tasks on screen that match “backend”:\n" +
      "- #8 Fix the upload timeout\n- #5 Rotate the API keys\n\n" +
      "Say “archive task 8”, then the next.",
  );
  // The words after "to" are the rest of the request, not which tasks.
  assert.match(
    oneAtATime("move every todo task to done", listed, actions)!,
    /match “todo”:[\s\S]*Say “move task 9 to done”, then the next\.$/,
  );
  assert.equal(
    oneAtATime("archive all events tasks owned by omar", listed, actions),
    "I archive one task at a time. The tasks on screen that match “events”:\n" +
      "- #2 Book the venue\n\nSay “archive task 2 owned by omar”, then the next.",
  );
  // "give" is a verb of assigning, a change: one at a time, like "assign".
  assert.match(
    oneAtATime("give all backend tasks to omar", listed, [...actions, {
      name: "assign_task",
      description: "Assign a task to someone.",
      schema: object({ id: { type: "integer" }, who: { enum: ["omar", "ines"] } }, ["id", "who"]),
    }])!,
    /^I give one task at a time\.[\s\S]*Say “give task 8 to omar”, then the next\.$/,
  );
  // "archive all" with nothing after it: every task on screen.
  assert.match(
    oneAtATime("archive all", listed, actions)!,
    /^I archive one task at a time\. The tasks on screen:\n- #9 [\s\S]*Say “archive task 9”, then the next\.$/,
  );
  // "all but 9": every task on screen except those named.
  assert.equal(
    oneAtATime("archive all but 9 and 5", listed, actions),
    "I archive one task at a time. The tasks on screen:\n- #8 Fix the upload timeout\n" +
      "- #2 Book the venue\n\nSay “archive task 8”, then the next.",
  );
  // Words after it that say nothing of the tasks: not understood here.
  assert.equal(oneAtATime("archive all the lovely", listed, actions), undefined);
  // Looking is not a change: "show all todo tasks" is the filter's, never one at a time.
  assert.equal(oneAtATime("show all todo tasks", listed, actions), undefined);
  assert.equal(oneAtATime("archive the first task", listed, actions), undefined);
});

test("a change asked of a range of numbers lists the items on screen in it and names the first", () => {
  const range = (text: string, shown = listed, offered = actions) =>
    rangeAnswer(text, shown, offered);
  const both =
    "The tasks on screen from #2 to #8:\n- #2 Book the venue\n- #5 Rotate the API keys\n" +
    "- #8 Fix the upload timeout";
  for (const text of ["archive tasks 2-8", "archive 2 to 8", "archive #2 through #8"]) {
    assert.equal(
      range(text),
      `I archive one task at a time. ${both}\n\nSay “archive task 2”, then the next.`,
    );
  }
  assert.equal(
    range("archive between 2 and 8"),
    `I archive one task at a time. ${both}\n\nSay “archive task 2”, then the next.`,
    "between two numbers is a range, where a list of two would be two calls",
  );
  assert.equal(
    range("move tasks 4-6 to done"),
    "I move one task at a time. The tasks on screen from #4 to #6:\n- #5 Rotate the API keys\n\n" +
      "Say “move task 5 to done”.",
  );
  assert.equal(
    range("archive 10-20"),
    "I archive one task at a time. None of the tasks on screen is numbered from #10 to #20.",
    "no request for a number nobody showed",
  );
  // A look lists them; a pick says how to ask for one.
  assert.equal(range("show tasks 2-8"), both);
  assert.equal(range("show #2-#8"), both);
  assert.equal(range("show columns 1-3"), undefined, "a look at something else");
  // Not a range: a backwards pair, a title in quotes, a verb of no action on one item.
  assert.equal(range("archive 8-2"), undefined);
  assert.equal(range(`archive "Sprint 2-8" now`), undefined);
  assert.equal(range("celebrate 2-8"), undefined);
  // Where the verb's action takes two numbers, "4 to 5" is its arguments.
  const prioritise: Action = {
    name: "set_priority",
    description: "Set a task's priority.",
    schema: object({ id: { type: "integer" }, priority: { type: "integer" } }, ["id", "priority"]),
  };
  assert.equal(range("set priority of 4 to 5", listed, [...actions, prioritise]), undefined);
  assert.equal(
    range("archive tasks 2-8", { ...listed, items: [] }),
    undefined,
    "nothing on screen",
  );
});

test("a list of the matching items names at most five, and how many more", () => {
  const many = Array.from({ length: 8 }, (_, i) => ({
    number: 100 - i,
    title: `Task ${i}`,
    facts: ["todo"],
  }));
  const lines = (n: number) =>
    countAnswer(
      "how many todo tasks?",
      { ...listed, items: [...many.slice(0, n), items[1]] },
      actions,
    )!
      .split("\n").slice(1);
  assert.equal(lines(5).length, 5);
  assert.deepEqual(lines(6).at(-1), "- #95 Task 5", "a sixth is listed, not counted");
  assert.deepEqual(lines(8).slice(4), ["- #96 Task 4", "- and 3 more"]);
});

test("a look at a few items named by their place lists them; a verb that picks says how to ask for one", () => {
  assert.equal(
    placedLook("show the first two tasks", listed),
    "The tasks you mean:\n- #9 Write the launch post\n- #8 Fix the upload timeout",
  );
  assert.equal(
    placedLook("pick the last two backend tasks", listed),
    "I pick one task at a time. The tasks you mean:\n- #8 Fix the upload timeout\n" +
      "- #5 Rotate the API keys\n\nSay “pick task 8”.",
  );
  // One item by its place is for the action itself; a change to a few is made one call each.
  assert.equal(placedLook("show the first task", listed), undefined);
  assert.equal(placedLook("archive the first two tasks", listed), undefined);
  assert.equal(placedLook("show all tasks", listed), undefined);
});

test("an item whose assignee or owner is empty is unassigned, a fact no filter here takes", () => {
  assert.deepEqual(itemOf({ id: 3, name: "Order chairs", column: "todo", owner: null })?.facts, [
    "todo",
    "unassigned",
  ]);
  assert.deepEqual(itemOf({ id: 4, name: "Call the caterer", assignee: "" })?.facts, [
    "unassigned",
  ]);
  // Another empty field says nothing.
  assert.deepEqual(itemOf({ id: 6, name: "Print badges", due: null })?.facts, []);
  const board: Listed = {
    ...listed,
    items: [...items, itemOf({ id: 3, name: "Order chairs", column: "todo", owner: null })!],
  };
  assert.equal(
    unfilterable("which todo tasks are unassigned?", board, actions),
    "1 of the 5 tasks on screen matches “todo” and “unassigned”:\n- #3 Order chairs",
  );
  assert.equal(
    unfilterable("show unassigned tasks", board, actions),
    "1 of the 5 tasks on screen matches “unassigned”:\n- #3 Order chairs",
  );
  // Words an action takes as values are for that action: a filter shows them.
  assert.equal(unfilterable("which tasks are todo?", board, actions), undefined);
  assert.equal(unfilterable("archive the unassigned tasks", board, actions), undefined);
});
