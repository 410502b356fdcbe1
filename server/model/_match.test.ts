import { test } from "node:test";
import assert from "node:assert/strict";
import { type Action, namedCalls } from "./_match.ts";

const object = (properties: Record<string, unknown>) => ({ type: "object", properties });

const actions: Action[] = [
  { name: "select", schema: object({}) },
  { name: "select_issue", schema: object({ number: { type: "integer" } }) },
  { name: "look_at_screen", schema: object({}) },
  { name: "setZoom", schema: object({ level: { type: "number" }, smooth: { type: "boolean" } }) },
  {
    name: "add_filters",
    schema: object({ label: { enum: ["needs review", "bug"] }, note: { type: "string" } }),
  },
];

const names = (text: string) => namedCalls(text, actions).map((c) => [c.name, c.input]);

test("the longest name wins where several start at the same word", () => {
  assert.deepEqual(names("Select issue #12"), [["select_issue", { number: 12 }]]);
  assert.deepEqual(names("select it"), [["select", {}]]);
});

test("articles between a name's words are skipped", () => {
  assert.deepEqual(names("could you look at the screen?"), [["look_at_screen", {}]]);
});

test("camelCase names match by their words and by their spelling", () => {
  assert.deepEqual(names("set zoom 1.5 smoothly yes"), [["setZoom", { level: 1.5, smooth: true }]]);
  assert.deepEqual(names("setZoom -2 no"), [["setZoom", { level: -2, smooth: false }]]);
});

test("plurals and singulars of a name's words match each other", () => {
  assert.deepEqual(names("add filter bug"), [["add_filters", { label: "bug" }]]);
});

test("multi-word enum values match and their quotes are not reused as free text", () => {
  assert.deepEqual(names(`add filters "needs review" 'urgent one'`), [
    ["add_filters", { label: "needs review", note: "urgent one" }],
  ]);
});

test("an apostrophe is not a quote", () => {
  assert.deepEqual(names("add filters, don't forget 'x'"), [["add_filters", { note: "x" }]]);
});

test("an integer property skips decimals and numbers inside words", () => {
  assert.deepEqual(names("select issue v2 2.5 then 9"), [["select_issue", { number: 9 }]]);
});

test("nothing named, nothing called", () => {
  assert.deepEqual(names("what is this page about?"), []);
  assert.deepEqual(names(""), []);
});
