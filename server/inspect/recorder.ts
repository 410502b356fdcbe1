/**
 * What the inspector shows of a run of a turn, recorded as it happens and
 * only while `DEBUG__INSPECT=true`: the prompt exactly as the model received
 * it (the wrapped model sees the provider's own call, so the context blocks
 * are the runtime's rendering, wherever the runtime builds them), the tools
 * offered with their kinds, each model request's usage and timings, and the
 * policy's decision and reason for every call. Bounded: text is cut at fixed
 * sizes, lists at fixed lengths (see the constants).
 *
 * @module
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import type { AssistantMessage, StoredPending } from "../session/records.ts";
import { waitingOf } from "../session/pending.ts";
import type {
  CallInspection,
  ContextBlock,
  RequestRecord,
  RunInspection,
} from "../../protocol/mod.ts";
import type { PolicyDecision, PolicyHook } from "../tools/policy.ts";
import type { TurnTool } from "../tools/turn_tools.ts";
import type { RunContext, RunOutcome } from "../turn/run_context.ts";
import { kindOf } from "../turn/kinds/mod.ts";
import type { Store } from "../kv/store.ts";
import type { Logger } from "../log.ts";
import { saveRun } from "./inspections.ts";

/** Characters kept of all the context blocks of one run together. */
export const CONTEXT_CHARS = 32_000;
/** Tools, model requests and calls kept per run. */
export const MAX_TOOLS = 64;
export const MAX_REQUESTS = 16;
export const MAX_CALLS = 32;
/** Characters kept of a description, a reason or an error. */
const TEXT_CHARS = 500;

const cut = (text: string, max = TEXT_CHARS) =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

/** An estimate of a text's tokens: about four characters each. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

const BLOCK = /<([a-z][a-z_]*)>\n[\s\S]*?\n<\/\1>/g;

/**
 * The fenced blocks of the last user message of a prompt that holds any:
 * what the model was given about the page and the tool servers, as rendered.
 *
 * @example
 * ```ts
 * contextBlocks(options.prompt)[0]?.tag; // "host_context"
 * ```
 */
export function contextBlocks(prompt: LanguageModelV3Prompt): ContextBlock[] {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message.role !== "user") continue;
    const text = message.content.map((p) => (p.type === "text" ? p.text : "")).join("\n");
    const blocks: ContextBlock[] = [];
    let budget = CONTEXT_CHARS;
    for (const [whole, tag] of text.matchAll(BLOCK)) {
      const kept = whole.slice(0, Math.max(0, budget));
      budget -= kept.length;
      blocks.push({
        tag,
        text: kept,
        tokens: estimateTokens(whole),
        ...(kept.length < whole.length ? { truncated: true } : {}),
      });
    }
    if (blocks.length) return blocks;
  }
  return [];
}

/**
 * Records one run. `model()` and `policy()` wrap what the run uses;
 * `finish()` makes the record.
 *
 * @example
 * ```ts
 * const recorder = new RunRecorder(1, "offline");
 * const model = recorder.model(engineModel.model);
 * ```
 */
export class RunRecorder {
  #turn: number;
  #model: string;
  #started = Date.now();
  #context: ContextBlock[] = [];
  #tools: RunInspection["tools"] = [];
  #requests: RequestRecord[] = [];
  #decisions = new Map<string, PolicyDecision>();

  constructor(turn: number, model: string) {
    this.#turn = turn;
    this.#model = model;
  }

  /**
   * The run's context with its model and policy hook wrapped, its offered tools noted.
   *
   * @example
   * ```ts
   * outcome = await runTurn(recorder.watch(ctx));
   * ```
   */
  watch(ctx: RunContext): RunContext {
    this.offered(ctx.tools);
    return { ...ctx, model: this.model(ctx.model), policy: this.policy(ctx.policy) };
  }

