/**
 * The tools offered in one turn: backend tools (scoped by view), configured
 * host tools and the context's actions, or, for silent decisions, only the
 * context's actions and `hold`.
 *
 * @module
 */
import type { HostAction, HostContext, Verb } from "../../protocol/mod.ts";
import type { BackendTool } from "./backend_tool.ts";

/** A tool as one turn offers it. */
export interface TurnTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  category: "backend" | "host" | "remote";
  backend?: BackendTool;
  /** Remote tools: the integration that offers it and its verb. */
  remote?: { integrationId: string; verb: Verb };
}

/** The reserved structured output of silent decisions. */
export const HOLD = "hold";

/** What decides the offered tools. */
export interface ToolSources {
  backendTools: BackendTool[];
  hostTools: HostAction[];
  pageScopes: Record<string, string[]>;
  context: HostContext | null;
  outputMode: "text" | "host_tools";
  warn: (message: string) => void;
  /** Tools the workspace's tool servers offer this turn. */
  remoteTools?: TurnTool[];
}

/**
 * Builds the turn's tool map.
 *
 * @example
 * ```ts
 * const tools = turnTools({ backendTools: [], hostTools: [], pageScopes: {}, context: null,
 *   outputMode: "text", warn: console.warn });
 * ```
 */
export function turnTools(sources: ToolSources): Map<string, TurnTool> {
  const tools = new Map<string, TurnTool>();
  const { context, outputMode } = sources;
  if (outputMode === "host_tools") {
    for (const action of context?.actions ?? []) tools.set(action.name, hostTool(action));
    tools.set(HOLD, {
      name: HOLD,
      description: "Decide that the host has nothing to do now. Call it alone.",
      parameters: {
        type: "object",
        properties: { reason: { type: "string" } },
        additionalProperties: false,
      },
      category: "host",
    });
    return tools;
  }
  const viewName = context?.view?.name;
  for (const tool of sources.backendTools) {
    const scope = sources.pageScopes[tool.name];
    // Absent context means every backend tool is available (host contract).
    if (scope && context && (!viewName || !scope.includes(viewName))) continue;
    tools.set(tool.name, {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      category: "backend",
      backend: tool,
    });
  }
  for (const action of sources.hostTools) {
    if (tools.has(action.name)) {
      sources.warn(
        `configured host tool ${action.name} collides with a backend tool and is ignored`,
      );
      continue;
    }
    tools.set(action.name, hostTool(action));
  }
  for (const tool of sources.remoteTools ?? []) {
    if (tools.has(tool.name)) {
      sources.warn(`remote tool ${tool.name} collides with a registered tool and is ignored`);
      continue;
    }
    tools.set(tool.name, tool);
  }
  for (const action of context?.actions ?? []) {
    if (tools.has(action.name)) {
      sources.warn(
        `host_context action ${action.name} collides with a registered tool and is ignored`,
      );
      continue;
    }
    tools.set(action.name, hostTool(action));
  }
  return tools;
}

function hostTool(action: HostAction): TurnTool {
  return {
    name: action.name,
    description: action.description,
    parameters: action.parameters ?? { type: "object", properties: {} },
    category: "host",
  };
}
