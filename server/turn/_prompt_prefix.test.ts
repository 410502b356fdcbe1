/**
 * `splitPrompt`: the provider receives the prompt the SDK builds from the whole history, the
 * part before the last user message converted once per session, and anything the SDK would
 * refuse is sent whole.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { type ModelMessage, streamText } from "ai";
import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { scriptedModel } from "../testing/scripted_model.ts";
import { withBreakpoints } from "./_request_messages.ts";
import { KEPT_CHARS, KEPT_PROMPTS, keptPrompts, MIN_KEPT, splitPrompt } from "./_prompt_prefix.ts";

/** One exchange: a question, a tool call, its result and an answer. */
function exchange(i: number): ModelMessage[] {
  return [
    {
      role: "user",
      content: [{ type: "text", text: `question ${i}` }, { type: "text", text: "" }],
    },
    {
      role: "assistant",
      content: [
        { type: "text", text: `looking ${i}` },
        { type: "tool-call", toolCallId: `c${i}`, toolName: "select_issue", input: { n: i } },
      ],
    },
    {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: `c${i}`,
        toolName: "select_issue",
        output: { type: "json", value: { ok: true, n: i } },
      }],
    },
    { role: "assistant", content: `answer ${i}` },
  ];
}

/** The prompt a model receives from `streamText` for these messages. */
async function received(
  messages: ModelMessage[],
  split?: string,
): Promise<LanguageModelV3Prompt> {
  const model = scriptedModel([{ text: "ok" }]);
  let request = { model: model as never, messages };
  if (split) request = await splitPrompt(split, model, messages) as never;
  const result = streamText({ ...request, system: "You help.", allowSystemInMessages: false });
  await result.consumeStream();
  return (model.prompts.at(-1) as LanguageModelV3CallOptions).prompt;
}

test("the provider receives the prompt the whole history makes, request after request", async () => {
  const history: ModelMessage[] = [];
  for (let i = 0; i < 12; i++) history.push(...exchange(i));
  const prompts: LanguageModelV3Prompt[] = [];
  for (let request = 0; request < 4; request++) {
    history.push({ role: "user", content: `next ${request}` });
    assert.ok(history.length > MIN_KEPT);
    const whole = await received(history);
    const split = await received(history, "s-same");
    assert.deepEqual(split, whole);
    prompts.push(split);
    // The turn's own steps, as new objects the next time (stored copies of them).
    history.push(...exchange(100 + request).slice(1).map((m) => ({ ...m }) as ModelMessage));
  }
  // What came before was converted once: the same objects reach the provider again.
  assert.equal(prompts[3][5], prompts[0][5]);
  assert.equal(prompts[3][40], prompts[1][40]);
  assert.equal(prompts[3][51], prompts[2][51], "a later piece too");
});

test("a history that changed before its end is converted again from there", async () => {
  const history: ModelMessage[] = [];
  for (let i = 0; i < 12; i++) history.push(...exchange(i));
  history.push({ role: "user", content: "now" });
  await received(history, "s-changed");
  // A compaction, say: an early message is another object with other words.
  const changed = [...history];
  changed[9] = { role: "assistant", content: "[left out]" };
  assert.deepEqual(await received(changed, "s-changed"), await received(changed));
});

test("a history the SDK would refuse is sent whole, and the SDK's error stands", async () => {
  const history: ModelMessage[] = [];
  for (let i = 0; i < 12; i++) history.push(...exchange(i));
  // A call that no result answers, then a user message: the SDK refuses the prompt.
  history.splice(10, 1);
  history.push({ role: "user", content: "and?" });
  const model = scriptedModel([{ text: "ok" }]);
  const split = await splitPrompt("s-refused", model, history);
  assert.equal(split.model, model, "the model as it was");
  assert.equal(split.messages, history, "the messages whole");
  let error: unknown;
  const result = streamText({
    model,
    messages: history,
    onError: (e) => {
      error = e.error;
    },
  });
  await result.consumeStream();
  assert.match(String((error as Error)?.name ?? error), /MissingToolResults/);
});

test("short histories are given whole", async () => {
  const model = scriptedModel([{ text: "ok" }]);
  const history = [...exchange(0), { role: "user", content: "more" } as ModelMessage];
  const split = await splitPrompt("s-short", model, history);
  assert.equal(split.model, model);
  assert.equal(split.messages, history);
});

/** `count` questions of `chars` characters, each answered, then one more question. */
function questions(count: number, chars: number): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (let i = 0; i < count; i++) {
    out.push({ role: "user", content: "x".repeat(chars) }, { role: "assistant", content: "ok" });
  }
  out.push({ role: "user", content: "and?" });
  return out;
}

test("what is kept is bounded in sessions and in characters", async () => {
  const model = scriptedModel([{ text: "ok" }]);
  const history: ModelMessage[] = [];
  for (let i = 0; i < 10; i++) history.push(...exchange(i));
  history.push({ role: "user", content: "next" });
  for (let s = 0; s < KEPT_PROMPTS + 20; s++) await splitPrompt(`many-${s}`, model, history);
  assert.equal(keptPrompts().sessions, KEPT_PROMPTS);
  // One session larger than the whole allowance is split for its request, never kept.
  const before = keptPrompts();
  const large = questions(40, KEPT_CHARS / 20);
  const split = await splitPrompt("large", model, large);
  assert.equal(split.messages.length, 1, "the request is still split");
  assert.deepEqual(keptPrompts(), before);
  // Characters count: sessions of about a tenth of the allowance each, a dozen of them.
  const tenth = questions(18, KEPT_CHARS / 200);
  for (let s = 0; s < 12; s++) await splitPrompt(`tenth-${s}`, model, tenth);
  assert.ok(keptPrompts().chars > KEPT_CHARS / 2, "most of the allowance in use");
  assert.ok(keptPrompts().chars <= KEPT_CHARS);
});

test("with cache breakpoints (a summary first), the history before the turn is still converted once", async () => {
  const history: ModelMessage[] = [{ role: "user", content: "<conversation_summary>…" }];
  for (let i = 0; i < 12; i++) history.push(...exchange(i));
  const prompts: LanguageModelV3Prompt[] = [];
  for (let request = 0; request < 3; request++) {
    history.push({ role: "user", content: `next ${request}` });
    const marks = { summary: true, turnStart: history.length - 1 };
    const messages = withBreakpoints(history, marks, 4);
    assert.equal(messages[0], withBreakpoints(history, marks, 4)[0], "one marked copy a message");
    const split = await received(messages, "s-marked");
    assert.deepEqual(split, await received(messages));
    prompts.push(split);
    history.push(...exchange(200 + request).slice(1));
  }
  assert.equal(prompts[2][1], prompts[0][1], "the marked summary converted once");
  assert.equal(prompts[2][7], prompts[0][7]);
});
