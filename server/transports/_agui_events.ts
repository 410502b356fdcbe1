/**
 * Session events in AG-UI terms, for one run: RUN_STARTED declares the
 * protocol version the run speaks; text deltas become text messages (one
 * per model step, `messageId` = the step's `segment_id`), thinking becomes
 * reasoning messages, every tool call becomes TOOL_CALL_START/ARGS/END, the
 * results of the calls Tether runs follow as TOOL_CALL_RESULT (as text: the
 * images a tool shows the model are never put in the event log), and the
 * run ends with RUN_FINISHED naming the calls left for
 * the application (`pendingToolCallIds`), with the final answer as `result`
 * and the token usage, cancelled when the turn was stopped, or with
 * RUN_ERROR when it failed. A frontend tool's result is the application's:
 * Tether never answers one in the stream, not even to echo the answer it was
 * given.
 *
 * @module
 */
import { EventType } from "@ag-ui/core";
import type { ToolErrorEvent, ToolResultEvent } from "../../protocol/mod.ts";
import type { SessionEvent } from "../events/hub.ts";

/**
 * One AG-UI event as it goes on the wire.
 *
 * @example
 * ```ts
 * const event: AguiEvent = { type: EventType.RUN_STARTED, threadId: "t1", runId: "r1" };
 * ```
 */
export type AguiEvent = { type: EventType } & Record<string, unknown>;

/**
 * Translates one run's session events to AG-UI events.
 *
 * @example
 * ```ts
 * const run = new AguiRun("thread-1", "run-1");
 * const out = [run.start(), ...events.flatMap((e) => run.translate(e)), ...run.finish()];
 * ```
 */
/** What the translator knows of the run beyond its ids. */
export interface AguiRunOptions {
  /** What RUN_STARTED declares (default 1.1). */
  protocolVersion?: string;
  /** The frontend tools' names: their calls are answered by the application, never here. */
  frontendTools?: ReadonlySet<string>;
  /** The calls this run's input answered (their announced answers are not echoed). */
  answered?: ReadonlySet<string>;
}

/** A positive count, or nothing: an absent count means the provider gave none. */
const counted = (n: unknown) => (typeof n === "number" && n > 0 ? n : undefined);

export class AguiRun {
  #threadId: string;
  #runId: string;
  #options: AguiRunOptions;
  #text: string | null = null;
  #lastText: string | null = null;
  #reasoning: string | null = null;
  #reasonings = 0;
  #pending: string[] = [];
  /** Whether the turn stopped on a call held for approval. */
  #holding = false;
  /** The final answer of the run, for RUN_FINISHED `result`. */
  #result: Record<string, unknown> | null = null;
  /** Token usage of the run, for RUN_FINISHED `usage`. */
  #usage:
    | {
      provider?: string;
      model: string;
      inputTokens?: number;
      outputTokens?: number;
      totalTokens?: number;
    }[]
    | null = null;
  #failure: { message: string; code?: string } | null = null;

  constructor(threadId: string, runId: string, options: AguiRunOptions = {}) {
    this.#threadId = threadId;
    this.#runId = runId;
    this.#options = options;
  }

  /** RUN_STARTED, with the version the run speaks. */
  start(): AguiEvent {
    return {
      type: EventType.RUN_STARTED,
      threadId: this.#threadId,
      runId: this.#runId,
      protocolVersion: this.#options.protocolVersion ?? "1.1",
    };
  }

  /** Whether the turn's last answer stopped on a call held for a person's approval. */
  get holding(): boolean {
    return this.#holding;
  }

  /** Whether a result event announces an answer the application gave, rather than one Tether made. */
  #applicationsOwn(p: ToolResultEvent | ToolErrorEvent): boolean {
    if (this.#options.frontendTools?.has(p.tool_name)) return true;
    // An answer recorded from the input is announced without a duration; a call Tether ran has one.
    return !!this.#options.answered?.has(p.call_id) &&
      (p.type === "tool_error" || p.duration_ms === undefined);
  }

