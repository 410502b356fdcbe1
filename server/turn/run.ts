/**
 * The turn loop: one model request at a time, every tool call through one
 * pipeline (arguments validated, policy decided, then run inside the turn or
 * pended for the host), budgets enforced, events published as they happen.
 *
 * @module
 */
import { jsonSchema, type ModelMessage, streamText, type ToolSet } from "ai";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { validateJsonSchema } from "../../protocol/mod.ts";
import type { Limits } from "../config.ts";
import type { Principal } from "../http/principal.ts";
import type { AssistantMessage, CallRecord, PendingAction } from "../session/records.ts";
import { decide, type PolicyHook } from "../tools/policy.ts";
import { HOLD, type TurnTool } from "../tools/turn_tools.ts";
import { extractScreenshots, type ScreenshotCache } from "../tools/screenshots.ts";
import type { ToolOutput } from "../tools/backend_tool.ts";
import { SYSTEM_PROMPT } from "./prompt.ts";
import { errorText, resultPart, toolMessage } from "./results.ts";
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

interface ModelCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  invalid?: boolean;
}

function sdkTools(tools: Map<string, TurnTool>): ToolSet {
  const out: ToolSet = {};
  for (const t of tools.values()) {
    out[t.name] = {
      description: t.description,
      inputSchema: jsonSchema(t.parameters as never),
    } as never;
  }
  return out;
}

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

/** Applies the silent-decision rules to one model response; null lets a single action through. */
function silentDecision(records: CallRecord[]): RunOutcome | null {
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

/** Validates arguments and asks the policy; returns the refusal text or null when admitted. */
async function admit(
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

async function runBackend(
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

/** Marks the end of the replayed history as a cache breakpoint too (Anthropic), so the whole stable prefix is cached. */
function cacheBreakpoint(
  history: ModelMessage[],
  options: RunContext["providerOptions"],
): ModelMessage[] {
  if (!options || !history.length) return history;
  const last = history.at(-1)!;
  return [...history.slice(0, -1), { ...last, providerOptions: options } as ModelMessage];
}

function stripProse(message: ModelMessage): ModelMessage {
  if (message.role !== "assistant" || typeof message.content === "string") {
    return message.role === "assistant" ? { ...message, content: [] } : message;
  }
  return { ...message, content: message.content.filter((p) => p.type === "tool-call") };
}

/** Replaces stored placeholders with content shown live in this run (images are never stored). */
function withLive(steps: ModelMessage[], live: Map<string, ToolOutput>): ModelMessage[] {
  if (!live.size) return steps;
  return steps.map((m) => {
    if (m.role !== "tool") return m;
    return {
      ...m,
      content: m.content.map((p) =>
        p.type === "tool-result" && live.has(p.toolCallId)
          ? { ...p, output: live.get(p.toolCallId) as never }
          : p
      ),
    };
  });
}

export { resultPart };
