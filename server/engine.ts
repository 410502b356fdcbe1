/**
 * The engine: sessions, turns, pending host calls and continuations, on top
 * of a store. Transports (HTTP, SSE, Socket.IO, AG-UI) call it and subscribe
 * to its event hub; none of them decides anything about a session.
 *
 * @module
 */
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import type { HostContext, MessageBody } from "../protocol/mod.ts";
import type { RuntimeOptions } from "./config.ts";
import type { Store } from "./kv/store.ts";
import { EventHub } from "./events/hub.ts";
import { forbidden, notFound, sessionError, validationError } from "./http/errors.ts";
import { mayAccess, type Principal } from "./http/principal.ts";
import { KeyedLock } from "./session/lock.ts";
import type {
  AssistantMessage,
  PendingAction,
  SessionRecord,
  StoredMessage,
  UserMessage,
} from "./session/records.ts";
import { type LoadedSession, messageIdKey, SessionRepo } from "./session/repo.ts";
import { settleOpenCalls } from "./session/settle.ts";
import { repairSession, supersedePending } from "./session/repair.ts";
import { refusal } from "./session/refusal.ts";
import { lookAtScreen } from "./tools/look_at_screen.ts";
import { allowAll } from "./tools/policy.ts";
import { ScreenshotCache } from "./tools/screenshots.ts";
import { HOLD, turnTools } from "./tools/turn_tools.ts";
import { classify, retryAllowed, type TurnError } from "./turn/errors.ts";
import { attachmentParts, renderHostContext, userMessage } from "./turn/prompt.ts";
import { hostOutcomeEvent, toolMessage } from "./turn/results.ts";
import { type ChatResult, chatResult, effectiveLimits, finalEvent } from "./turn/outcome.ts";
export type { ChatResult };
import { type RunOutcome, runTurn, type Usage } from "./turn/run.ts";
import { messageView, type SessionView, sessionView } from "./session/views.ts";
import { collectScreenshot, mergeAttachments } from "./session/attachments.ts";
import { extractScreenshots } from "./tools/screenshots.ts";
import { modelFromSpec } from "./model/mod.ts";
import type { Limits } from "./config.ts";
import { CONTROL_CHANNEL, isShared, SessionLeases } from "./session/leases.ts";

/** The model the engine plans with. */
export interface EngineModel {
  model: LanguageModelV3;
  name: string;
  providerOptions?: Record<string, Record<string, unknown>>;
}

/** What one run of a turn needs. */
interface RunInput {
  principal: Principal;
  record: SessionRecord;
  /** The assistant message's sequence number. */
  seq: number;
  assistant: AssistantMessage;
  history: ModelMessage[];
  context: HostContext | null;
  model: EngineModel;
  limits: Limits;
  /** Steering held for this run (from a pending action). */
  steering?: string[];
  /** The turn's `started` event was already published (a continuation). */
  started?: boolean;
}

interface LiveTurn {
  controller: AbortController;
  steering: string[];
  /** False once the run's last model step is done: later steering becomes a turn of its own. */
  accepting: boolean;
  done: Promise<unknown>;
}

