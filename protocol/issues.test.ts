import assert from "node:assert/strict";
import { test } from "node:test";
import { formatIssues } from "./issues.ts";

test("formatIssues prefixes each path with the root and joins the sentences", () => {
  const text = formatIssues([
    { path: "view.colour", message: "colour is not a field of view; remove it." },
    { path: "", message: "host_context is incomplete." },
  ], "host_context");
  assert.equal(
    text,
    "host_context.view.colour: colour is not a field of view; remove it. host_context: host_context is incomplete.",
  );
});

test("formatIssues without a root shows the path alone, or only the message at the root", () => {
  assert.equal(
    formatIssues([{ path: "id", message: "id must not be empty." }]),
    "id: id must not be empty.",
  );
  assert.equal(formatIssues([{ path: "", message: "send an object." }]), "send an object.");
});

test("formatIssues spells out ten issues and counts the rest", () => {
  const issues = Array.from(
    { length: 25 },
    (_, i) => ({ path: `navigation.${i}.name`, message: "name is required." }),
  );
  const text = formatIssues(issues);
  assert.ok(text.includes("navigation.9.name"));
  assert.ok(!text.includes("navigation.10.name"));
  assert.match(text, /15 more issues/);
});
