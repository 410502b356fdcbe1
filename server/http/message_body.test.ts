import assert from "node:assert/strict";
import { test } from "node:test";
import { parseMessageBody } from "../../protocol/mod.ts";
import { ISSUE_CONTEXT } from "../testing/harness.ts";
import { canonicalText, KEPT_CHARS, parseBody, rememberedContexts } from "./message_body.ts";

const body = (context: unknown, extra: Record<string, unknown> = {}) =>
  JSON.parse(JSON.stringify({ session_id: "s1", content: "hi", host_context: context, ...extra }));

test("a host context seen before gives what a whole parse gives, as a copy of its own", () => {
  const context = { ...ISSUE_CONTEXT, view: { ...ISSUE_CONTEXT.view, description: "once" } };
  const before = rememberedContexts();
  const first = parseBody(body(context));
  assert.equal(rememberedContexts(), before + 1);
  const again = parseBody(body(context, { content: "again", output_mode: "host_tools" }));
  assert.equal(rememberedContexts(), before + 1, "the same context is remembered once");
  assert.ok(first.ok && again.ok);
  const whole = parseMessageBody(body(context, { content: "again", output_mode: "host_tools" }));
  assert.ok(whole.ok);
  assert.deepEqual(again.value, whole.value);
  assert.notEqual(again.value.host_context, first.value.host_context);
  // A caller changing its copy changes nobody else's.
  again.value.host_context!.actions!.length = 0;
  const third = parseBody(body(context));
  assert.ok(third.ok);
  assert.deepEqual(third.value.host_context, first.value.host_context);
});

test("a context that fails is reported in full every time, and the rest of a body still counts", () => {
  const bad = { ...ISSUE_CONTEXT, version: 2 };
  const before = rememberedContexts();
  for (let i = 0; i < 2; i++) {
    const parsed = parseBody(body(bad));
    assert.ok(!parsed.ok);
    assert.deepEqual(parsed.issues, (parseMessageBody(body(bad)) as { issues: unknown }).issues);
  }
  assert.equal(rememberedContexts(), before);
  parseBody(body(ISSUE_CONTEXT));
  const wrong = parseBody(body(ISSUE_CONTEXT, { output_mode: "loud" }));
  assert.ok(!wrong.ok);
  assert.match(wrong.issues[0].path, /output_mode/);
});

test("the memory holds at most 256 contexts", () => {
  for (let i = 0; i < 300; i++) {
    const parsed = parseBody(
      body({ ...ISSUE_CONTEXT, view: { ...ISSUE_CONTEXT.view, description: `t${i}` } }),
    );
    assert.ok(parsed.ok);
  }
  assert.equal(rememberedContexts(), 256);
});

test("a data-rich page is remembered too, and the memory holds at most KEPT_CHARS characters", () => {
  const rich = (i: number) => ({
    ...ISSUE_CONTEXT,
    view: {
      ...ISSUE_CONTEXT.view,
      description: `t${i}`,
      data: { rows: Array.from({ length: 900 }, (_, r) => ({ n: r, s: `row ${r} of page` })) },
    },
  });
  const size = JSON.stringify(rich(100)).length;
  assert.ok(size > 20_000, `${size} characters: a data-rich page`);
  // The same page again: its check is not run again, and its canonical text is known.
  const first = parseBody(body(rich(100)));
  const again = parseBody(body(rich(100)));
  assert.ok(first.ok && again.ok);
  assert.equal(canonicalText(again.value.host_context!), JSON.stringify(again.value.host_context));
  for (let i = 0; i < 200; i++) assert.ok(parseBody(body(rich(100 + i))).ok);
  // Each holds its text as sent and as canonical (the same here): the oldest went first.
  assert.equal(rememberedContexts(), Math.floor(KEPT_CHARS / (2 * size)));
});

test("a context with an unbounded action schema is never remembered, so the engine refuses it every time", async () => {
  const { assertBoundedSchemas } = await import("../tools/bounded_schemas.ts");
  const looping = {
    ...ISSUE_CONTEXT,
    actions: [{
      name: "loop",
      description: "Loops",
      parameters: { type: "object", anyOf: [{ $ref: "#" }] },
    }],
  };
  const before = rememberedContexts();
  for (let i = 0; i < 2; i++) {
    const parsed = parseBody(body(looping));
    assert.ok(parsed.ok, "the shape is valid; the bound is the engine's check");
    assert.throws(
      () => assertBoundedSchemas(parsed.value.host_context?.actions, "host_context.actions"),
      /host_context\.actions\[0\]\.parameters/,
    );
  }
  assert.equal(rememberedContexts(), before);
  // A bounded context, first parse or remembered, passes the engine's check.
  for (let i = 0; i < 2; i++) {
    const parsed = parseBody(body(ISSUE_CONTEXT));
    assert.ok(parsed.ok);
    assertBoundedSchemas(parsed.value.host_context?.actions, "host_context.actions");
  }
});
