/**
 * The engine: sessions, turns, pending host calls and continuations, on top
 * of a store. Transports (HTTP, SSE, Socket.IO, AG-UI) call it and subscribe
 * to its event hub; none of them decides anything about a session.
 *
 * @module
 */
import type { HostContext, MessageBody } from "../protocol/mod.ts";
import type { RuntimeOptions } from "./config.ts";
import type { Store } from "./kv/store.ts";
import { EventHub } from "./events/hub.ts";
import { forbidden, notFound, sessionError, TetherError, validationError } from "./http/errors.ts";
import { mayAccess, type Principal } from "./http/principal.ts";
import { KeyedLock } from "./session/lock.ts";
import type { SessionRecord } from "./session/records.ts";
import { SessionRepo } from "./session/repo.ts";
import { repairSession } from "./session/repair.ts";
import { newSessionRecord } from "./session/create.ts";
import { messageView, type SessionView, sessionView } from "./session/views.ts";
import { CONTROL_CHANNEL, isShared, SessionLeases } from "./session/leases.ts";
import { ScreenshotCache } from "./tools/screenshots.ts";
import { HOLD } from "./tools/turn_tools.ts";
import type { ChatResult } from "./turn/outcome.ts";
import type { EngineModel, LiveTurn, TurnDeps } from "./turn/runner.ts";
import { startTurn } from "./turn/new_turn.ts";
import { continueTurn } from "./turn/continuation.ts";
import { resumeHeldTurn } from "./turn/held.ts";
import type { Verdict } from "../protocol/mod.ts";
import { modelFromSpec } from "./model/mod.ts";
import { assertBoundedSchemas } from "./tools/bounded_schemas.ts";
import { assertDescriptions, descriptionIssues } from "./tools/description_bounds.ts";
import { profileOf } from "./turn/_context_block.ts";
import type { PolicyRuntime } from "./policy/setup.ts";
import type { Tracer } from "./trace/tracer.ts";
import { Integrations } from "./remote-tools/integrations.ts";
import { RemoteTools } from "./remote-tools/remote_tools.ts";
import { Conversations } from "./session/conversations.ts";
import { ModelTitles } from "./session/title.ts";

export type { ChatResult, EngineModel, Verdict };

