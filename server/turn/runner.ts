/**
 * Runs the model part of a turn for the engine and records how it ended:
 * the live-turn bookkeeping (cancel, steering), the final commit of the
 * assistant message with its pending action, and the closing events.
 *
 * @module
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import type { HostContext } from "../../protocol/mod.ts";
import type { Limits, RuntimeOptions } from "../config.ts";
import type { EventHub } from "../events/hub.ts";
import { sessionError } from "../http/errors.ts";
import type { Principal } from "../http/principal.ts";
import type { AssistantMessage, SessionRecord, StoredMessage } from "../session/records.ts";
import type { LoadedSession, SessionRepo } from "../session/repo.ts";
import { type HistoryState, loadHistory } from "../history/state.ts";
import type { ModelProfile } from "../model/mod.ts";
import { profileOf } from "./_context_block.ts";
import { ModelRequests } from "./model_request.ts";
import { settleOpenCalls } from "../session/settle.ts";
import { allowAll, type PolicyHook } from "../tools/policy.ts";
import type { Tracer } from "../trace/tracer.ts";
import type { ScreenshotCache } from "../tools/screenshots.ts";
import type { RemoteTools } from "../remote-tools/remote_tools.ts";
import type { ExecutionScope } from "../remote-tools/client.ts";
import { executionScope } from "../remote-tools/turn_parts.ts";
import { classify, retryAllowed, type TurnError } from "./errors.ts";
import { type Offered, offerTools } from "./kinds/mod.ts";
import { type ChatResult, chatResult, finalEvent } from "./outcome.ts";
import { runTurn } from "./run.ts";
import type { RunContext, RunOutcome, Usage } from "./run_context.ts";
import { stampOf } from "../events/stamp.ts";
import { sessionEmitter, statusEvent } from "./events.ts";
import { RunRecorder } from "../inspect/recorder.ts";

/** The model a turn plans with. */
export interface EngineModel {
  model: LanguageModelV3;
  name: string;
  providerOptions?: Record<string, Record<string, unknown>>;
  /** Its provider's rules (window, output limit, caching); found from `model.provider` when absent. */
  profile?: ModelProfile;
}

/** A turn running in this process. */
export interface LiveTurn {
  controller: AbortController;
  steering: string[];
  /** False once the run's last model step is done: later steering becomes a turn of its own. */
  accepting: boolean;
  done: Promise<unknown>;
}

/** What one run of a turn needs. */
export interface RunInput {
  principal: Principal;
  record: SessionRecord;
  /** The assistant message's sequence number. */
  seq: number;
  assistant: AssistantMessage;
  /** The stored messages before the assistant message, replayed as the session's history state says. */
  past: LoadedSession["messages"];
  /** The session's history state, when the caller read it already (else it is read here). */
  history?: HistoryState | null;
  context: HostContext | null;
  model: EngineModel;
  limits: Limits;
  /** Steering held for this run (from a pending action). */
  steering?: string[];
  /** The turn's `started` event was already published (a continuation). */
  started?: boolean;
  /** The `id` of the body this turn answers (`request_id` on its status events). */
  request?: string;
  /** Work before the first model step (see `RunContext.resume`). */
  resume?: RunContext["resume"];
  /** The kinds' tools, asked for already (a new turn asks early); else the run asks. */
  offered?: Promise<Offered>;
  /** The execution scope `offered` was asked with (same request id). */
  scope?: ExecutionScope;
  /** The assistant message's key was never written (a new turn), unless a checkpoint writes it. */
  fresh?: boolean;
  /** The version `record` was committed at, when the caller just committed it. */
  version?: string;
}

/** What the runner shares with the engine. */
export interface TurnDeps {
  repo: SessionRepo;
  hub: EventHub;
  screenshots: ScreenshotCache;
  options: RuntimeOptions;
  /** The turns running in this process, by session. */
  live: Map<string, LiveTurn>;
  /** The policy gate's hook, used when `options.policy` is not given. */
  policy?: PolicyHook;
  /** Spans of turns, when an OTLP endpoint is configured. */
  tracer?: Tracer | null;
  /** The registered tool servers. */
  remote: RemoteTools;
}

/**
 * The model messages a stored message replays as.
 *
 * @example
 * ```ts
 * const history = messages.flatMap((m) => replay(m.message));
 * ```
 */
export function replay(message: StoredMessage): ModelMessage[] {
  return message.role === "user" ? [message.model] : message.steps;
}

/**
 * Runs a turn's model steps and records the outcome; never throws for a turn
 * error (provider, limit, cancel): those end in the result's `error_type`.
 *
 * @example
 * ```ts
 * const result = await runAndRecord(deps, input);
 * ```
 */
