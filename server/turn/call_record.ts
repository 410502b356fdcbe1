/**
 * Call records and the step of a model request as the turn stores them.
 *
 * @module
 */
import type { ModelMessage } from "ai";
import type { CallRecord } from "../session/records.ts";
import type { ModelCall } from "./_messages.ts";
import { kindOf } from "./kinds/mod.ts";
import type { RunContext } from "./run_context.ts";

/**
 * The step of a model request cut off at the tool-call limit, as far as it was read.
 *
 * @example
 * ```ts
 * recordCutStep(assistant, text, calls, ctx, false);
 * ```
 */
export function recordCutStep(
  assistant: RunContext["assistant"],
  text: string,
  calls: ModelCall[],
  ctx: RunContext,
  silent: boolean,
): void {
  const content = [
    ...(text && !silent ? [{ type: "text" as const, text }] : []),
    ...calls.map((c) => ({
      type: "tool-call" as const,
      toolCallId: c.toolCallId,
      toolName: c.toolName,
      input: c.input,
    })),
  ];
  assistant.steps.push({ role: "assistant", content } as ModelMessage);
  if (!silent) assistant.text += text;
  const step = assistant.steps.length - 1;
  assistant.calls.push(...calls.map((c) => callRecord(c, ctx, step)));
}

/**
 * The record of a call the model made, running until it ends.
 *
 * @example
 * ```ts
 * assistant.calls.push(callRecord(call, ctx, step));
 * ```
 */
export function callRecord(c: ModelCall, ctx: RunContext, step: number): CallRecord {
  const tool = ctx.tools.get(c.toolName);
  // The kind keeps what it needs of the tool on the call (Apply may come after the tool list changed).
  const data = tool ? kindOf(tool.category).callData?.(tool) : undefined;
  return {
    call_id: c.toolCallId,
    tool_name: c.toolName,
    category: tool?.category ?? "backend",
    arguments: (c.input && typeof c.input === "object" ? c.input : {}) as Record<string, unknown>,
    step,
    status: "running",
    ...(data === undefined ? {} : { data }),
  };
}
