/**
 * One model request of a turn, from the stored history to the provider's
 * stream. It builds what the model reads (the history as the session's
 * compaction state says, the turn's steps, each provider's rules), checks
 * the estimate against the model's budget and compacts when it would not
 * fit, sends it with the model's output limit, watches the stream for
 * silence, and answers a length refusal with one compaction and one retry
 * (a lost stored response with one retry that sends the history whole).
 * Provider refusals are logged with the provider's own words.
 *
 * @module
 */
import {
  jsonSchema,
  type LanguageModelUsage,
  type ModelMessage,
  streamText,
  type SystemModelMessage,
  type TextStreamPart,
  type ToolSet,
} from "ai";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { HostContext } from "../../protocol/mod.ts";
import type { RuntimeOptions } from "../config.ts";
import { planCompaction } from "../history/compact.ts";
import { requestTokens } from "../history/estimate.ts";
import { type HistoryState, initialState, saveHistory } from "../history/state.ts";
import { summarize, transcriptOf } from "../history/summary.ts";
import type { Item } from "../history/view.ts";
import type { Store } from "../kv/store.ts";
import { type Budget, budgetOf } from "../model/budget.ts";
import { modelFromSpec, type ModelProfile } from "../model/mod.ts";
import type { StoredMessage } from "../session/records.ts";
import type { ToolOutput } from "../tools/backend_tool.ts";
import type { TurnTool } from "../tools/turn_tools.ts";
import type { ModelCall } from "./_messages.ts";
import { historyView } from "./_history_view.ts";
import { isLengthRefusal, isLostReference, providerErrorFields } from "./_provider_errors.ts";
import { forProvider, withBreakpoints } from "./_request_messages.ts";
import { splitPrompt } from "./_prompt_prefix.ts";
import { resultParts } from "./_result_parts.ts";
import { orderedTools, type ToolDefinition, unwrapCall } from "./_roster.ts";
import { timed } from "./_timeouts.ts";
import { TurnError } from "./errors.ts";
import { SYSTEM_PROMPT } from "./prompt.ts";
import type { EngineModel } from "./runner.ts";

/** Token usage of a run, cached and cache-write tokens apart where the provider reports them. */
export type Usage = {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  model_requests: number;
  /** Input tokens read from the provider's prompt cache. */
  cache_read_tokens?: number;
  /** Input tokens written to the provider's prompt cache (Anthropic). */
  cache_write_tokens?: number;
};

/**
 * Adds one request's usage (the SDK's shape) to a run's.
 *
 * @example
 * ```ts
 * addUsage(ctx.usage, usage);
 * ```
 */
export function addUsage(total: Usage, usage: LanguageModelUsage | undefined): void {
  total.input_tokens += usage?.inputTokens ?? 0;
  total.output_tokens += usage?.outputTokens ?? 0;
  total.total_tokens += usage?.totalTokens ?? 0;
  const read = usage?.inputTokenDetails?.cacheReadTokens;
  const write = usage?.inputTokenDetails?.cacheWriteTokens;
  if (read !== undefined) total.cache_read_tokens = (total.cache_read_tokens ?? 0) + read;
  if (write !== undefined) total.cache_write_tokens = (total.cache_write_tokens ?? 0) + write;
}

/** What a turn's requests are built from. */
export interface RequestsSetup {
  sessionId: string;
  store: Store;
  model: EngineModel & { profile: ModelProfile };
  options: RuntimeOptions;
  /** The stored messages before the running assistant message. */
  past: readonly { seq: number; message: StoredMessage }[];
  /** The running assistant message's sequence number. */
  seq: number;
  /** The session's compaction state (null before its first). */
  state: HistoryState | null;
  context: HostContext | null;
  /** Silent decisions: no compaction, no summary (the host bounds what it sends). */
  silent: boolean;
  /** The run's usage, where a summary's tokens are added too. */
  usage: Usage;
}

/** One request as the turn reads it. */
export interface ModelStep {
  parts: AsyncIterable<TextStreamPart<ToolSet>>;
  /** The step's messages and usage, once its parts are read. */
  finished(): Promise<{ response: { messages: ModelMessage[] }; usage: LanguageModelUsage }>;
}

/** What one request is opened with. */
export interface OpenInput {
  /** The running assistant message's steps so far. */
  steps: ModelMessage[];
  /** Tool output shown in this run only (screenshots), by call id. */
  live: Map<string, ToolOutput>;
  /** The turn's tools. */
  tools: Map<string, TurnTool>;
  /** Ends this request (the turn's cancel, or the tool-call limit). */
  signal: AbortSignal;
  /** The model to send it to: the run's, which the inspector may have wrapped (default: the setup's). */
  model?: LanguageModelV3;
}

interface Built {
  messages: ModelMessage[];
  offered: ToolDefinition[];
  tokens: number;
  summary: boolean;
  turnStart: number;
  items: Item[];
}

const OUTPUT = new Set(["text-delta", "reasoning-delta", "tool-call", "tool-input-start"]);