export async function runAndRecord(deps: TurnDeps, input: RunInput): Promise<ChatResult> {
  const { principal, record, seq, assistant, context, limits } = input;
  const { repo, hub, options } = deps;
  const model = { ...input.model, profile: profileOf(input.model, options) };
  const sid = record.session_id;
  const emit = sessionEmitter(hub, sid, stampOf(record));
  const controller = new AbortController();
  let finish!: () => void;
  const live: LiveTurn = {
    controller,
    steering: [...(input.steering ?? [])],
    accepting: true,
    done: new Promise<void>((r) => (finish = r)),
  };
  deps.live.set(sid, live);
  const usage: Usage = { input_tokens: 0, output_tokens: 0, total_tokens: 0, model_requests: 0 };
  const trace = deps.tracer?.turn(sid, model.name);
  let traceError: string | undefined = "the turn did not finish";
  let checkpointed = false;
  // What the inspector shows, recorded only while DEBUG__INSPECT is on (server/inspect/).
  const recorder = options.debug.inspect ? new RunRecorder(record.turn_number, model.name) : null;
  const inspected = (ctx: RunContext) => recorder?.watch(ctx) ?? ctx;
  try {
    if (!input.started) await emit("assistant:status", statusEvent("started", input.request));
    let outcome: RunOutcome = { kind: "final" };
    let failure: TurnError | null = null;
    try {
      const silent = assistant.output_mode === "host_tools";
      const scope = input.scope ?? (record.scope ? executionScope(record.scope) : null);
      const offered = await (input.offered ?? offerTools({
        sessionId: sid,
        options,
        context,
        outputMode: assistant.output_mode,
        scope,
        remote: deps.remote,
        fresh: false,
        warn: (message) => options.logger.warn(message),
      }));
      const history = input.history !== undefined
        ? input.history
        : await loadHistory(repo.store, sid);
      outcome = await runTurn(inspected({
        sessionId: sid,
        principal,
        model: model.model,
        requests: new ModelRequests({
          sessionId: sid,
          store: repo.store,
          model,
          options,
          past: input.past,
          seq,
          state: history,
          context,
          silent,
          usage,
        }),
        policy: options.policy ?? deps.policy ?? allowAll,
        trace,
        limits,
        outputMode: assistant.output_mode,
        assistant,
        tools: offered.tools,
        remote: scope ? { tools: deps.remote, scope } : null,
        signal: controller.signal,
        usage,
        screenshots: deps.screenshots,
        steering: live.steering,
        close: () => (live.accepting = false),
        emit,
        resume: input.resume,
        checkpoint: () => {
          checkpointed = true;
          return repo.saveAssistant(sid, seq, assistant);
        },
      }));
    } catch (error) {
      const cancelled = Object.assign(new Error("cancelled"), { name: "AbortError" });
      failure = classify(controller.signal.aborted ? cancelled : error);
      if (failure.type === "internal") {
        options.logger.error("turn failed", { session_id: sid, error });
      }
    }
    live.accepting = false;
    traceError = failure?.type;
    const next = settle(record, assistant, outcome, failure);
    recorder?.save(repo.store, sid, assistant, outcome, usage, failure, options.logger);
    // The pending action is written with the assistant message in one commit, before the event:
    // at the version the turn started from, else (the record changed meanwhile) at the one read
    // now; a session deleted meanwhile stays deleted.
    const fresh = input.fresh === true && !checkpointed;
    const writes = () => [repo.putMessage(sid, seq, assistant, fresh)];
    if (!input.version || !(await repo.commit(next, input.version, writes()))) {
      const entry = await repo.record(sid);
      // The listing is the stored record's (renamed, archived, listed where it is now).
      if (entry) next.listing = entry.value.listing;
      if (entry && !(await repo.commit(next, entry.version, writes()))) {
        throw sessionError(`Session ${sid} changed while the turn was being saved.`);
      }
    }
    const result = chatResult(next, assistant, outcome, usage, model.name);
    if (failure) Object.assign(result, { error: failure.message, error_type: failure.type });
    // The answer, its error and the turn's end go out as one: a crash cannot log one without the rest.
    await emit.all([
      {
        event: "assistant:final_response",
        payload: finalEvent(result, assistant.output_mode !== "host_tools"),
      },
      ...(failure
        ? [{
          event: "assistant:error" as const,
          payload: {
            type: "error" as const,
            message: failure.message,
            terminal: true,
            retry_allowed: retryAllowed(failure.type),
            error_type: failure.type,
          },
        }]
        : []),
      { event: "assistant:status", payload: statusEvent("completed", input.request) },
    ]);
    return result;
  } finally {
    trace?.set({
      "gen_ai.usage.input_tokens": usage.input_tokens,
      "gen_ai.usage.output_tokens": usage.output_tokens,
      "tether.model_requests": usage.model_requests,
    });
    trace?.end(traceError);
    deps.live.delete(sid);
    finish();
  }
}

/** Closes the assistant message for its outcome and returns the session record to write. */
function settle(
  record: SessionRecord,
  assistant: AssistantMessage,
  outcome: RunOutcome,
  failure: TurnError | null,
): SessionRecord {
  if (failure) {
    const closed = ["cancelled", "usage_limit", "invalid_decision"].includes(failure.type);
    settleOpenCalls(assistant, closed ? "cancelled" : "failed");
    assistant.status = failure.type === "cancelled" ? "cancelled" : "failed";
    assistant.error = failure.message;
    assistant.error_type = failure.type;
    return record;
  }
  if (outcome.kind === "pending") {
    assistant.status = "pending";
    assistant.decision = assistant.output_mode === "host_tools" ? "pending" : null;
    return { ...record, pending_action: outcome.pending };
  }
  settleOpenCalls(assistant, "cancelled");
  assistant.status = "completed";
  if (assistant.output_mode === "host_tools") assistant.decision = "hold";
  return record;
}