  /** The AG-UI events of one session event (often none). */
  translate({ event, payload: p }: SessionEvent): AguiEvent[] {
    const out: AguiEvent[] = [];
    switch (event) {
      case "assistant:text_delta": {
        const id = typeof p.segment_id === "string" ? p.segment_id : `${this.#runId}:text`;
        this.#closeReasoning(out);
        if (this.#text !== id) {
          this.#closeText(out);
          out.push({ type: EventType.TEXT_MESSAGE_START, messageId: id, role: "assistant" });
          this.#text = this.#lastText = id;
        }
        out.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: id, delta: p.content });
        break;
      }
      case "assistant:thinking_delta": {
        this.#closeText(out);
        if (!this.#reasoning) {
          const id = this.#reasoning = `${this.#runId}:reasoning:${++this.#reasonings}`;
          out.push({ type: EventType.REASONING_START, messageId: id });
          out.push({ type: EventType.REASONING_MESSAGE_START, messageId: id, role: "reasoning" });
        }
        out.push({
          type: EventType.REASONING_MESSAGE_CONTENT,
          messageId: this.#reasoning,
          delta: p.content,
        });
        break;
      }
      case "assistant:tool_call": {
        this.#closeText(out);
        this.#closeReasoning(out);
        const toolCallId = p.call_id;
        const parentMessageId = this.#lastText ?? `${this.#runId}:calls`;
        out.push({
          type: EventType.TOOL_CALL_START,
          toolCallId,
          toolCallName: p.tool_name,
          parentMessageId,
        });
        out.push({
          type: EventType.TOOL_CALL_ARGS,
          toolCallId,
          delta: JSON.stringify(p.arguments),
        });
        out.push({ type: EventType.TOOL_CALL_END, toolCallId });
        break;
      }
      case "assistant:tool_result":
      case "assistant:tool_error": {
        if (this.#applicationsOwn(p)) break;
        // A tool's images go to the model, never into the durable event log, so the result is its text.
        const content = p.type === "tool_error" ? p.error : JSON.stringify(p.output ?? null);
        out.push({
          type: EventType.TOOL_CALL_RESULT,
          messageId: `${p.call_id}:result`,
          toolCallId: p.call_id,
          content,
          role: "tool",
        });
        break;
      }
      case "assistant:final_response": {
        const pending = p.pending_tool_call;
        this.#pending = pending ? [pending.call_id, ...pending.queued] : [];
        this.#holding = pending?.waiting_for === "approval";
        this.#result = { content: p.content ?? null, model: p.model, message_id: p.message_id };
        const usage = p.usage;
        const inputTokens = counted(usage?.input_tokens);
        const outputTokens = counted(usage?.output_tokens);
        if (inputTokens !== undefined || outputTokens !== undefined) {
          const model = p.model ?? "";
          const provider = model.includes(":") ? model.split(":")[0].toLowerCase() : undefined;
          this.#usage = [{
            ...(provider ? { provider } : {}),
            model,
            ...(inputTokens !== undefined ? { inputTokens } : {}),
            ...(outputTokens !== undefined ? { outputTokens } : {}),
            // The protocol's total is input plus output, computed here rather than copied.
            ...(inputTokens !== undefined && outputTokens !== undefined
              ? { totalTokens: inputTokens + outputTokens }
              : {}),
          }];
        }
        if (p.error) {
          this.#failure = {
            message: p.error,
            code: p.error_type ?? undefined,
          };
        }
        break;
      }
      case "assistant:error":
        if (p.type === "error") {
          this.#failure = {
            message: p.message,
            code: p.error_type ?? undefined,
          };
        }
        break;
    }
    return out;
  }

  /** Closes what is open, then RUN_FINISHED (or RUN_ERROR when the turn failed). */
  finish(failure?: { message: string; code?: string }): AguiEvent[] {
    const out: AguiEvent[] = [];
    this.#closeText(out);
    this.#closeReasoning(out);
    const failed = failure ?? this.#failure;
    if (failed?.code === "cancelled") {
      out.push({
        type: EventType.RUN_FINISHED,
        threadId: this.#threadId,
        runId: this.#runId,
        outcome: { type: "cancelled" },
      });
    } else if (failed) {
      out.push({
        type: EventType.RUN_ERROR,
        message: failed.message,
        ...(failed.code ? { code: failed.code } : {}),
      });
    } else {
      const outcome = {
        type: "success",
        ...(this.#pending.length ? { pendingToolCallIds: this.#pending } : {}),
      };
      out.push({
        type: EventType.RUN_FINISHED,
        threadId: this.#threadId,
        runId: this.#runId,
        outcome,
        ...(this.#result ? { result: this.#result } : {}),
        ...(this.#usage ? { usage: this.#usage } : {}),
      });
    }
    return out;
  }

  #closeText(out: AguiEvent[]): void {
    if (!this.#text) return;
    out.push({ type: EventType.TEXT_MESSAGE_END, messageId: this.#text });
    this.#text = null;
  }

  #closeReasoning(out: AguiEvent[]): void {
    if (!this.#reasoning) return;
    out.push({ type: EventType.REASONING_MESSAGE_END, messageId: this.#reasoning });
    out.push({ type: EventType.REASONING_END, messageId: this.#reasoning });
    this.#reasoning = null;
  }
}
