/**
 * `look_at_screen`: the backend tool that shows the model the latest
 * screenshot of the session (from a host_context, a message or a tool result).
 *
 * @module
 */
import type { BackendTool, ToolOutput } from "./backend_tool.ts";

/** The tool's name. */
export const LOOK_AT_SCREEN = "look_at_screen";

/**
 * The built-in look_at_screen tool.
 *
 * @example
 * ```ts
 * const tools = [lookAtScreen];
 * ```
 */
export const lookAtScreen: BackendTool = {
  name: LOOK_AT_SCREEN,
  description: "Look at the latest screenshot of the host application's screen.",
  parameters: { type: "object", properties: {}, additionalProperties: false },
  rawOutput: true,
  execute(_args, context): ToolOutput {
    const uri = context.screenshot;
    if (!uri) {
      return { type: "content", value: [{ type: "text", text: "No screenshot is available." }] };
    }
    const comma = uri.indexOf(",");
    const mediaType = uri.slice(5, comma).split(";")[0] || "image/png";
    return {
      type: "content",
      value: [
        { type: "text", text: "The latest screenshot of the host's screen:" },
        { type: "image-data", data: uri.slice(comma + 1), mediaType },
      ],
    };
  },
};
