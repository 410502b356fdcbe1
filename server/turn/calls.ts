/**
 * The tool-call pipeline of a turn: admission (arguments validated, policy
 * asked), the silent-decision rules, and backend tools run in the turn.
 *
 * @module
 */
import { validateJsonSchema } from "../../protocol/mod.ts";
import type { CallRecord } from "../session/records.ts";
import type { ToolOutput } from "../tools/backend_tool.ts";
import { decide } from "../tools/policy.ts";
import { extractScreenshots } from "../tools/screenshots.ts";
import { HOLD, type TurnTool } from "../tools/turn_tools.ts";
import { TurnError } from "./errors.ts";
import { errorText } from "./results.ts";
import type { ModelCall } from "./_messages.ts";
import type { RunContext, RunOutcome } from "./run.ts";

/**
 * Applies the silent-decision rules to one model response: a hold wins, two
 * actions are an invalid decision; null lets a single action through.
 *
 * @example
 * ```ts
 * const decision = silentDecision(records);
 * if (decision) return decision;
 * ```
 */
export function silentDecision(records: CallRecord[]): RunOutcome | null {
  const hold = records.find((c) => c.tool_name === HOLD);
  if (hold) {
    for (const c of records) c.status = c === hold ? "completed" : "cancelled";
    hold.result = "held";
    return { kind: "hold" };
  }
  if (records.length > 1) {
    for (const c of records) c.status = "cancelled";
    throw new TurnError(
      "invalid_decision",
      `The model proposed ${records.length} host actions at once; a decision admits exactly one.`,
    );
  }
  return null;
}

/**
 * Validates arguments, then asks the policy; returns the refusal text, or null when admitted.
 *
 * @example
 * ```ts
 * const refusal = await admit(ctx, call, tools.get(call.tool_name), raw);
 * ```
 */
export async function admit(
  ctx: RunContext,
  call: CallRecord,
  tool: TurnTool | undefined,
  raw: ModelCall,
): Promise<string | null> {
  if (!tool || raw.invalid) {
    return tool
      ? `The arguments for ${call.tool_name} are not valid JSON.`
      : `There is no tool named ${call.tool_name} in this turn.`;
  }
  const issues = validateJsonSchema(tool.parameters, raw.input);
  if (issues.length) {
    const list = issues.slice(0, 5).map((i) => `${i.path || "(arguments)"}: ${i.message}`).join(
      "; ",
    );
    return `Invalid arguments for ${call.tool_name}: ${list}. Fix them and call again.`;
  }
  const decision = await decide(ctx.policy, {
    principal: ctx.principal,
    sessionId: ctx.sessionId,
    callId: call.call_id,
    toolName: call.tool_name,
    category: call.category,
    arguments: call.arguments,
  });
  if (decision.decision === "allow") return null;
  if (decision.decision === "deny") return `Refused by policy: ${decision.reason}`;
  return `Held for approval and not run: ${decision.reason}`;
}

/**
 * Runs a backend tool inside the turn with a timeout and records its result or error.
 *
 * @example
 * ```ts
 * await runBackend(ctx, call, tool, live);
 * ```
 */
export async function runBackend(
  ctx: RunContext,
  call: CallRecord,
  tool: TurnTool,
  live: Map<string, ToolOutput>,
): Promise<void> {
  const started = Date.now();
  const timeout = AbortSignal.timeout(ctx.limits.toolTimeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  try {
    const output = await Promise.race([
      Promise.resolve(tool.backend!.execute(call.arguments, {
        sessionId: ctx.sessionId,
        callId: call.call_id,
        signal,
        screenshot: ctx.screenshots.get(ctx.sessionId),
      })),
      new Promise<never>((_, reject) => {
        const fail = () => reject(signal.reason ?? new Error("aborted"));
        if (signal.aborted) fail();
        signal.addEventListener("abort", fail, { once: true });
      }),
    ]);
    if (tool.backend!.rawOutput) {
      live.set(call.call_id, output as ToolOutput);
      call.result = "[content shown to the model; images are not stored]";
    } else {
      const { value, screenshot } = extractScreenshots(output ?? null);
      if (screenshot) ctx.screenshots.set(ctx.sessionId, screenshot);
      call.result = value;
    }
    call.status = "completed";
    await ctx.emit("assistant:tool_result", {
      type: "tool_result",
      tool_name: call.tool_name,
      output: call.result,
      call_id: call.call_id,
      duration_ms: Date.now() - started,
    });
  } catch (error) {
    if (ctx.signal.aborted) {
      call.status = "cancelled";
      throw error;
    }
    call.status = "failed";
    call.error = timeout.aborted
      ? `${call.tool_name} did not finish within ${ctx.limits.toolTimeoutMs} ms.`
      : `${call.tool_name} failed: ${errorText(error)}`;
    await ctx.emit("assistant:tool_error", {
      type: "tool_error",
      tool_name: call.tool_name,
      error: call.error,
      call_id: call.call_id,
    });
  }
}