/**
 * A turn's model requests.
 *
 * @example
 * ```ts
 * const requests = new ModelRequests(setup);
 * const step = requests.open({ steps: assistant.steps, live, tools: ctx.tools, signal });
 * for await (const part of step.parts) handle(part);
 * ```
 */
export class ModelRequests {
  readonly budget: Budget;
  #setup: RequestsSetup;
  #state: HistoryState | null;
  #offered: ToolDefinition[] = [];

  constructor(setup: RequestsSetup) {
    this.#setup = setup;
    this.#state = setup.state;
    const { options, model } = setup;
    this.budget = budgetOf(model.profile, options.modelOptions, options.history.budgetTokens);
  }

  /** The compaction state the last request was built with. */
  get state(): HistoryState | null {
    return this.#state;
  }

  /** A `page_action` call as the call of the action it names. */
  unwrap(call: ModelCall): ModelCall {
    return unwrapCall(call, this.#offered);
  }

  /** Starts one model request. */
  open(input: OpenInput): ModelStep {
    let done:
      | (() => Promise<{ response: { messages: ModelMessage[] }; usage: LanguageModelUsage }>)
      | null = null;
    const parts = this.#stream(input, (finished) => (done = finished));
    return {
      parts,
      finished: () =>
        done ? done() : Promise.reject(new Error("The model request did not finish.")),
    };
  }

  async *#stream(
    input: OpenInput,
    finish: (
      f: () => Promise<{ response: { messages: ModelMessage[] }; usage: LanguageModelUsage }>,
    ) => void,
  ): AsyncGenerator<TextStreamPart<ToolSet>> {
    const { model, options } = this.#setup;
    const { firstByteTimeoutMs, idleTimeoutMs } = options.modelOptions;
    let force = false;
    let storeOff = false;
    for (let attempt = 0;; attempt++) {
      const prepared = await this.#prepare(input, force);
      const request = new AbortController();
      // Forwarded by hand: AbortSignal.any() costs more than the rest of this setup on Node 20.
      const forward = () => request.abort(input.signal.reason);
      if (input.signal.aborted) forward();
      else input.signal.addEventListener("abort", forward, { once: true });
      let finished: { response: { messages: ModelMessage[] }; usage: LanguageModelUsage } | null =
        null;
      const requestOptions = storeOff
        ? { ...model.profile.requestOptions, openai: { store: false } }
        : model.profile.requestOptions;
      // The history before the last user message reaches the provider converted once a session.
      const split = await splitPrompt(
        this.#setup.sessionId,
        input.model ?? model.model,
        prepared.messages,
        request.signal,
      );
      const result = streamText({
        model: split.model,
        // Our own stable prompt, the only system message (it carries the cache breakpoint). Given
        // here, the SDK hands it to the provider without checking it against its message schema.
        system: prepared.system,
        messages: split.messages,
        tools: prepared.tools,
        maxOutputTokens: this.budget.outputTokens,
        ...(requestOptions ? { providerOptions: requestOptions as never } : {}),
        abortSignal: request.signal,
        maxRetries: 0,
        // Stored messages are never system messages; should one appear, the request fails.
        allowSystemInMessages: false,
        onFinish: (event) => void (finished = event),
        // The SDK's default prints the error (and a provider's response body, keys included) to
        // the console; the turn handles it through the stream and logs only through the logger.
        onError: () => {},
      });
      let output = false;
      let retry: "length" | "store" | null = null;
      try {
        const parts = timed(
          await resultParts(result),
          {
            firstByteMs: firstByteTimeoutMs,
            idleMs: idleTimeoutMs,
            first: (part) => part.type !== "start",
          },
          () => request.abort(),
          input.signal,
        );
        for await (const part of parts) {
          if (part.type === "error") {
            this.#logRefusal(part.error, attempt);
            if (!output && attempt === 0) {
              if (isLengthRefusal(part.error) && !this.#setup.silent) retry = "length";
              else if (isLostReference(part.error)) retry = "store";
            }
            if (retry) break;
          }
          if (OUTPUT.has(part.type)) output = true;
          yield part;
        }
      } finally {
        input.signal.removeEventListener("abort", forward);
        if (retry) request.abort();
      }
      if (!retry) {
        // onFinish runs before the stream closes; the promises are the fallback should it not have.
        finish(async () =>
          finished ?? { response: await result.response, usage: await result.usage }
        );
        return;
      }
      if (retry === "store") storeOff = true;
      else force = true;
    }
  }

  /** The system prompt, tools and messages of a request, compacted first when it would not fit. */
  async #prepare(input: OpenInput, force: boolean) {
    const { options, model, silent, context } = this.#setup;
    const systemText = options.instructions
      ? `${SYSTEM_PROMPT}\n\n${options.instructions}`
      : SYSTEM_PROMPT;
    const system: SystemModelMessage = {
      role: "system",
      content: systemText,
      ...(model.providerOptions ? { providerOptions: model.providerOptions as never } : {}),
    };
    const stable = model.profile.stableTools && !silent;
    if (stable && !this.#state?.actions && context?.actions?.length) {
      // The session's first page with actions fixes the roster (sessions from before it existed).
      this.#state = { ...(this.#state ?? initialState()), actions: context.actions };
      await saveHistory(this.#setup.store, this.#setup.sessionId, this.#state);
    }
    let built = this.#build(input, systemText, stable);
    if (!silent && (force || built.tokens > this.budget.requestTokens)) {
      await this.#compact(input, systemText, built, force);
      built = this.#build(input, systemText, stable);
    }
    if (built.tokens > this.budget.requestTokens) {
      throw new TurnError(
        "usage_limit",
        `This request comes to about ${built.tokens} tokens, more than the ${this.budget.requestTokens} this model's budget allows (MODEL__CONTEXT_TOKENS, HISTORY__BUDGET_TOKENS); send a shorter message or fewer attachments.`,
      );
    }
    this.#offered = built.offered;
    const tools: ToolSet = {};
    for (const t of built.offered) {
      tools[t.name] = {
        description: t.description,
        inputSchema: jsonSchema(t.parameters as never),
      } as never;
    }
    const breakpoints = model.profile.breakpoints;
    const messages = breakpoints
      ? withBreakpoints(
        built.messages,
        { summary: built.summary, turnStart: built.turnStart },
        breakpoints.max,
      )
      : built.messages;
    return { system, tools, messages };
  }

  #build(input: OpenInput, system: string, stable: boolean): Built {
    const { past, seq, model, context, sessionId } = this.#setup;
    const state = this.#state ?? initialState();
    const rules = `${model.profile.imagesInToolResults}:${this.budget.toolResultTokens}`;
    // Settled messages become what the provider reads once a session (`_history_view.ts`).
    const view = historyView(
      sessionId,
      past,
      { seq, steps: input.steps },
      state,
      rules,
      (m) => forProvider(m, model.profile, this.budget),
      input.live,
    );
    const offered = orderedTools(input.tools, context, stable ? state.actions : undefined);
    const tokens = requestTokens(system, offered, []) + view.tokens;
    return {
      messages: view.messages,
      offered,
      tokens,
      summary: view.summary,
      turnStart: view.turnStart,
      items: view.items,
    };
  }

