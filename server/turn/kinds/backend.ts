/**
 * Backend tools: functions registered in code that run inside the turn,
 * bounded by the tool timeout; they pend only when the policy holds them.
 *
 * @module
 */
import type { CallRecord } from "../../session/records.ts";
import type { ToolOutput } from "../../tools/backend_tool.ts";
import { extractScreenshots } from "../../tools/screenshots.ts";
import { sessionError } from "../../http/errors.ts";
import { toolErrorEvent, toolResultEvent } from "../events.ts";
import { errorText } from "../results.ts";
import type { RunContext } from "../run.ts";
import type { ToolKind } from "./kind.ts";

/** The error `withToolTimeout` rejects with when the tool ran out of time. */
export class ToolTimeoutError extends Error {
  override name = "ToolTimeoutError";
}

/**
 * Runs `work` with the turn's signal and the tool timeout; rejects when either ends
 * first (with `ToolTimeoutError` for the timeout).
 *
 * @example
 * ```ts
 * const output = await withToolTimeout(ctx, (signal) => fetch(url, { signal }));
 * ```
 */
export async function withToolTimeout<T>(
  ctx: RunContext,
  work: (signal: AbortSignal) => T | Promise<T>,
  timeoutMs = ctx.limits.toolTimeoutMs,
): Promise<T> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  return await Promise.race([
    Promise.resolve(work(signal)),
    new Promise<never>((_, reject) => {
      const fail = () =>
        reject(
          timeout.aborted && !ctx.signal.aborted
            ? new ToolTimeoutError(`did not finish within ${timeoutMs} ms`)
            : signal.reason ?? new Error("aborted"),
        );
      if (signal.aborted) fail();
      signal.addEventListener("abort", fail, { once: true });
    }),
  ]);
}

/**
 * Records a call's failure and publishes its `tool_error`; rethrows when the turn was cancelled.
 *
 * @example
 * ```ts
 * await failCall(ctx, call, error, `${call.tool_name} failed.`);
 * ```
 */
export async function failCall(
  ctx: RunContext,
  call: CallRecord,
  error: unknown,
  message: string,
): Promise<void> {
  if (ctx.signal.aborted) {
    call.status = "cancelled";
    throw error;
  }
  call.status = "failed";
  call.error = message;
  await ctx.emit("assistant:tool_error", toolErrorEvent(call, message));
}

/**
 * The backend kind.
 *
 * @example
 * ```ts
 * await backendKind.run(ctx, call, live);
 * ```
 */
export const backendKind: ToolKind = {
  category: "backend",
  mode: () => "run",
  async run(ctx, call, live: Map<string, ToolOutput>) {
    const tool = ctx.tools.get(call.tool_name)?.backend;
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
  pend() {
    return Promise.reject(new Error("A backend tool runs in the turn; it never pends by itself."));
  },
  continue(_ctx, call) {
    // Reached only for a record that is not this kind's own: a backend call never waits for a client.
    throw sessionError(`Call ${call.call_id} runs in the runtime; no continuation answers it.`);
  },
};