const now = () => new Date().toISOString();
const newId = (prefix: string) =>
  `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;

/**
 * Runs turns for every session of one store.
 *
 * @example
 * ```ts
 * const engine = new Engine(memoryStore(), resolveOptions(), { model: offlineModel(), name: "offline" });
 * const result = await engine.chat({ id: "local", roles: [] }, { session_id: "s1", content: "hi" });
 * ```
 */
export class Engine {
  readonly hub: EventHub;
  readonly repo: SessionRepo;
  readonly options: RuntimeOptions;
  readonly model: EngineModel;
  readonly screenshots = new ScreenshotCache();
  #locks = new KeyedLock();
  #live = new Map<string, LiveTurn>();
  #models = new Map<string, EngineModel>();
  #leases: SessionLeases | null;
  #stopControl: (() => Promise<void>) | null = null;

  constructor(store: Store, options: RuntimeOptions, model: EngineModel) {
    this.options = options;
    this.model = model;
    this.repo = new SessionRepo(store);
    const shared = isShared(store);
    this.hub = new EventHub(store, options.limits.eventLogSize, shared);
    this.#leases = shared ? new SessionLeases(store, options.limits.leaseTtlMs) : null;
  }

  /** Starts listening to other processes (shared stores): their events and cancel requests. */
  async start(): Promise<void> {
    await this.hub.start();
    if (this.#leases) {
      this.#stopControl = await this.store.subscribe(CONTROL_CHANNEL, (message) => {
        const m = message as { kind?: string; session?: string };
        if (m?.kind === "cancel" && m.session) this.#live.get(m.session)?.controller.abort();
      });
    }
  }

  /** Stops listening to other processes and waits for pending log writes. */
  async stop(): Promise<void> {
    await this.#stopControl?.();
    await this.hub.stop();
  }

  /** The store the engine uses. */
  get store(): Store {
    return this.repo.store;
  }

  /** Runs one message (a new turn, a continuation or a receipt) to its end. */
  chat(
    principal: Principal,
    body: MessageBody,
    options: { promoted?: boolean } = {},
  ): Promise<ChatResult> {
    // A streaming transport promotes steering to a turn of its own when the session is idle.
    if (body.message_type === "steering" && !options.promoted) {
      throw validationError(
        "Steering messages need a streaming transport (Socket.IO or Accept: text/event-stream).",
        [{ path: "message_type", message: "steering is not available here" }],
      );
    }
    if (
      body.output_mode === "host_tools" && body.host_context?.actions?.some((a) => a.name === HOLD)
    ) {
      throw validationError(
        'The action name "hold" is reserved for silent decisions; rename the action.',
        [{ path: "host_context.actions", message: "hold is reserved" }],
      );
    }
    const model = this.#modelFor(body.config?.model);
    return this.withSession(body.session_id, () => this.#message(principal, body, model));
  }

  /** The model a request's `config.model` picks: only the default or one of `allowedModels`. */
  #modelFor(spec: string | undefined): EngineModel {
    if (!spec || spec === this.model.name) return this.model;
    if (!this.options.allowedModels.includes(spec)) {
      throw validationError(
        `config.model "${spec}" is not allowed here; use one of MODEL__ALLOWED or leave it out.`,
        [{ path: "config.model", message: "not an allowed model" }],
      );
    }
    let model = this.#models.get(spec);
    if (!model) {
      const selected = modelFromSpec(spec, this.options.env);
      model = {
        model: selected.model,
        name: selected.name,
        providerOptions: selected.providerOptions as EngineModel["providerOptions"],
      };
      this.#models.set(spec, model);
    }
    return model;
  }

  /**
   * Serialises work on one session: in this process with a keyed lock, and
   * across processes (shared stores) with the session's lease, renewed while
   * `fn` runs. Losing the lease aborts the live turn rather than racing the
   * process that took it over.
   */
  withSession<T>(sessionId: string, fn: () => Promise<T>): Promise<T> {
    const leases = this.#leases;
    if (!leases) return this.#locks.run(sessionId, fn);
    return this.#locks.run(sessionId, () =>
      leases.hold(sessionId, async () => {
        this.hub.resync(sessionId);
        try {
          return await fn();
        } finally {
          await this.hub.flush(sessionId);
        }
      }, () => this.#live.get(sessionId)?.controller.abort()));
  }

  /** Delivers steering text to the live turn; false when the session has none here. */
  steer(sessionId: string, text: string): boolean {
    const live = this.#live.get(sessionId);
    if (!live?.accepting) return false;
    live.steering.push(text);
    return true;
  }

  /** Whether a turn of the session is running in this process. */
  isLive(sessionId: string): boolean {
    return this.#live.has(sessionId);
  }

  /** Cancels the live turn of a session, if any, and waits for its cleanup. */
  async cancel(principal: Principal, sessionId: string): Promise<{ cancelled: boolean }> {
    await this.#owned(principal, sessionId);
    const live = this.#live.get(sessionId);
    if (!live) {
      // The turn may run in another process: ask the holder of the lease to cancel it.
      if (this.#leases && (await this.#leases.heldElsewhere(sessionId))) {
        await this.store.publish(CONTROL_CHANNEL, { kind: "cancel", session: sessionId });
        return { cancelled: true };
      }
      return { cancelled: false };
    }
    live.controller.abort();
    await live.done.catch(() => {});
    return { cancelled: true };
  }

  /** The session summary of GET /api/sessions/{id}. */
  async session(principal: Principal, sessionId: string): Promise<SessionView> {
    const record = await this.#owned(principal, sessionId);
    const count = (await this.store.list(["message", sessionId])).length;
    return sessionView(record, count);
  }

  /** The stored messages, and the sequence number of the last event so far (resume the stream from it). */
  async messages(
    principal: Principal,
    sessionId: string,
  ): Promise<{ messages: unknown[]; last_seq: number }> {
    await this.#owned(principal, sessionId);
    const last_seq = await this.hub.lastSeq(sessionId);
    const loaded = await this.repo.load(sessionId);
    return { messages: (loaded?.messages ?? []).map((m) => messageView(m.message)), last_seq };
  }

  /** Deletes a session, after cancelling its live turn. */
  async deleteSession(principal: Principal, sessionId: string): Promise<void> {
    await this.cancel(principal, sessionId);
    await this.withSession(sessionId, async () => {
      await this.repo.delete(sessionId);
      await this.hub.forget(sessionId);
      this.screenshots.delete(sessionId);
    });
  }

  /** Creates the session if needed and stores a host context on it (Socket.IO join). */
  async join(
    principal: Principal,
    sessionId: string,
    context?: HostContext | null,
  ): Promise<SessionRecord> {
    return await this.withSession(sessionId, async () => {
      const entry = await this.repo.record(sessionId);
      if (entry && !mayAccess(principal, entry.value.owner_id)) throw forbidden(sessionId);
      const record = entry?.value ?? this.#newRecord(principal, sessionId);
      if (context === undefined || context === null) {
        if (!entry) await this.repo.commit(record, null);
        return record;
      }
      const next = { ...record, host_context: context };
      this.#rememberScreenshot(sessionId, context.attachments ?? []);
      if (!(await this.repo.commit(next, entry?.version ?? null))) {
        throw sessionError(`Session ${sessionId} changed while joining; join again.`);
      }
      return next;
    });
  }

  async #owned(principal: Principal, sessionId: string): Promise<SessionRecord> {
    const entry = await this.repo.record(sessionId);
    if (!entry) throw notFound(sessionId);
    if (!mayAccess(principal, entry.value.owner_id)) throw forbidden(sessionId);
    return entry.value;
  }

  #newRecord(principal: Principal, sessionId: string): SessionRecord {
    return {
      session_id: sessionId,
      owner_id: principal.id,
      created_at: now(),
      turn_number: 0,
      message_count: 0,
      host_context: null,
      pending_action: null,
    };
  }

  #rememberScreenshot(
    sessionId: string,
    attachments: { purpose?: string; data_uri?: string }[],
  ): void {
    const shot = collectScreenshot(attachments);
    if (shot) this.screenshots.set(sessionId, shot);
  }

  async #message(principal: Principal, body: MessageBody, model: EngineModel): Promise<ChatResult> {
    const sid = body.session_id;
    let loaded = await this.repo.load(sid);
    if (loaded && !mayAccess(principal, loaded.record.owner_id)) throw forbidden(sid);
    if (body.tool_call_id !== undefined) {
      if (!loaded) {
        throw sessionError(
          `Session ${sid} does not exist, so it has no call ${body.tool_call_id} to continue.`,
        );
      }
      return await this.#continue(principal, body, await repairSession(this.repo, loaded), model);
    }
    if (body.id && loaded && (await this.repo.usedMessageId(sid, body.id))) {
      throw sessionError(
        `Message id ${body.id} was already used in session ${sid}; send a new id.`,
      );
    }
    if (loaded) loaded = await repairSession(this.repo, loaded);
    if (loaded?.record.pending_action) loaded = await supersedePending(this.repo, loaded);
    let record = loaded?.record ?? this.#newRecord(principal, sid);
    const version = loaded?.version ?? null;
    const context = body.host_context ?? record.host_context;
    const attachments = mergeAttachments(
      body.attachments ?? [],
      body.host_context?.attachments ?? [],
    );
    this.#rememberScreenshot(sid, attachments);
    const turn = record.turn_number + 1;
    const userSeq = nextSeq(loaded);
    const block = context ? renderHostContext(context, !!this.screenshots.get(sid)) : null;
    const user: UserMessage = {
      role: "user",
      id: body.id ?? newId("msg"),
      turn,
      created_at: now(),
      content: body.content,
      message_type: body.message_type ?? "standard",
      attachments: attachments.filter((a) => a.purpose !== "screenshot").map((
        { data_uri: _d, text: _t, ...meta },
      ) => meta),
      model: userMessage(body.content, block, attachments),
    };
    record = {
      ...record,
      turn_number: turn,
      message_count: userSeq + 2,
      host_context: context,
      pending_action: null,
    };
    const marks = body.id ? [{ key: messageIdKey(sid, body.id), value: true }] : [];
    if (
      !(await this.repo.commit(record, version, [
        this.repo.putMessage(sid, userSeq, user),
        ...marks,
      ]))
    ) {
      throw sessionError(
        `Session ${sid} changed while this message was being written; send it again.`,
      );
    }
    const assistant = this.#newAssistant(turn, body.output_mode ?? "text", model.name);
    const history = [...(loaded?.messages ?? []).flatMap((m) => replay(m.message)), user.model];
    return await this.#run({
      principal,
      record,
      seq: userSeq + 1,
      assistant,
      history,
      context,
      model,
      limits: effectiveLimits(this.options.limits, body.config),
    });
  }

  #newAssistant(turn: number, mode: "text" | "host_tools", model: string): AssistantMessage {
    return {
      role: "assistant",
      id: newId("msg"),
      turn,
      created_at: now(),
      output_mode: mode,
      steps: [],
      calls: [],
      text: "",
      status: "running",
      model,
    };
  }

  async #continue(
    principal: Principal,
    body: MessageBody,
    loaded: LoadedSession,
    model: EngineModel,
  ): Promise<ChatResult> {
    const sid = body.session_id;
    const callId = body.tool_call_id!;
    const { record } = loaded;
    const pending = record.pending_action;
    if (!pending || pending.tool_call_id !== callId) throw refusal(loaded, callId);
    if (body.id && (await this.repo.usedMessageId(sid, body.id))) {
      throw sessionError(
        `Message id ${body.id} was already used in session ${sid}; send a new id.`,
      );
    }
    const entry = loaded.messages.find((m) => m.message.id === pending.assistant_message_id)!;
    const assistant = entry.message as AssistantMessage;
    const call = assistant.calls.find((c) => c.call_id === callId)!;
    const { value, screenshot } = extractScreenshots(body.tool_result ?? null);
    if (screenshot) this.screenshots.set(sid, screenshot);
    call.status = body.tool_outcome === "failed" ? "failed" : "completed";
    call.result = value;
    const context = body.host_context ?? record.host_context;
    const [next, ...rest] = pending.queued;
    const nextPending: PendingAction | null = next
      ? {
        ...pending,
        tool_call_id: next.call_id,
        tool_name: next.tool_name,
        arguments: next.arguments,
        queued: rest,
      }
      : null;
    if (next) {
      assistant.calls.find((c) => c.call_id === next.call_id)!.status = "pending";
    } else if (pending.output_mode === "host_tools") {
      assistant.steps.push(toolMessage(assistant.calls.filter((c) => c.step === call.step)));
      assistant.status = "completed";
      assistant.decision = "completed";
    }
    const nextRecord = { ...record, host_context: context, pending_action: nextPending };
    const marks = body.id ? [{ key: messageIdKey(sid, body.id), value: true }] : [];
    if (
      !(await this.repo.commit(nextRecord, loaded.version, [
        this.repo.putMessage(sid, entry.seq, assistant),
        ...marks,
      ]))
    ) {
      const fresh = await this.repo.load(sid);
      throw fresh
        ? refusal(fresh, callId)
        : sessionError(`Session ${sid} was deleted before the result arrived.`);
    }
    this.#rememberScreenshot(sid, body.host_context?.attachments ?? []);
    await this.#emit(sid, "assistant:status", { type: "agent_status", status: "started" });
    if (pending.output_mode !== "host_tools") {
      // Every attached client learns the host's outcome, not only the one that sent it.
      await this.#emit(sid, ...hostOutcomeEvent(call));
    }
    if (nextPending || pending.output_mode === "host_tools") {
      const result = chatResult(
        nextRecord,
        assistant,
        nextPending ? { kind: "pending", pending: nextPending } : { kind: "final" },
        null,
      );
      if (!nextPending) result.decision = "completed";
      await this.#emit(sid, "assistant:final_response", finalEvent(result, false));
      await this.#emit(sid, "assistant:status", { type: "agent_status", status: "completed" });
      return result;
    }
    assistant.steps.push(toolMessage(assistant.calls.filter((c) => c.step === call.step)));
    const attachments = mergeAttachments(
      body.attachments ?? [],
      body.host_context?.attachments ?? [],
    );
    if (context || attachments.some((a) => a.purpose !== "screenshot")) {
      const block = context ? renderHostContext(context, !!this.screenshots.get(sid)) : "";
      const parts = attachmentParts(attachments);
      const head = [block, body.content].filter(Boolean).join("\n\n");
      assistant.steps.push({
        role: "user",
        content: [...(head ? [{ type: "text" as const, text: head }] : []), ...parts],
      });
    }
    assistant.status = "running";
    const history = loaded.messages.filter((m) => m.seq < entry.seq).flatMap((m) =>
      replay(m.message)
    );
    return await this.#run({
      principal,
      record: nextRecord,
      seq: entry.seq,
      assistant,
      history,
      context,
      model,
      limits: effectiveLimits(this.options.limits, body.config),
      steering: pending.steering,
      started: true,
    });
  }

  async #run(run: RunInput): Promise<ChatResult> {
    const {
      principal,
      record,
      seq,
      assistant,
      history,
      context,
      model,
      limits,
      steering = [],
      started = false,
    } = run;
    const sid = record.session_id;
    const controller = new AbortController();
    const live: LiveTurn = {
      controller,
      steering: [...steering],
      accepting: true,
      done: Promise.resolve(),
    };
    let finish!: () => void;
    live.done = new Promise<void>((r) => (finish = r));
    this.#live.set(sid, live);
    const usage: Usage = { input_tokens: 0, output_tokens: 0, total_tokens: 0, model_requests: 0 };
    try {
      if (!started) {
        await this.#emit(sid, "assistant:status", { type: "agent_status", status: "started" });
      }
      let outcome: RunOutcome;
      let failure: TurnError | null = null;
      try {
        outcome = await runTurn({
          sessionId: sid,
          principal,
          model: model.model,
          providerOptions: model.providerOptions,
          instructions: this.options.instructions,
          policy: this.options.policy ?? allowAll,
          limits,
          outputMode: assistant.output_mode,
          history,
          assistant,
          tools: turnTools({
            backendTools: [lookAtScreen, ...this.options.backendTools],
            hostTools: this.options.hostTools,
            pageScopes: this.options.pageScopes,
            context,
            outputMode: assistant.output_mode,
            warn: this.options.warn,
          }),
          signal: controller.signal,
          usage,
          screenshots: this.screenshots,
          steering: live.steering,
          close: () => (live.accepting = false),
          emit: (event, payload) => this.#emit(sid, event, payload),
          checkpoint: () => this.repo.saveAssistant(sid, seq, assistant),
        });
      } catch (error) {
        failure = classify(
          controller.signal.aborted
            ? Object.assign(new Error("cancelled"), { name: "AbortError" })
            : error,
        );
        if (failure.type === "internal") {
          this.options.warn(`turn of session ${sid} failed: ${(error as Error)?.stack ?? error}`);
        }
        outcome = { kind: "final" };
      }
      live.accepting = false;
      let next = record;
      if (failure) {
        settleOpenCalls(
          assistant,
          failure.type === "cancelled" || failure.type === "usage_limit" ||
            failure.type === "invalid_decision"
            ? "cancelled"
            : "failed",
        );
        assistant.status = failure.type === "cancelled" ? "cancelled" : "failed";
        assistant.error = failure.message;
        assistant.error_type = failure.type;
      } else if (outcome.kind === "pending") {
        assistant.status = "pending";
        assistant.decision = assistant.output_mode === "host_tools" ? "pending" : null;
        next = { ...record, pending_action: outcome.pending };
      } else {
        settleOpenCalls(assistant, "cancelled");
        assistant.status = "completed";
        if (assistant.output_mode === "host_tools") assistant.decision = "hold";
      }
      const entry = await this.repo.record(sid);
      if (entry) {
        // The pending action is written with the assistant message in one commit, before the event.
        const ok = await this.repo.commit(next, entry.version, [
          this.repo.putMessage(sid, seq, assistant),
        ]);
        if (!ok) throw sessionError(`Session ${sid} changed while the turn was being saved.`);
      }
      const result = chatResult(next, assistant, outcome, usage, model.name);
      if (failure) {
        result.error = failure.message;
        result.error_type = failure.type;
      }
      await this.#emit(
        sid,
        "assistant:final_response",
        finalEvent(result, assistant.output_mode !== "host_tools"),
      );
      if (failure) {
        await this.#emit(sid, "assistant:error", {
          type: "error",
          message: failure.message,
          terminal: true,
          retry_allowed: retryAllowed(failure.type),
          error_type: failure.type,
        });
      }
      await this.#emit(sid, "assistant:status", { type: "agent_status", status: "completed" });
      return result;
    } finally {
      this.#live.delete(sid);
      finish();
    }
  }

  #emit(sessionId: string, event: string, payload: Record<string, unknown>): Promise<unknown> {
    return this.hub.publish(sessionId, event, payload);
  }
}

function nextSeq(loaded: LoadedSession | null): number {
  if (!loaded) return 0;
  const last = loaded.messages.at(-1)?.seq ?? -1;
  return Math.max(loaded.record.message_count, last + 1);
}

function replay(message: StoredMessage): ModelMessage[] {
  return message.role === "user" ? [message.model] : message.steps;
}
