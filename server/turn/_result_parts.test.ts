// The turn reads a result's own stream rather than `fullStream`; these tests pin that the
// installed `ai` still has that stream, in the shape the reader expects, and that it yields
// exactly what `fullStream` yields.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { jsonSchema, streamText, type StreamTextResult, type ToolSet } from "ai";
import { resultParts } from "./_result_parts.ts";
import { scriptedModel } from "../testing/scripted_model.ts";

const STEP = {
  reasoning: "Looking.",
  text: "Selecting issue 42 now.",
  calls: [{ name: "pick", args: { n: 42 }, id: "c1" }],
};
const tools: ToolSet = {
  pick: { inputSchema: jsonSchema({ type: "object", properties: { n: { type: "integer" } } }) },
};

function run(onFinish?: () => void): StreamTextResult<ToolSet, never> {
  return streamText({
    model: scriptedModel([STEP]),
    prompt: "pick 42",
    tools,
    maxRetries: 0,
    onFinish,
  }) as StreamTextResult<ToolSet, never>;
}

/** A part without what differs from request to request (generated ids, times). */
function plain(part: unknown): unknown {
  return JSON.parse(
    JSON.stringify(part, (k, v) => (k === "response" || k === "request" ? undefined : v)),
  );
}

test("the parts read are fullStream's parts, in order, and onFinish still runs", async () => {
  let finished = 0;
  const mine: unknown[] = [];
  for await (const part of await resultParts(run(() => finished++))) mine.push(plain(part));
  const theirs: unknown[] = [];
  for await (const part of run().fullStream) theirs.push(plain(part));
  assert.deepEqual(mine, theirs);
  assert.deepEqual(
    mine.map((p) => (p as { type: string }).type).filter((t) =>
      !t.endsWith("-start") && !t.endsWith("-end")
    ),
    [
      "start",
      "start-step",
      "reasoning-delta",
      "text-delta",
      "text-delta",
      "text-delta",
      "text-delta",
      "tool-call",
      "finish-step",
      "finish",
    ],
  );
  assert.equal(finished, 1);
});

test("with the installed ai the turn reads the result's own stream, not a tee of it", async () => {
  const result = run();
  const parts = (await resultParts(result))[Symbol.asyncIterator]();
  await parts.next();
  // fullStream would have teed it and left an unread, unlocked stream in its place.
  assert.equal((result as unknown as { baseStream: ReadableStream }).baseStream.locked, true);
  await parts.return!();
});

test("breaking out ends the loop at once, even while the model's stream stalls", async () => {
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: "test",
    modelId: "stalled",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("streaming only")),
    doStream: () =>
      Promise.resolve({
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          start(controller) {
            controller.enqueue({ type: "stream-start", warnings: [] });
          },
          pull: () => new Promise(() => {}), // nothing more, ever
        }),
      }),
  };
  const result = streamText({ model, prompt: "hi", maxRetries: 0, onError: () => {} });
  const seen: string[] = [];
  for await (const part of await resultParts(result as StreamTextResult<ToolSet, never>)) {
    seen.push(part.type);
    if (part.type === "start") break;
  }
  assert.deepEqual(seen, ["start"]);
});

test("a result without its own stream is read through fullStream", async () => {
  const fullStream = (async function* () {
    yield { type: "start" };
  })();
  const fake = { fullStream } as unknown as StreamTextResult<ToolSet, never>;
  assert.equal(await resultParts(fake), fullStream);
});
