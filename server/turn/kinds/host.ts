/**
 * Host actions: the host performs them. The kind offers the configured
 * host tools and the page's actions (for a silent decision, only the page's
 * actions and `hold`). A call pends with `waiting_for: "host"`, and the
 * continuation carries the host's result.
 *
 * @module
 */
import type { HostAction } from "../../../protocol/mod.ts";
import { extractScreenshots } from "../../tools/screenshots.ts";
import { HOLD, type TurnTool } from "../../tools/turn_tools.ts";
import type { ToolKind } from "./kind.ts";

function hostTool(action: HostAction): TurnTool {
  return {
    name: action.name,
    description: action.description,
    parameters: action.parameters ?? { type: "object", properties: {} },
    category: "host",
  };
}

/**
 * The host kind.
 *
 * @example
 * ```ts
 * const item = await hostKind.pend(ctx, call, tool); // { category: "host", waiting_for: "host" }
 * ```
 */
export const hostKind: ToolKind = {
  category: "host",
  offer({ options, context, outputMode }) {
    const actions = (context?.actions ?? []).map(hostTool);
    if (outputMode === "host_tools") {
      return {
        tools: [...actions, {
          name: HOLD,
          description: "Decide that the host has nothing to do now. Call it alone.",
          parameters: {
            type: "object",
            properties: { reason: { type: "string" } },
            additionalProperties: false,
          },
          category: "host",
        }],
      };
    }
    return { tools: [...options.hostTools.map(hostTool), ...actions] };
  },
  // A host call only waits: the turn's final commit records it.
  checkpoint: () => false,
  pend: () => Promise.resolve({ category: "host", waiting_for: "host" }),
  continue(ctx, call, _pending, body) {
    const { value, screenshot } = extractScreenshots(body.tool_result ?? null);
    if (screenshot) ctx.screenshots.set(ctx.sessionId, screenshot);
    call.status = body.tool_outcome === "failed" ? "failed" : "completed";
    call.result = value;
    return { kind: "recorded" };
  },
};
