import { test } from "node:test";
import assert from "node:assert/strict";
import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { harness } from "../testing/harness.ts";
import { DEFAULT_LIMITS } from "../config.ts";

/** A model that would stream tool calls without end; counts how many parts were read. */
function endlessCalls(): LanguageModelV3 & { pulled: number; aborted: boolean } {
  const model = {
    specificationVersion: "v3" as const,
    provider: "test",
    modelId: "endless",
    supportedUrls: {},
    pulled: 0,
    aborted: false,
    doGenerate: () => Promise.reject(new Error("streaming only")),
    doStream: (options: { abortSignal?: AbortSignal }) => {
      options.abortSignal?.addEventListener("abort", () => (model.aborted = true));
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
        },
        async pull(controller) {
          // Like a provider's response body: parts arrive over time, and an abort ends the body.
          await new Promise((r) => setTimeout(r, 1));
          if (options.abortSignal?.aborted) return controller.error(options.abortSignal.reason);
          const i = ++model.pulled;
          controller.enqueue({
            type: "tool-call",
            toolCallId: `c${i}`,
            toolName: "count",
            input: "{}",
          });
        },
      }, { highWaterMark: 0 });
      return Promise.resolve({ stream });
    },
  };
  return model as never;
}

test("past the tool-call limit the turn stops reading the model and ends its request", async () => {
  const model = endlessCalls();
  const h = harness({
    model,
    backendTools: [{
      name: "count",
      description: "Counts.",
      parameters: { type: "object", properties: {} },
      execute: () => 1,
    }],
    limits: { ...DEFAULT_LIMITS, maxToolCalls: 4 },
  });
  const res = await h.chat({ session_id: "endless", content: "go" });
  assert.equal(res.body.error_type, "usage_limit");
  assert.ok(model.aborted, "the model request was aborted");
  assert.ok(model.pulled < 50, `read ${model.pulled} parts of an endless stream`);
  const calls = (await h.call("GET", "/api/sessions/endless/messages")).body.messages[1].tool_calls;
  assert.ok(calls.length === 5 && calls.every((c: { status: string }) => c.status === "cancelled"));
  await h.close();
});
