/**
 * The offline model: a deterministic planner behind the `LanguageModelV3`
 * interface, so Tether runs, demos and tests without a provider key.
 *
 * It is not a language model. It calls the offered tools the user's latest
 * message names ("select issue 42" calls `select_issue` with
 * `{"number": 42}`), reports tool results in a sentence, and otherwise
 * summarises the host context and the actions on offer.
 *
 * @module
 */

import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { type Plan, plan } from "./_plan.ts";

const WORDS_PER_DELTA = 3;

function usageOf(p: Plan): LanguageModelV3Usage {
  return {
    inputTokens: { total: p.inputTokens, noCache: p.inputTokens, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: p.outputTokens, text: p.outputTokens, reasoning: 0 },
  };
}

function finishOf(p: Plan): LanguageModelV3FinishReason {
  return p.calls.length > 0
    ? { unified: "tool-calls", raw: "tool-calls" }
    : { unified: "stop", raw: "stop" };
}

function planFor(options: LanguageModelV3CallOptions): Plan {
  options.abortSignal?.throwIfAborted();
  return plan(options);
}

/** Splits text into deltas of a few words each, keeping every character. */
function deltas(text: string): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? [text];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_DELTA) {
    out.push(words.slice(i, i + WORDS_PER_DELTA).join(""));
  }
  return out;
}

function streamParts(p: Plan): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (p.text !== "") {
    parts.push({ type: "text-start", id: "text-0" });
    for (const delta of deltas(p.text)) parts.push({ type: "text-delta", id: "text-0", delta });
    parts.push({ type: "text-end", id: "text-0" });
  }
  for (const call of p.calls) {
    parts.push(
      { type: "tool-input-start", id: call.toolCallId, toolName: call.toolName },
      { type: "tool-input-delta", id: call.toolCallId, delta: call.input },
      { type: "tool-input-end", id: call.toolCallId },
      { type: "tool-call", ...call },
    );
  }
  parts.push({ type: "finish", usage: usageOf(p), finishReason: finishOf(p) });
  return parts;
}

/**
 * Creates the offline model (provider "tether", model id "offline").
 *
 * @example
 * ```ts
 * import { generateText, jsonSchema, tool } from "ai";
 * import { offlineModel } from "./offline.ts";
 *
 * const result = await generateText({
 *   model: offlineModel(),
 *   prompt: "select issue 42",
 *   tools: {
 *     select_issue: tool({
 *       description: "Select an issue in the list.",
 *       inputSchema: jsonSchema<{ number: number }>({
 *         type: "object",
 *         properties: { number: { type: "integer" } },
 *         required: ["number"],
 *       }),
 *     }),
 *   },
 * });
 * result.toolCalls[0].input; // { number: 42 }
 * ```
 */
export function offlineModel(): LanguageModelV3 {
  return {
    specificationVersion: "v3",
    provider: "tether",
    modelId: "offline",
    supportedUrls: {},
    doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
      try {
        const p = planFor(options);
        const content: LanguageModelV3Content[] = p.text === ""
          ? []
          : [{ type: "text", text: p.text }];
        for (const call of p.calls) content.push({ type: "tool-call", ...call });
        return Promise.resolve({
          content,
          finishReason: finishOf(p),
          usage: usageOf(p),
          response: { modelId: "offline" },
          warnings: [],
        });
      } catch (error) {
        return Promise.reject(error);
      }
    },
    doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
      try {
        const parts = streamParts(planFor(options));
        let next = 0;
        // One part per pull, so a consumer sees the deltas arrive one by one.
        const stream = new ReadableStream<LanguageModelV3StreamPart>({
          pull(controller) {
            if (next < parts.length) controller.enqueue(parts[next++]);
            else controller.close();
          },
        });
        return Promise.resolve({ stream });
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}
