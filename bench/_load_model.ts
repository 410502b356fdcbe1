/**
 * The model of `npm run bench -- load`, the same for the floor and the
 * runtime: `pendScript`'s answers (a first message calls `select_issue`; a
 * tool result gets a line of text), as a plain `LanguageModelV3` that keeps
 * nothing. The test models (`scriptedModel`, the AI SDK's mock) record every
 * call's prompt, so under load they grow the heap by every prompt sent, and
 * the larger prompt pays more garbage collection for it: no provider does.
 *
 * @module
 */
import type { LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { stepParts } from "../server/testing/scripted_model.ts";
import { answered } from "../tests/multiprocess/_scripts.ts";

/**
 * A scripted model that pends `select_issue` and retains no call.
 *
 * @example
 * ```ts
 * const model = loadModel("floor");
 * ```
 */
export function loadModel(name: string): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "scripted",
    modelId: "scripted",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("The load model only streams.")),
    // deno-lint-ignore require-await -- a provider's doStream is async
    doStream: async (options: LanguageModelV3CallOptions) => {
      const step = answered(options.prompt) ? { text: `Selected issue 42 on ${name}.` } : {
        calls: [{
          name: "select_issue",
          args: { number: 42 },
          id: `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`,
        }],
      };
      const parts = stepParts(step);
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}