/** How long `Engine.stop()` waits for work holding a session's lease (ms). */
export const STOP_DRAIN_MS = 5_000;

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
  readonly screenshots: ScreenshotCache = new ScreenshotCache();
  /** The policy gate (set by `createEngine`; null for an engine built by hand). */
  policy: PolicyRuntime | null = null;
  /** The registered tool servers (remote tools) of every workspace. */
  readonly remote: RemoteTools;
  /** Each principal's conversations: listed, renamed, archived (`GET`/`PATCH /api/sessions`). */
  readonly conversations: Conversations;
  #titles: ModelTitles;
  #background = new AbortController();
  #backfill: Promise<void> | null = null;
  #locks = new KeyedLock();
  #live = new Map<string, LiveTurn>();
  /** Work holding a session's lease now (shared stores): `stop()` waits for it. */
  #held = new Set<Promise<unknown>>();
  #models = new Map<string, EngineModel>();
  #leases: SessionLeases | null;
  #stopControl: (() => Promise<void>) | null = null;
  #deps: TurnDeps;

  constructor(store: Store, options: RuntimeOptions, model: EngineModel) {
    this.options = options;
    this.model = model;
    this.repo = new SessionRepo(store, options.remoteTools.workspace);
    this.remote = new RemoteTools(new Integrations(store), options.remoteTools, options.logger);
    const shared = isShared(store);
    this.hub = new EventHub(store, options.limits.eventLogSize, shared);
    this.#leases = shared ? new SessionLeases(store, options.limits.leaseTtlMs) : null;
    this.conversations = new Conversations(
      this.repo,
      (id, fn) => this.withSession(id, fn),
      options.logger,
    );
    this.#titles = new ModelTitles(
      (id, title) => this.conversations.retitle(id, title),
      options.logger,
    );
    this.#deps = {
      repo: this.repo,
      hub: this.hub,
      screenshots: this.screenshots,
      options,
      live: this.#live,
      remote: this.remote,
    };
  }

  /** Starts listening to other processes (shared stores): their events and cancel requests. */
  async start(): Promise<void> {
    await this.hub.start();
    this.#backfill = this.conversations.backfill(this.#background.signal).catch((error) =>
      this.options.logger.warn(
        "listing older sessions failed; they are listed at their next message",
        {
          error,
        },
      )
    );
    if (this.#leases) {
      this.#stopControl = await this.store.subscribe(CONTROL_CHANNEL, (message) => {
        const m = message as { kind?: string; session?: string };
        if (m?.kind === "cancel" && m.session) this.#live.get(m.session)?.controller.abort();
      });
    }
  }

  /**
   * Stops listening to other processes and waits for pending log writes. Work holding a
   * session's lease is waited for first (up to {@linkcode STOP_DRAIN_MS}), so its lease is
   * released rather than left to expire: a runtime started next on the same store would
   * otherwise wait out the lease before it could join the session.
   */
  async stop(): Promise<void> {
    if (this.#held.size) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.allSettled([...this.#held]),
        new Promise((resolve) => (timer = setTimeout(resolve, STOP_DRAIN_MS))),
      ]);
      clearTimeout(timer);
    }
    this.#background.abort();
    await Promise.all([this.#titles.stop(), this.#backfill]);
    await this.policy?.close();
    await this.#deps.tracer?.close();
    await this.#stopControl?.();
    await this.hub.stop();
  }

  /** Sends the spans of every turn to this tracer (`createEngine` does this when OTLP is configured). */
  useTracer(tracer: Tracer): void {
    this.#deps.tracer = tracer;
  }

  /** Puts the policy gate in front of every tool call (`createEngine` does this). */
  usePolicy(policy: PolicyRuntime): void {
    this.policy = policy;
    this.#deps.policy = policy.hook;
  }

  /** The store the engine uses. */
  get store(): Store {
    return this.repo.store;
  }

  /**
   * Runs one message (a new turn, a continuation or a receipt) to its end.
   * `admitted` runs once the principal is known to own the session (or to be
   * creating it), inside the session's lock and before any event of the turn:
   * the only safe moment to let a streaming client in on the session's events.
   */
  chat(
    principal: Principal,
    body: MessageBody,
    options: { promoted?: boolean; admitted?: () => void } = {},
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
    const maxContent = this.options.limits.maxContentChars;
    if (body.content.length > maxContent) {
      const message =
        `content holds ${body.content.length} characters, over the limit of ${maxContent}; send a shorter message (the limit is LIMITS__MAX_CONTENT_CHARS).`;
      throw new TetherError(413, "payload_too_large", message, {
        issues: [{ path: "content", message }],
      });
    }
    assertBoundedSchemas(body.host_context?.actions, "host_context.actions");
    const model = this.#modelFor(body.config?.model);
    const max = profileOf(model, this.options).maxToolDescriptionChars;
    assertDescriptions(body.host_context?.actions, max, "host_context.actions", model.name);
    return this.withSession(body.session_id, async () => {
      try {
        return await this.#message(principal, body, model, options.admitted);
      } finally {
        // Every event of the turn is delivered before its answer: a durable store sends an event
        // once it is logged (events/hub.ts), so the answer waits for the last batch.
        await this.hub.flush(body.session_id);
      }
    });
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
      const selected = modelFromSpec(spec, this.options.env, {
        openaiStore: this.options.modelOptions.openaiStore,
      });
      model = {
        model: selected.model,
        name: selected.name,
        providerOptions: selected.providerOptions as EngineModel["providerOptions"],
        profile: selected.profile,
      };
      const issues = this.configuredToolIssues(model);
      if (issues.length) {
        throw validationError(
          `config.model "${spec}" cannot offer this runtime's tools: ${issues[0].message}`,
          [{ path: "config.model", message: issues[0].message }],
        );
      }
      this.#models.set(spec, model);
    }
    return model;
  }

  /** Configured host tools and backend tools whose descriptions are too long for `model`. */
  configuredToolIssues(model: EngineModel): ReturnType<typeof descriptionIssues> {
    const max = profileOf(model, this.options).maxToolDescriptionChars;
    return [
      ...descriptionIssues(this.options.hostTools, max, "TOOLS__HOST_TOOLS", model.name),
      ...descriptionIssues(this.options.backendTools, max, "backendTools", model.name),
    ];
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
    return this.#locks.run(sessionId, () => {
      const held = leases.hold(
        sessionId,
        async () => {
          this.hub.resync(sessionId);
          try {
            // Best effort: a listener that misses events here still has the log to resume from.
            await this.hub.catchUp(sessionId).catch(() => {});
            return await fn();
          } finally {
            await this.hub.flush(sessionId);
          }
        },
        () => this.#live.get(sessionId)?.controller.abort(),
        () =>
          // The numbers left of the block go back in the commit that releases the lease.
          Promise.resolve(this.hub.release(sessionId)),
      );
      this.#held.add(held);
      const settled = () => this.#held.delete(held);
      held.then(settled, settled);
      return held;
    });
  }

  /**
   * Releases a call the policy held for approval and resumes its turn: the
   * approval poller calls this when an approval is decided or expires (deny).
   * No client can: a continuation for a held call is a 409. Throws a 409 when
   * the call is not the one held (already released, superseded).
   *
   * @example
   * ```ts
   * await engine.resumeHeld("s1", "call_1", { decision: "allow" });
   * ```
   */
  resumeHeld(sessionId: string, callId: string, verdict: Verdict): Promise<ChatResult> {
    return this.withSession(sessionId, async () => {
      const loaded = await this.repo.load(sessionId);
      const repaired = loaded && (await repairSession(this.repo, loaded));
      return await resumeHeldTurn(this.#deps, repaired, sessionId, callId, verdict, this.model);
    });
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
    return sessionView(record, count, await this.#running(sessionId));
  }

  /**
   * Whether a turn of the session runs now: this process holds or waits for the session's lock
   * (every turn, first message or continuation, runs inside it, from before its `started` event
   * to after its last event is delivered), or, on a shared store, another process holds its
   * lease (held for as long).
   */
  async #running(sessionId: string): Promise<boolean> {
    if (this.#locks.busy(sessionId)) return true;
    return this.#leases ? await this.#leases.heldElsewhere(sessionId) : false;
  }

  /**
   * Where a follower that gave no position starts: live, or, while a turn runs, at that turn's
   * `started` event (`EventHub.turnStart`), so a page opened during another client's turn shows
   * it running from its first words. Undefined: live.
   */
  async followFrom(sessionId: string): Promise<number | undefined> {
    return (await this.#running(sessionId)) ? this.hub.turnStart(sessionId) : undefined;
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

  /**
   * Creates the session if needed and stores a host context on it (Socket.IO join). A join
   * that writes nothing (an existing session, no context) takes no lock, so a page that joins
   * while a turn runs follows it now rather than once the turn is over; a session's owner never
   * changes, so the check holds without it.
   */
  async join(
    principal: Principal,
    sessionId: string,
    context?: HostContext | null,
  ): Promise<SessionRecord> {
    assertBoundedSchemas(context?.actions, "host_context.actions");
    if (context === undefined || context === null) {
      const entry = await this.repo.record(sessionId);
      if (entry && !mayAccess(principal, entry.value.owner_id)) throw forbidden(sessionId);
      if (entry) return entry.value;
    }
    return await this.withSession(sessionId, async () => {
      const entry = await this.repo.record(sessionId);
      if (entry && !mayAccess(principal, entry.value.owner_id)) throw forbidden(sessionId);
      const record = entry?.value ?? newSessionRecord(principal, sessionId);
      if (context === undefined || context === null) {
        if (!entry) await this.repo.commit(record, null);
        return record;
      }
      const next = { ...record, host_context: context };
      this.screenshots.remember(sessionId, context.attachments ?? []);
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

  async #message(
    principal: Principal,
    body: MessageBody,
    model: EngineModel,
    admitted?: () => void,
  ): Promise<ChatResult> {
    const sid = body.session_id;
    const loaded = await this.repo.load(sid);
    if (loaded && !mayAccess(principal, loaded.record.owner_id)) throw forbidden(sid);
    // Inside the lock (and lease): no other principal can create the session before this turn does.
    if (loaded || body.tool_call_id === undefined) admitted?.();
    if (body.tool_call_id === undefined) {
      // The turn's first event needs its numbering: loaded meanwhile, not after the first commit.
      this.hub.prepare(sid);
      const result = await startTurn(
        this.#deps,
        principal,
        body,
        loaded && (await repairSession(this.repo, loaded)),
        model,
      );
      this.#titleAfter(result, body.content, model);
      return result;
    }
    if (!loaded) {
      throw sessionError(
        `Session ${sid} does not exist, so it has no call ${body.tool_call_id} to continue.`,
      );
    }
    const result = await continueTurn(
      this.#deps,
      principal,
      body,
      await repairSession(this.repo, loaded),
      model,
    );
    const first = loaded.messages.find((m) => m.message.role === "user")?.message;
    this.#titleAfter(result, first?.role === "user" ? first.content : undefined, model);
    return result;
  }

  /**
   * Asks the model for a better title once a conversation's first exchange is answered (its
   * first turn ended with an answer, not a pending call or an error): never beside the turn,
   * so the title call neither delays the first answer nor shares the provider's rate limit
   * with it, and a first message whose action is never completed costs no call. The plain
   * title of the first words stands meanwhile, and a person's rename always wins.
   */
  #titleAfter(result: ChatResult, firstMessage: string | undefined, model: EngineModel): void {
    if (
      model.name === "offline" || firstMessage === undefined || result.turn_number !== 1 ||
      result.pending_tool_call !== null || result.error_type !== undefined ||
      result.decision !== null
    ) return;
    // With the provider's own request options: OpenAI's `store: false` holds for titles too.
    const requestOptions = profileOf(model, this.options).requestOptions;
    this.#titles.start(result.session_id, firstMessage, model.model, requestOptions);
  }
}
