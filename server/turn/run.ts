/**
 * The turn loop: one model request at a time, every tool call through one
 * pipeline (arguments validated, policy decided, then run inside the turn or
 * pended for the host), budgets enforced, events published as they happen.
 *
 * @module
 */
import { type ModelMessage, streamText } from "ai";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { Limits } from "../config.ts";
import type { Principal } from "../http/principal.ts";
import type { AssistantMessage, CallRecord, PendingAction } from "../session/records.ts";
import type { PolicyHook } from "../tools/policy.ts";
import type { TurnTool } from "../tools/turn_tools.ts";
import type { ScreenshotCache } from "../tools/screenshots.ts";
import type { ToolOutput } from "../tools/backend_tool.ts";
import { SYSTEM_PROMPT } from "./prompt.ts";
import { toolMessage } from "./results.ts";
import { admit, runBackend, silentDecision } from "./calls.ts";
import { cacheBreakpoint, type ModelCall, sdkTools, stripProse, withLive } from "./_messages.ts";
import { TurnError } from "./errors.ts";

/** Token usage of a run. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  model_requests: number;
}

/** What a run needs from the engine. */
export interface RunContext {
  sessionId: string;
  principal: Principal;
  model: LanguageModelV3;
  providerOptions?: Record<string, Record<string, unknown>>;
  instructions?: string;
  policy: PolicyHook;
  limits: Limits;
  outputMode: "text" | "host_tools";
  /** Every message before this assistant message, replayed verbatim. */
  history: ModelMessage[];
  assistant: AssistantMessage;
  tools: Map<string, TurnTool>;
  signal: AbortSignal;
  usage: Usage;
  screenshots: ScreenshotCache;
  /** Steering text waiting for the next model step (transports push here). */
  steering: string[];
  /** Called once the run takes no more steering (its last model step is done). */
  close(): void;
  emit(event: string, payload: Record<string, unknown>): Promise<unknown>;
  /** Writes the assistant message as it is now (before tools run, so a crash leaves a record). */
  checkpoint(): Promise<void>;
}

/** How a run ended. */
export type RunOutcome =
  | { kind: "final" }
  | { kind: "pending"; pending: PendingAction }
  | { kind: "hold" };

/**
 * Runs model steps until the turn ends with text, a pending host call or a hold.
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
  const tools = sdkTools(ctx.tools);
  const live = new Map<string, ToolOutput>();
  let toolCalls = 0;
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
    const system: ModelMessage = {
      role: "system",
      content: ctx.instructions ? `${SYSTEM_PROMPT}\n\n${ctx.instructions}` : SYSTEM_PROMPT,
      ...(ctx.providerOptions ? { providerOptions: ctx.providerOptions as never } : {}),
    };
    const result = streamText({
      model: ctx.model,
      messages: [
        system,
        ...cacheBreakpoint(ctx.history, ctx.providerOptions),
        ...withLive(assistant.steps, live),
      ],
      tools,
      abortSignal: ctx.signal,
      maxRetries: 0,
      // The only system message is our own stable prompt (it carries the cache breakpoint).
      allowSystemInMessages: true,
    });
    const calls: ModelCall[] = [];
    let text = "";
    for await (const part of result.fullStream) {
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
        calls.push(part as ModelCall);
      } else if (part.type === "error") {
        throw part.error;
      } else if (part.type === "abort") {
        throw Object.assign(new Error("The turn was cancelled."), { name: "AbortError" });
      }
    }
    const [response, usage] = await Promise.all([result.response, result.usage]);
    ctx.usage.input_tokens += usage.inputTokens ?? 0;
    ctx.usage.output_tokens += usage.outputTokens ?? 0;
    ctx.usage.total_tokens += usage.totalTokens ?? 0;
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

    const records = calls.map((c): CallRecord => ({
      call_id: c.toolCallId,
      tool_name: c.toolName,
      category: ctx.tools.get(c.toolName)?.category ?? "backend",
      arguments: (c.input && typeof c.input === "object" ? c.input : {}) as Record<string, unknown>,
      step,
      status: "running",
    }));
    assistant.calls.push(...records);

    if (silent) {
      const decision = silentDecision(records);
      if (decision) return decision;
    }

    const hostCalls: CallRecord[] = [];
    const backendCalls: CallRecord[] = [];
    for (const [i, call] of records.entries()) {
      if (call.status !== "running") continue;
      if (++toolCalls > limits.maxToolCalls) {
        throw new TurnError(
          "usage_limit",
          `The turn reached its limit of ${limits.maxToolCalls} tool calls.`,
        );
      }
      const tool = ctx.tools.get(call.tool_name);
      const refusal = await admit(ctx, call, tool, calls[i]);
      if (refusal) {
        call.status = "failed";
        call.error = refusal;
        if (!silent) {
          await ctx.emit("assistant:tool_error", {
            type: "tool_error",
            tool_name: call.tool_name,
            error: refusal,
            call_id: call.call_id,
          });
        }
        continue;
      }
      if (!silent) {
        await ctx.emit("assistant:tool_call", {
          type: "tool_call",
          tool_name: call.tool_name,
          arguments: call.arguments,
          call_id: call.call_id,
          category: call.category,
        });
      }
      (tool!.category === "backend" ? backendCalls : hostCalls).push(call);
    }
    if (silent && hostCalls.length === 0) {
      // The one proposed action was refused: let the model try again within the budgets.
      assistant.steps.push(toolMessage(records));
      continue;
    }
    if (hostCalls.length || backendCalls.length) {
      for (const c of hostCalls) c.status = "pending";
      await ctx.checkpoint();
    }
    for (const call of backendCalls) {
      await runBackend(ctx, call, ctx.tools.get(call.tool_name)!, live);
    }
    if (hostCalls.length) {
      const [first, ...rest] = hostCalls;
      ctx.close();
      const steering = ctx.steering.splice(0);
      return {
        kind: "pending",
        pending: {
          tool_call_id: first.call_id,
          tool_name: first.tool_name,
          assistant_message_id: assistant.id,
          arguments: first.arguments,
          queued: rest.map((c) => ({
            call_id: c.call_id,
            tool_name: c.tool_name,
            arguments: c.arguments,
          })),
          waiting_for: "host",
          output_mode: ctx.outputMode,
          // Steering that arrived while the host calls were planned is delivered when the model resumes.
          ...(steering.length ? { steering } : {}),
        },
      };
    }
    assistant.steps.push(toolMessage(records));
  }
}
