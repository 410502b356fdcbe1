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

/** Replaces stored placeholders with content shown live in this run (images are never stored). */
export function withLive(steps: ModelMessage[], live: Map<string, ToolOutput>): ModelMessage[] {
  if (!live.size) return steps;
  return steps.map((m) => {
    if (m.role !== "tool") return m;
    return {
      ...m,
      content: m.content.map((p) =>
        p.type === "tool-result" && live.has(p.toolCallId)
          ? { ...p, output: live.get(p.toolCallId) as never }
          : p
      ),
    };
  });
}