  /** The tools the run offers, with their kinds. */
  offered(tools: Map<string, TurnTool>): void {
    this.#tools = [...tools.values()].slice(0, MAX_TOOLS).map((t) => ({
      name: t.name,
      kind: t.category,
      ...kindOf(t.category).inspect?.(t),
      description: cut(t.description),
    }));
  }

  /** The policy hook, recording each decision by call id. */
  policy(hook: PolicyHook): PolicyHook {
    return async (request) => {
      const decision = await hook(request);
      if (this.#decisions.size < MAX_CALLS) this.#decisions.set(request.callId, decision);
      return decision;
    };
  }

  /** The model, recording each request's prompt, tools, usage and timings. */
  model(inner: LanguageModelV3): LanguageModelV3 {
    const start = (options: LanguageModelV3CallOptions): RequestRecord | null => {
      const context = contextBlocks(options.prompt);
      if (context.length) this.#context = context;
      if (this.#requests.length >= MAX_REQUESTS) return null;
      const request: RequestRecord = {
        started_at: new Date().toISOString(),
        first_chunk_ms: null,
        duration_ms: null,
        finish_reason: null,
        usage: null,
        tools: (options.tools ?? []).slice(0, MAX_TOOLS).map((t) => t.name),
      };
      this.#requests.push(request);
      return request;
    };
    return {
      specificationVersion: inner.specificationVersion,
      provider: inner.provider,
      modelId: inner.modelId,
      supportedUrls: inner.supportedUrls,
      doGenerate: (options) => inner.doGenerate(options),
      doStream: async (options) => {
        const request = start(options);
        const began = performance.now();
        let result;
        try {
          result = await inner.doStream(options);
        } catch (error) {
          if (request) request.error = cut(String((error as Error)?.message ?? error));
          throw error;
        }
        if (!request) return result;
        const watch = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
          transform(part, controller) {
            request.first_chunk_ms ??= Math.round(performance.now() - began);
            if (part.type === "finish") {
              const { inputTokens, outputTokens } = part.usage;
              request.usage = {
                input_tokens: inputTokens.total ?? 0,
                output_tokens: outputTokens.total ?? 0,
                cached_input_tokens: inputTokens.cacheRead ?? 0,
              };
              request.finish_reason = part.finishReason.unified;
            } else if (part.type === "error") {
              request.error = cut(String((part.error as Error)?.message ?? part.error));
            }
            controller.enqueue(part);
          },
          flush() {
            request.duration_ms = Math.round(performance.now() - began);
          },
        });
        return { ...result, stream: result.stream.pipeThrough(watch) };
      },
    };
  }

  /** Makes the run's record and stores it without waiting (a failure is logged, the turn goes on). */
  save(
    store: Store,
    sessionId: string,
    assistant: AssistantMessage,
    outcome: RunOutcome,
    usage: RunInspection["usage"],
    failure: { type: string; message: string } | null,
    logger: Logger,
  ): void {
    const pending = outcome.kind === "pending" ? outcome.pending : null;
    const run = this.finish(assistant, pending, usage, failure ?? undefined);
    saveRun(store, sessionId, run).catch((error) =>
      logger.warn("the inspector's record of a turn was not stored", {
        session_id: sessionId,
        error,
      })
    );
  }

  /** The record of the run as it ended. */
  finish(
    assistant: AssistantMessage,
    pending: StoredPending | null,
    usage: RunInspection["usage"],
    error?: { type: string; message: string },
  ): RunInspection {
    const verbs = new Map(this.#tools.filter((t) => t.verb).map((t) => [t.name, t.verb!]));
    const waits = new Map<string, string>();
    if (pending) {
      waits.set(pending.tool_call_id, waitingOf(pending));
      for (const q of pending.queued) waits.set(q.call_id, waitingOf(q));
    }
    return {
      turn: this.#turn,
      started_at: new Date(this.#started).toISOString(),
      duration_ms: Date.now() - this.#started,
      model: this.#model,
      output_mode: assistant.output_mode,
      status: assistant.status,
      context: this.#context,
      tools: this.#tools,
      requests: this.#requests,
      calls: assistant.calls.slice(-MAX_CALLS).map((c): CallInspection => {
        const decision = this.#decisions.get(c.call_id);
        return {
          call_id: c.call_id,
          tool_name: c.tool_name,
          kind: c.category,
          status: c.status,
          waiting_for: waits.get(c.call_id) ?? null,
          policy: decision
            ? {
              decision: decision.decision,
              reason: "reason" in decision ? cut(decision.reason) : null,
            }
            : null,
          // A remote tool's verb, from the tool as offered (the call's kind keeps its own data).
          ...(verbs.has(c.tool_name) ? { verb: verbs.get(c.tool_name) } : {}),
          ...(c.error ? { error: cut(c.error) } : {}),
        };
      }),
      usage,
      ...(error ? { error: { type: error.type, message: cut(error.message) } } : {}),
    };
  }
}
