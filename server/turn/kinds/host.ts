/**
 * Host actions: the host performs them. A call pends with
 * `waiting_for: "host"`, and the continuation carries the host's result.
 *
 * @module
 */
import { extractScreenshots } from "../../tools/screenshots.ts";
import type { ToolKind } from "./kind.ts";

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
  mode: () => "pend",
  run() {
    return Promise.reject(new Error("A host action runs in the host; the runtime never runs it."));
  },
  pend: () => Promise.resolve({ category: "host", waiting_for: "host" }),
  continue(ctx, call, _pending, body) {
    const { value, screenshot } = extractScreenshots(body.tool_result ?? null);
    if (screenshot) ctx.screenshots.set(ctx.sessionId, screenshot);
    call.status = body.tool_outcome === "failed" ? "failed" : "completed";
    call.result = value;
    return { kind: "recorded" };
  },
};
