/**
 * Reads the parts of a `streamText` result without the `fullStream` getter's
 * extra stages. The getter tees the result's own stream and pipes one side
 * through two transform streams: eight more stream objects a model request
 * (each takes a few µs to make on Node 20) and four more stages for every
 * part. In a loop over a scripted model, a request read through `fullStream`
 * cost 380 to 490 µs, one read from the result's own stream 320 to 330 µs.
 *
 * The turn is the result's only reader, so it reads the stream the result
 * keeps (`baseStream` in `ai` 6, whose chunks carry the part as `part`). That
 * stream is not public API, so the first turn of the process checks it on a
 * tiny model of its own: only when a result has it, unlocked, and its chunks
 * carry every part in order, does the turn read it; otherwise (another
 * version of `ai`) every turn reads `fullStream` as before.
 *
 * @module
 */
import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { streamText, type StreamTextResult, type TextStreamPart, type ToolSet } from "ai";

/** The parts a turn reads from one model request. */
export type ResultParts = AsyncIterable<TextStreamPart<ToolSet>>;

let checked: Promise<boolean> | undefined;

/**
 * The parts of `result`, from its own stream where the installed `ai` keeps one the turn can
 * read, else from `result.fullStream`. Breaking out of the loop cancels the stream and
 * returns at once, as with `fullStream`.
 *
 * @example
 * ```ts
 * const result = streamText({ model, prompt: "Hello" });
 * for await (const part of await resultParts(result)) console.log(part.type);
 * ```
 */
export async function resultParts(
  result: StreamTextResult<ToolSet, never>,
): Promise<ResultParts> {
  const own = ownStream(result);
  if (own && await (checked ??= ownStreamWorks())) return partsOf(own);
  return result.fullStream;
}

/** The result's own stream, when it has one nobody reads yet. */
function ownStream(result: unknown): ReadableStream<unknown> | undefined {
  const own = (result as { baseStream?: unknown }).baseStream;
  return own instanceof ReadableStream && !own.locked ? own : undefined;
}

function partsOf(stream: ReadableStream<unknown>): ResultParts {
  return {
    [Symbol.asyncIterator]() {
      const reader = stream.getReader();
      return {
        async next() {
          const { done, value } = await reader.read();
          if (done) return { done: true, value: undefined };
          return { done: false, value: (value as { part: TextStreamPart<ToolSet> }).part };
        },
        return() {
          // As on leaving `fullStream`: the loop ends now, without waiting for the model's
          // stream to wind down (the turn aborts the request itself).
          reader.cancel().catch(() => {});
          return Promise.resolve({ done: true, value: undefined });
        },
      };
    },
  };
}

/** The parts the check's model streams. */
const PROBE: LanguageModelV3StreamPart[] = [
  { type: "stream-start", warnings: [] },
  { type: "text-start", id: "t" },
  { type: "text-delta", id: "t", delta: "ok" },
  { type: "text-end", id: "t" },
  {
    type: "finish",
    usage: {
      inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 1, text: 1, reasoning: 0 },
    },
    finishReason: { unified: "stop", raw: undefined },
  } as LanguageModelV3StreamPart,
];

/** Whether a result's own stream carries each part, in order, as `{ part }` (see the module doc). */
async function ownStreamWorks(): Promise<boolean> {
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: "tether",
    modelId: "check",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("The check only streams.")),
    // deno-lint-ignore require-await -- a provider's doStream is async
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          for (const part of PROBE) controller.enqueue(part);
          controller.close();
        },
      }),
    }),
  };
  try {
    const own = ownStream(streamText({ model, prompt: "check", maxRetries: 0, onError: () => {} }));
    if (!own) return false;
    const types: unknown[] = [];
    let text = "";
    for await (const chunk of partsOf(own)) {
      types.push(chunk?.type);
      if (chunk?.type === "text-delta") text += chunk.text;
    }
    return text === "ok" && types[0] === "start" && types.at(-1) === "finish" &&
      types.includes("finish-step");
  } catch {
    return false;
  }
}
