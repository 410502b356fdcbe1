/**
 * A scripted model for tests and benchmarks: the AI SDK's
 * MockLanguageModelV3 answering from a script, recording every prompt.
 *
 * @module
 */
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";

/** One scripted response: text, tool calls, reasoning, or an error to throw. */
export interface ScriptedStep {
  text?: string;
  reasoning?: string;
  calls?: { name: string; args: unknown; id?: string }[];
  error?: Error;
  /** Wait this many ms before finishing (to test cancellation and steering). */
  delayMs?: number;
  /** Wait for this before finishing, after `delayMs` (a test opens it when it is ready). */
  until?: Promise<unknown>;
}

/** A script: a list consumed in order (the last step repeats), or a function of the call. */
export type Script =
  | ScriptedStep[]
  | ((options: LanguageModelV3CallOptions, index: number) => ScriptedStep);

let ids = 0;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/**
 * The stream parts of one scripted step.
 *
 * @example
 * ```ts
 * const parts = stepParts({ text: "Hello." }); // text-start, text-delta…, finish
 * ```
 */
export function stepParts(step: ScriptedStep): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (step.reasoning) {
    parts.push({ type: "reasoning-start", id: "r" }, {
      type: "reasoning-delta",
      id: "r",
      delta: step.reasoning,
    }, { type: "reasoning-end", id: "r" });
  }
  if (step.text) {
    parts.push({ type: "text-start", id: "t" });
    for (const word of step.text.match(/\S+\s*/g) ?? []) {
      parts.push({ type: "text-delta", id: "t", delta: word });
    }
    parts.push({ type: "text-end", id: "t" });
  }
  for (const call of step.calls ?? []) {
    parts.push({
      type: "tool-call",
      toolCallId: call.id ?? `call_${++ids}`,
      toolName: call.name,
      input: JSON.stringify(call.args),
    });
  }
  parts.push({
    type: "finish",
    usage,
    finishReason: { unified: step.calls?.length ? "tool-calls" : "stop", raw: undefined },
  } as LanguageModelV3StreamPart);
  return parts;
}

/**
 * Creates a scripted model; `model.prompts` holds every prompt it received.
 *
 * @example
 * ```ts
 * const model = scriptedModel([{ calls: [{ name: "select_issue", args: { number: 42 } }] }, { text: "Done." }]);
 * ```
 */
export function scriptedModel(
  script: Script,
): MockLanguageModelV3 & { prompts: LanguageModelV3CallOptions[] } {
  const prompts: LanguageModelV3CallOptions[] = [];
  let index = 0;
  const next = (options: LanguageModelV3CallOptions): ScriptedStep => {
    const i = index++;
    prompts.push(options);
    return typeof script === "function"
      ? script(options, i)
      : script[Math.min(i, script.length - 1)];
  };
  const model = new MockLanguageModelV3({
    provider: "scripted",
    modelId: "scripted",
    // deno-lint-ignore require-await -- a throw here must reject, as a provider's failure would
    doStream: async (options) => {
      const step = next(options);
      if (step.error) throw step.error;
      let stream = convertArrayToReadableStream(stepParts(step));
      if (step.delayMs || step.until) {
        const delay = step.delayMs ?? 0;
        const gate = step.until;
        const signal = options.abortSignal;
        stream = stream.pipeThrough(
          new TransformStream({
            async transform(part, controller) {
              if (part.type === "finish") {
                await new Promise<void>((resolve, reject) => {
                  const t = setTimeout(
                    () => (gate ?? Promise.resolve()).then(() => resolve()),
                    delay,
                  );
                  signal?.addEventListener("abort", () => {
                    clearTimeout(t);
                    reject(Object.assign(new Error("aborted"), { name: "AbortError" }));
                  }, { once: true });
                });
              }
              controller.enqueue(part);
            },
          }),
        );
      }
      return { stream };
    },
  });
  return Object.assign(model, { prompts });
}

/**
 * What `doGenerate` answers for `text` (the scripted model streams; `generateText`, as titles
 * use, asks `doGenerate`).
 *
 * @example
 * ```ts
 * model.doGenerate = () => Promise.resolve(generated("Login redirect loop"));
 * ```
 */
export function generated(text: string): Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>> {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: undefined },
    usage,
    warnings: [],
  };
}
