import { test } from "node:test";
import assert from "node:assert/strict";
import type { HostAction } from "../../protocol/mod.ts";
import type { TurnTool } from "../tools/turn_tools.ts";
import { extraActions, orderedTools, PAGE_ACTION, unwrapCall } from "./_roster.ts";

const action = (name: string, description = `Do ${name}.`): HostAction => ({
  name,
  description,
  parameters: { type: "object", properties: {} },
});
const asTool = (a: HostAction): TurnTool => ({ ...a, category: "host" });
const lookup: TurnTool = {
  name: "lookup",
  description: "Look.",
  parameters: { type: "object" },
  category: "backend",
};
const tools = (...actions: HostAction[]) =>
  new Map([lookup, ...actions.map(asTool)].map((t) => [t.name, t]));
const names = (list: { name: string }[]) => list.map((t) => t.name);

test("with a roster the tool list stays byte for byte the same when the page gains, loses or changes actions", () => {
  const roster = [action("close"), action("open")];
  const first = orderedTools(tools(...roster), { version: 1, actions: roster }, roster);
  assert.deepEqual(names(first), ["lookup", "close", "open", PAGE_ACTION]);
  const grown = [action("archive"), action("close"), action("open")];
  const changed = [action("close", "Close it now.")];
  for (const page of [grown, changed, []]) {
    const next = orderedTools(tools(...page), { version: 1, actions: page }, roster);
    assert.equal(JSON.stringify(next), JSON.stringify(first));
  }
  assert.deepEqual(names(extraActions({ version: 1, actions: grown }, roster)), ["archive"]);
  assert.deepEqual(names(extraActions({ version: 1, actions: changed }, roster)), ["close"]);
});

test("without a roster the turn's tools go as they are", () => {
  const page = [action("close")];
  assert.deepEqual(names(orderedTools(tools(...page), { version: 1, actions: page }, undefined)), [
    "lookup",
    "close",
  ]);
  assert.deepEqual(extraActions({ version: 1, actions: page }, undefined), []);
});

test("a page_action call becomes the call of the action it names, only when page_action was offered", () => {
  const roster = [action("close")];
  const offered = orderedTools(tools(...roster), { version: 1, actions: roster }, roster);
  const call = {
    toolCallId: "c1",
    toolName: PAGE_ACTION,
    input: { name: "archive", arguments: { n: 1 } },
  };
  assert.deepEqual(unwrapCall(call, offered), {
    toolCallId: "c1",
    toolName: "archive",
    input: { n: 1 },
  });
  assert.deepEqual(unwrapCall(call, []), call);
  assert.deepEqual(
    unwrapCall({ ...call, input: { arguments: {} } }, offered).toolName,
    PAGE_ACTION,
  );
});
