/**
 * What running a tool call in the turn takes, whatever its kind: the tool
 * timeout joined with the turn's signal, and recording a failure (with its
 * `tool_error`). Kinds that run calls use them, and so does releasing a
 * held call.
 *
 * @module
 */
import type { CallRecord } from "../session/records.ts";
import { toolErrorEvent } from "./events.ts";
import type { RunContext } from "./run_context.ts";

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