  async #compact(input: OpenInput, system: string, built: Built, force: boolean): Promise<void> {
    const { options, model, store, sessionId, context, usage } = this.#setup;
    const history = options.history;
    const state = this.#state ?? initialState();
    const fixedTokens = requestTokens(system, built.offered, []);
    const target = Math.floor(
      Math.min(this.budget.requestTokens, force ? built.tokens : Infinity) * history.targetRatio,
    );
    const plan = planCompaction(built.items, state, {
      fixedTokens,
      targetTokens: target,
      keepTurns: history.keepTurns,
      protectedResults: history.protectedToolResults,
      summaryTokens: history.summaryTokens * 2,
    });
    if (!plan) return;
    let summary = state.summary;
    let summaryModel = state.summary_model;
    if (plan.summarise.length) {
      const writer = history.summaryModel
        ? modelFromSpec(history.summaryModel, options.env, {
          openaiStore: options.modelOptions.openaiStore,
        })
        : {
          model: model.model,
          name: model.name,
          offline: model.profile.provider === "offline",
          profile: model.profile,
        };
      const writerBudget = budgetOf(writer.profile, options.modelOptions);
      const written = await summarize({
        model: writer.offline ? null : writer.model,
        modelName: writer.name,
        previous: state.summary,
        entries: transcriptOf(plan.summarise),
        maxTokens: Math.min(history.summaryTokens, writerBudget.outputTokens),
        maxInputChars: Math.max(
          4_000,
          (writerBudget.requestTokens - history.summaryTokens - 1_000) * 2,
        ),
        providerOptions: writer.profile.requestOptions as
          | Record<string, Record<string, unknown>>
          | undefined,
        signal: AbortSignal.any([
          input.signal,
          AbortSignal.timeout(
            options.modelOptions.firstByteTimeoutMs + options.modelOptions.idleTimeoutMs || 120_000,
          ),
        ]),
        logger: options.logger,
        sessionId,
        usage,
      });
      summary = written.text;
      summaryModel = written.model;
    }
    const stable = model.profile.stableTools && !this.#setup.silent;
    this.#state = {
      ...plan.state,
      summary,
      ...(summaryModel ? { summary_model: summaryModel } : {}),
      ...(stable ? { actions: context?.actions ?? [] } : {}),
      updated_at: new Date().toISOString(),
    };
    await saveHistory(store, sessionId, this.#state);
    options.logger.info("history compacted", {
      session_id: sessionId,
      compactions: this.#state.compactions,
      summarised_messages: plan.summarise.length,
      tokens_before: built.tokens,
      tokens_after: plan.tokens,
      forced: force,
    });
  }

  #logRefusal(error: unknown, attempt: number): void {
    const { options, model, sessionId } = this.#setup;
    options.logger.warn("the model provider refused the request", {
      session_id: sessionId,
      model: model.name,
      attempt: attempt + 1,
      ...providerErrorFields(error),
    });
  }
}
