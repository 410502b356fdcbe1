/**
 * The turn loop: one model request at a time, every tool call through one
 * pipeline (admission, then the call's kind runs it inside the turn or pends
 * it; see `kinds/kind.ts`), budgets enforced, events published as they happen.
 *
 * @module
 */
import type { Limits } from "../config.ts";
import type { CallRecord } from "../session/records.ts";
import { type Pended, pendingAction } from "../session/pending.ts";
import type { ToolOutput } from "../tools/backend_tool.ts";
import { toolMessage } from "./results.ts";
import { silentDecision } from "./silent.ts";
import { admit } from "./admission.ts";
import { kindOf, modeOf } from "./kinds/mod.ts";
import { toolCallEvent, toolErrorEvent } from "./events.ts";
import { type ModelCall, stripProse } from "./_messages.ts";
import { TurnError } from "./errors.ts";
import { callRecord, recordCutStep } from "./call_record.ts";
import { settlePromptCheck } from "./_prompt_check.ts";
import { addUsage } from "./model_request.ts";
import type { RunContext, RunOutcome } from "./run_context.ts";

settlePromptCheck();

const toolCallLimit = (limits: Limits) =>
  new TurnError("usage_limit", `The turn reached its limit of ${limits.maxToolCalls} tool calls.`);

/**
 * Runs model steps until the turn ends with text, a pending call or a hold.
 * Throws a `TurnError` for budgets, invalid decisions and provider failures.
 *
 * @example
 * ```ts
 * const outcome = await runTurn(context);
 * ```
 */
