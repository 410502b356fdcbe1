/**
 * Backend tools: functions registered in code (`RuntimeOptions.backendTools`
 * and the built-in `look_at_screen`) that run inside the turn, bounded by
 * the tool timeout; they pend only when the policy holds them.
 *
 * @module
 */
import type { BackendTool, ToolOutput } from "../../tools/backend_tool.ts";
import { lookAtScreen } from "../../tools/look_at_screen.ts";
import { extractScreenshots } from "../../tools/screenshots.ts";
import { toolResultEvent } from "../events.ts";
import { errorText } from "../results.ts";
import { failCall, ToolTimeoutError, withToolTimeout } from "../tool_run.ts";
import type { ToolKind } from "./kind.ts";

/**
 * The backend kind: its tools carry the `BackendTool` they run.
 *
 * @example
 * ```ts
 * await backendKind.run(ctx, call, live);
 * ```
 */
export const backendKind: ToolKind<BackendTool> = {
  category: "backend",
  offer({ options, context, outputMode }) {
    if (outputMode === "host_tools") return { tools: [] };
    const viewName = context?.view?.name;
    const tools = [lookAtScreen, ...options.backendTools].filter((tool) => {
      const scope = options.pageScopes[tool.name];
      // Absent context means every backend tool is available (host contract).
      return !scope || !context || (!!viewName && scope.includes(viewName));
    });
    return {
      tools: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
        category: "backend",
        data: tool,
      })),
    };
  },
  async run(ctx, call, live: Map<string, ToolOutput>) {
    const offered = ctx.tools.get(call.tool_name);
    const tool = offered?.category === "backend" ? offered.data as BackendTool : undefined;
    if (!tool) {
      return failCall(
        ctx,
        call,
        null,
        `${call.tool_name} is no longer offered, so it did not run.`,
      );
    }
    const started = Date.now();
    try {
      const output = await withToolTimeout(ctx, (signal) =>
        tool.execute(call.arguments, {
          sessionId: ctx.sessionId,
          callId: call.call_id,
          signal,
          screenshot: ctx.screenshots.get(ctx.sessionId),
        }));
      if (tool.rawOutput) {
        live.set(call.call_id, output as ToolOutput);
        call.result = "[content shown to the model; images are not stored]";
      } else {
        const { value, screenshot } = extractScreenshots(output ?? null);
        if (screenshot) ctx.screenshots.set(ctx.sessionId, screenshot);
        call.result = value;
      }
      call.status = "completed";
      await ctx.emit(
        "assistant:tool_result",
        toolResultEvent(call, { duration_ms: Date.now() - started }),
      );
    } catch (error) {
      const timedOut = error instanceof ToolTimeoutError;
      await failCall(
        ctx,
        call,
        error,
        timedOut
          ? `${call.tool_name} did not finish within ${ctx.limits.toolTimeoutMs} ms.`
          : `${call.tool_name} failed: ${errorText(error)}`,
      );
    }
  },
};
