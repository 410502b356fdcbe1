/**
 * Turns recorded calls into the tool results the model reads, so a stored
 * assistant message always replays as a valid conversation: every tool call
 * is answered, including the cancelled, superseded and unknown ones.
 *
 * @module
 */
import type { ModelMessage, ToolResultPart } from "ai";
import type { CallRecord } from "../session/records.ts";

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
          value: "Cancelled before a result arrived; it may or may not have taken effect.",
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

/** Short text for an error thrown by a tool or a provider. */
export function errorText(error: unknown): string {
  return clip(error instanceof Error ? error.message : String(error));
}

/**
 * The event that tells attached clients a host recorded a call's result:
 * `tool_result`, or `tool_error` when the host reported a failure.
 *
 * @example
 * ```ts
 * await hub.publish(sid, ...hostOutcomeEvent(call));
 * ```
 */
export function hostOutcomeEvent(call: CallRecord): [string, Record<string, unknown>] {
  const base = { tool_name: call.tool_name, call_id: call.call_id };
  if (call.status === "failed") {
    return ["assistant:tool_error", { type: "tool_error", ...base, error: asText(call.result) }];
  }
  return ["assistant:tool_result", { type: "tool_result", ...base, output: call.result ?? null }];
}
