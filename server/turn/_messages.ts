/**
 * Model messages for one request: the SDK tool set, the cache breakpoint,
 * images shown live but never stored, and prose stripped in silent mode.
 *
 * @module
 */
import { jsonSchema, type ModelMessage, type ToolSet } from "ai";
import type { ToolOutput } from "../tools/backend_tool.ts";
import type { TurnTool } from "../tools/turn_tools.ts";
import type { RunContext } from "./run.ts";

/** A tool call as the AI SDK streams it. */
export interface ModelCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  invalid?: boolean;
}

/** The tools of a turn as the AI SDK takes them: described, with no execute (the runtime runs them). */
export function sdkTools(tools: Map<string, TurnTool>): ToolSet {
  const out: ToolSet = {};
  for (const t of tools.values()) {
    out[t.name] = {
      description: t.description,
      inputSchema: jsonSchema(t.parameters as never),
    } as never;
  }
  return out;
}

/** Marks the end of the replayed history as a cache breakpoint too (Anthropic), so the whole stable prefix is cached. */
export function cacheBreakpoint(
  history: ModelMessage[],
  options: RunContext["providerOptions"],
): ModelMessage[] {
  if (!options || !history.length) return history;
  const last = history.at(-1)!;
  return [...history.slice(0, -1), { ...last, providerOptions: options } as ModelMessage];
}

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