export async function runTurn(ctx: RunContext): Promise<RunOutcome> {
  const { assistant, limits } = ctx;
  const silent = ctx.outputMode === "host_tools";
  const live = new Map<string, ToolOutput>();
  let toolCalls = 0;
  const early = await ctx.resume?.(ctx, live);
  if (early) {
    ctx.close();
    return early;
  }
  for (;;) {
    if (ctx.usage.model_requests >= limits.maxModelRequests) {
      throw new TurnError(
        "usage_limit",
        `The turn reached its limit of ${limits.maxModelRequests} model requests.`,
      );
    }
    if (ctx.steering.length) {
      const text = ctx.steering.splice(0).join("\n\n");
      assistant.steps.push({ role: "user", content: [{ type: "text", text }] });
    }
    const segment = ctx.usage.model_requests++;
    const modelSpan = ctx.trace?.model(ctx.model.modelId);
    // Ends this model request alone (the turn's signal ends them all): past the tool-call
    // limit nothing the model still streams can be used, so it is not read any further.
    const request = new AbortController();
    // Forwarded by hand: AbortSignal.any() costs more than the rest of this setup on Node 20.
    const forward = () => request.abort(ctx.signal.reason);
    if (ctx.signal.aborted) forward();
    else ctx.signal.addEventListener("abort", forward, { once: true });
    const sent = ctx.requests.open({
      model: ctx.model,
      steps: assistant.steps,
      live,
      tools: ctx.tools,
      signal: request.signal,
    });
    const calls: ModelCall[] = [];
    let text = "";
    let cut = false;
    try {
      for await (const part of sent.parts) {
        if (part.type === "text-delta") {
          text += part.text;
          if (!silent && part.text) {
            await ctx.emit("assistant:text_delta", {
              type: "text_delta",
              content: part.text,
              segment_id: `${assistant.id}:${segment}`,
              segment_index: segment,
            });
          }
        } else if (part.type === "reasoning-delta") {
          if (!silent && part.text) {
            await ctx.emit("assistant:thinking_delta", {
              type: "thinking_delta",
              content: part.text,
            });
          }
        } else if (part.type === "tool-call") {
          calls.push(ctx.requests.unwrap(part as ModelCall));
          if (toolCalls + calls.length > limits.maxToolCalls) {
            cut = true;
            request.abort();
            break;
          }
        } else if (part.type === "error") {
          throw part.error;
        } else if (part.type === "abort") {
          throw Object.assign(new Error("The turn was cancelled."), { name: "AbortError" });
        }
      }
    } finally {
      ctx.signal.removeEventListener("abort", forward);
    }
    if (cut) {
      // Cut off past the limit: the calls read so far are recorded (and end cancelled), none runs.
      recordCutStep(assistant, text, calls, ctx, silent);
      throw toolCallLimit(limits);
    }
    const { response, usage } = await sent.finished();
    addUsage(ctx.usage, usage);
    modelSpan?.set({
      "gen_ai.usage.input_tokens": usage.inputTokens ?? 0,
      "gen_ai.usage.output_tokens": usage.outputTokens ?? 0,
    });
    modelSpan?.end();
    const messages = silent ? response.messages.map(stripProse) : response.messages;
    assistant.steps.push(...messages);
    if (!silent) assistant.text += text;
    const step = assistant.steps.length - 1;
    if (!calls.length) {
      // Steering that arrived during the last step gets a step of its own rather than being lost.
      if (!silent && ctx.steering.length) continue;
      ctx.close();
      return silent ? { kind: "hold" } : { kind: "final" };
    }

    const records = calls.map((c) => callRecord(c, ctx, step));
    assistant.calls.push(...records);

    if (silent) {
      const decision = silentDecision(records);
      if (decision) return decision;
    }

    const pended: Pended[] = [];
    const toPend: CallRecord[] = [];
    const toRun: CallRecord[] = [];
    for (const [i, call] of records.entries()) {
      if (call.status !== "running") continue;
      if (++toolCalls > limits.maxToolCalls) throw toolCallLimit(limits);
      const tool = ctx.tools.get(call.tool_name);
      const asked = performance.timeOrigin + performance.now();
      const admission = await admit(ctx, call, tool, calls[i]);
      traceGate(ctx, call, admission, asked);
      if (admission.kind === "refused") {
        call.status = "failed";
        call.error = admission.reason;
        if (!silent) {
          const extra = admission.policy ? { policy: admission.policy } : {};
          await ctx.emit("assistant:tool_error", toolErrorEvent(call, admission.reason, extra));
        }
        continue;
      }
      const kind = kindOf(call.category);
      const held = admission.kind === "held" ? { approval: admission.approval } : {};
      if (!silent) {
        await ctx.emit(
          "assistant:tool_call",
          toolCallEvent(call, { ...kind.describe?.(call), ...held }),
        );
      }
      if (admission.kind === "held") pended.push({ call, item: admission.item });
      else if (modeOf(kind, call) === "run") toRun.push(call);
      else toPend.push(call);
    }
    if (silent && pended.length + toPend.length === 0) {
      // The one proposed action was refused: let the model try again within the budgets.
      assistant.steps.push(toolMessage(records));
      continue;
    }
    for (const c of [...toPend, ...pended.map((p) => p.call)]) {
      c.status = "pending";
      // A call that waits (host, confirmation, approval) is a span of its handing over.
      const span = ctx.trace?.tool(c.tool_name, c.call_id, c.category, c.arguments);
      span?.set({ "tether.tool.status": "pending" });
      span?.end();
    }
    // Written before anything acts outside the runtime, so a crash leaves calls the next load
    // marks unknown. Held calls, and calls whose kind says they only wait, are recorded by the
    // final commit.
    const acts = (c: CallRecord) => kindOf(c.category).checkpoint?.(c) ?? true;
    if (toRun.some(acts) || toPend.some(acts)) await ctx.checkpoint();
    for (const call of toRun) {
      const span = ctx.trace?.tool(call.tool_name, call.call_id, call.category, call.arguments);
      await kindOf(call.category).run!(ctx, call, live);
      span?.end(call.status === "failed" ? "the tool failed" : undefined);
    }
    for (const call of toPend) {
      try {
        pended.push({
          call,
          item: await kindOf(call.category).pend!(ctx, call, ctx.tools.get(call.tool_name)!),
        });
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        call.status = "failed";
        call.error = (error as Error).message;
        await ctx.emit("assistant:tool_error", toolErrorEvent(call, call.error));
      }
    }
    if (pended.length) {
      // Keep the model's order: the first pended call of the response is handed out first.
      pended.sort((a, b) => records.indexOf(a.call) - records.indexOf(b.call));
      ctx.close();
      // Steering that arrived while the calls were planned is delivered when the model resumes.
      const steering = ctx.steering.splice(0);
      return {
        kind: "pending",
        pending: pendingAction(assistant.id, pended, ctx.outputMode, steering),
      };
    }
    assistant.steps.push(toolMessage(records));
  }
}

/** Records the gate's part of an admission as a span (validation refusals are not the gate's). */
function traceGate(
  ctx: RunContext,
  call: CallRecord,
  admission: Awaited<ReturnType<typeof admit>>,
  asked: number,
): void {
  if (!ctx.trace) return;
  if (admission.kind === "refused" && !admission.policy) return;
  const decision = admission.kind === "admitted"
    ? "allow"
    : admission.kind === "held"
    ? "ask"
    : "deny";
  const reason = admission.kind === "refused"
    ? admission.reason
    : admission.kind === "held"
    ? admission.approval.reason
    : null;
  ctx.trace.gate(call.tool_name, call.call_id, decision, reason, asked);
}
