/**
 * Turns recorded calls into the tool results the model reads, so a stored
 * assistant message always replays as a valid conversation: every tool call
 * is answered, including the cancelled, superseded and unknown ones.
 *
 * @module
 */
import type { ModelMessage, ToolResultPart } from "ai";
import type { AssistantMessage, CallRecord } from "../session/records.ts";

const MAX_ERROR_TEXT = 2_000;

function clip(text: string): string {
  return text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}…` : text;
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value) ?? "null";
}

/**
 * The tool result part of one finished call.
 *
 * @example
 * ```ts
 * resultPart({ call_id: "c1", tool_name: "t", category: "host", arguments: {}, status: "completed", result: 1 });
 * ```
 */
export function resultPart(call: CallRecord): ToolResultPart {
  const base = { type: "tool-result" as const, toolCallId: call.call_id, toolName: call.tool_name };
  switch (call.status) {
    case "completed":
      return { ...base, output: { type: "json", value: (call.result ?? null) as never } };
    case "failed":
      return {
        ...base,
        output: {
          type: "error-text",
          value: clip(call.error ?? `The action failed: ${asText(call.result)}`),
        },
      };
    case "cancelled":
      return {
        ...base,
        output: {
          type: "error-text",
          // A declined confirmation says so; a turn cancelled mid-call cannot know the outcome.
          value: call.error ??
            "Cancelled before a result arrived; it may or may not have taken effect.",
        },
      };
    case "superseded":
      return {
        ...base,
        output: {
          type: "error-text",
          value:
            "Superseded: a newer message arrived before the result; it may or may not have taken effect.",
        },
      };
    default:
      return {
        ...base,
        output: {
          type: "error-text",
          value:
            "Outcome unknown: the runtime was interrupted; it may or may not have taken effect.",
        },
      };
  }
}

/**
 * The tool message answering every call in `calls`, in order.
 *
 * @example
 * ```ts
 * const message = toolMessage(calls);
 * ```
 */
export function toolMessage(calls: CallRecord[]): ModelMessage {
  return { role: "tool", content: calls.map(resultPart) };
}

/**
 * The tool message answering every call of the model step `call` belongs to.
 *
 * @example
 * ```ts
 * assistant.steps.push(stepAnswers(assistant, call));
 * ```
 */
export function stepAnswers(assistant: AssistantMessage, call: CallRecord): ModelMessage {
  return toolMessage(assistant.calls.filter((c) => c.step === call.step));
}

/**
 * Short text for an error thrown by a tool or a provider.
 *
 * @example
 * ```ts
 * errorText(new Error("tool timed out")); // "tool timed out"
 * ```
 */
export function errorText(error: unknown): string {
  return clip(error instanceof Error ? error.message : String(error));
}
