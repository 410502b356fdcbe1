/**
 * Model messages of a turn: calls as the SDK streams them, images shown live
 * but never stored, and prose stripped in silent mode.
 *
 * @module
 */
import type { ModelMessage } from "ai";
import type { ToolOutput } from "../tools/backend_tool.ts";

/** A tool call as the AI SDK streams it. */
export interface ModelCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  invalid?: boolean;
}

/** An assistant message without its prose (silent mode keeps only the calls). */
export function stripProse(message: ModelMessage): ModelMessage {
  if (message.role !== "assistant" || typeof message.content === "string") {
    return message.role === "assistant" ? { ...message, content: [] } : message;
  }
  return { ...message, content: message.content.filter((p) => p.type === "tool-call") };
}

/** A message with the content shown live in this run in place of its placeholders (images are never stored). */
export function liveIn(message: ModelMessage, live: Map<string, ToolOutput>): ModelMessage {
  if (!live.size || message.role !== "tool") return message;
  return {
    ...message,
    content: message.content.map((p) =>
      p.type === "tool-result" && live.has(p.toolCallId)
        ? { ...p, output: live.get(p.toolCallId) as never }
        : p
    ),
  };
}
