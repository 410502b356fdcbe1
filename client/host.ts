/**
 * The host object: what a page registers about itself, the conversation
 * with the runtime, and the host calls it answers exactly once.
 *
 * @module
 */
import { CallRunner } from "./_calls.ts";
import { HeldEvents } from "./_held_events.ts";
import { chatMessages, type StoredMessage, summaries } from "./_history.ts";
import { keepThumbnails } from "./_kept_thumbnails.ts";
import { headersOf, jsonRequest, runtimeHref } from "./_http.ts";
import { newId } from "./_id.ts";
import type {
  Attachment,
  AttachmentInput,
  BackgroundEntry,
  HostContext,
  NavigationTarget,
  PendingAction,
  SessionSummary,
  View,
} from "./_protocol.ts";
import { ContextRegistry, type Disposer, type Source } from "./context.ts";
import {
  type DecideOptions,
  type Decision,
  type ReceiptOptions,
  requestDecision,
  sendReceipt,
} from "./decision.ts";
import type { FinalResponse, PendingToolCall, TetherEventMap } from "./events.ts";
import { indexedDbJournal } from "./indexeddb_journal.ts";
import { type Journal, memoryJournal } from "./journal.ts";
import type { ActionHandler } from "./run_action.ts";
import { runAction } from "./run_action.ts";
import { toJsonSchema } from "./schema.ts";
import { screenshot, type ScreenshotOptions } from "./screenshot.ts";
import { applyEvent, type HostState, initialState, type StateEvent } from "./state.ts";
import { createStore, type Store } from "./store.ts";
import { sseTransport } from "./sse_transport.ts";
import type { ConnectionState, Transport } from "./transport.ts";
import { modelContext } from "./_model_context.ts";
import { pendingCall, waitingFor } from "./pending.ts";
import { listQuery, type Sessions } from "./sessions.ts";

import type { ActionOptions, HostOptions, SendOptions } from "./host_options.ts";
export type { ActionOptions, HostOptions, SendOptions };

/** What the host reads of GET /api/sessions/{id}. */
interface SessionInfo {
  message_count: number;
  pending_action: PendingAction | null;
  /** Absent from a runtime older than the field: the page then never decides a turn ended. */
  turn_running?: boolean;
}

interface Exchange {
  resolve(final: FinalResponse | undefined): void;
  reject(error: unknown): void;
  final?: FinalResponse;
  /** The `id`s of the bodies it sent (its message or answer, then its continuations). */
  ids: Set<string>;
}

/** A new exchange; `id` is the body it starts with. */
const exchangeOf = (
  resolve: Exchange["resolve"],
  reject: Exchange["reject"],
  id?: unknown,
): Exchange => ({ resolve, reject, ids: new Set(typeof id === "string" ? [id] : []) });

/** The tab's session (kept across reloads), or `id` made the tab's from now on. */
const tabSession = (runtimeUrl: string, id?: string): string => {
  const key = `tether:session:${runtimeUrl}`;
  try {
    id ??= sessionStorage.getItem(key) ?? newId("s-");
    sessionStorage.setItem(key, id);
  } catch {
    // Storage refused (a sandboxed frame): the session lasts as long as the page.
  }
  return id ?? newId("s-");
};

/** A `final_response` payload, as far as the SDK relies on it (the runtime's schema is protocol/events.ts). */
const isFinal = (
  payload: Record<string, unknown>,
): payload is Record<string, unknown> & FinalResponse =>
  payload.type === "final_response" && typeof payload.session_id === "string";

/**
 * A page's connection to the assistant: register what it shows and can do,
 * send messages, and let the SDK answer the runtime's host calls.
 *
 * @example
 * ```ts
 * const host = createHost({ runtimeUrl: "http://127.0.0.1:7100" });
 * host.view({ name: "tasks", data: () => ({ open: tasks.length }) });
 * host.action("select_task", { description: "Select a task.", parameters: schema }, ({ id }) => select(id));
 * await host.send("select task 3");
 * ```
 */
export class Host {
  /** The conversation state; subscribe to render it. */
  readonly state: Store<HostState>;
  /** The person's conversations: list, rename, archive, switch. */
  readonly sessions: Sessions;
  #options: HostOptions;
  #registry: ContextRegistry;
  #transport!: Transport;
  #journal: Journal;
  #runner!: CallRunner;
  #listeners = new Map<string, Set<(payload: never) => void>>();
  #lastSeq = 0;
  /** Timed afresh by each event of a running turn: after `quietTurnCheck`, asks whether it runs. */
  #quiet?: ReturnType<typeof setTimeout>;
  /** The session is known to exist (found, or started by this page). */
  #exists = false;
  #connected?: Promise<void>;
  #exchange?: Exchange;
  /**
   * The exchange the turn streaming now answers, read from its `started` event's `request_id`:
   * `null` for a turn another tab started, or one an earlier exchange of this page asked for and
   * a newer message superseded here (its events must not end the newer exchange); unset outside
   * a turn's events, or when the transport gave none (a plain JSON answer): the exchange's.
   */
  #owner?: Exchange | null;
  #turnCall?: PendingToolCall;
  #cancel = new AbortController();
  /** The page's other tabs on this conversation (a browser's BroadcastChannel): a Stop in one stops them all. */
  #tabs?: BroadcastChannel;
  /** Aborted when the host is closed or switches to another conversation. */
  #closed!: AbortController;
  #decisions = new Map<string, string>();
  /** Calls this page saw held for approval in its own exchange (or on load): it runs them if they come back as host calls. */
  #held = new Set<string>();
  #withdrawals = new Set<() => void>();
  /** Closed until the stored conversation is read, and again while it is read for another tab's turn. */
  #gate!: HeldEvents;
  /** Whether the stored conversation was read (or the session found new). */
  #loaded = false;
  /** Resolves the `switch()` in flight once the stored conversation is read. */
  #synced?: () => void;

  constructor(options: HostOptions) {
    this.#options = options;
    const sessionId = options.sessionId ?? tabSession(options.runtimeUrl);
    this.state = createStore<HostState>(initialState(sessionId));
    this.#registry = new ContextRegistry(
      options.host ?? { name: globalThis.location?.hostname || "browser", kind: "browser" },
    );
    this.#journal = options.journal ??
      (globalThis.indexedDB ? indexedDbJournal() : memoryJournal());
    this.#open(sessionId);
    const api = <T>(path: string, method = "GET", body?: unknown) =>
      jsonRequest<T>(
        runtimeHref(options.runtimeUrl, path),
        method,
        headersOf(options.headers),
        body,
      );
    const patch = (id: string, body: unknown) =>
      api<SessionSummary>(`api/sessions/${encodeURIComponent(id)}`, "PATCH", body);
    this.sessions = {
      list: (o) => api(listQuery(o)),
      rename: (id, title) => patch(id, { title }),
      archive: (id, archived = true) => patch(id, { archived }),
      switch: (id) => this.#switch(id ?? newId("s-")),
    };
    if (options.screenshots === "on-request") {
      this.action("take_screenshot", {
        description:
          "Take a screenshot of the page as the user sees it now; then call look_at_screen to see it.",
        webmcp: false,
      }, async () => ({ screenshot: (await this.screenshot()).data_uri }));
    }
    if (options.autoConnect !== false) setTimeout(() => this.connect().catch(() => {}), 0);
  }

  /** The session of the conversation. */
  get sessionId(): string {
    return this.state.get().sessionId;
  }

  /** What the host was made with (the runtime URL and headers the inspector asks with). */
  get options(): Readonly<HostOptions> {
    return this.#options;
  }

  /** The transport's name (`sse`, `socket.io`, or a custom one's). */
  get transport(): string {
    return this.#transport.name ?? "custom";
  }

  /** A transport and a call runner for `sessionId`; events of an earlier one are dropped. */
  #open(sessionId: string): void {
    const closed = this.#closed = new AbortController();
    const live = <A extends unknown[]>(fn: (...args: A) => void) => (...args: A) =>
      closed.signal.aborted || fn(...args);
    this.#gate = new HeldEvents(live((name, payload) => this.#handle(name, payload)));
    const transport = this.#transport = (this.#options.transport ?? sseTransport())({
      runtimeUrl: this.#options.runtimeUrl,
      sessionId,
      headers: this.#options.headers,
      lastSeq: () => this.#lastSeq,
      event: live((name, payload) => this.#onEvent(name, payload)),
      state: live((state) => this.#onConnection(state)),
    });
    if (globalThis.document && typeof BroadcastChannel === "function") {
      const tabs = this.#tabs = new BroadcastChannel(`tether-stop:${sessionId}`);
      tabs.onmessage = () => this.#stopHere();
      closed.signal.addEventListener("abort", () => tabs.close());
    }
    this.#runner = new CallRunner({
      sessionId,
      journal: this.#journal,
      registry: this.#registry,
      timeout: this.#options.actionTimeout ?? 30_000,
      send: (body) => {
        this.#exchange ??= exchangeOf(() => {}, () => {});
        if (typeof body.id === "string") this.#exchange.ids.add(body.id);
        return transport.send(body);
      },
      emit: live((name, payload) => this.#dispatch(name, payload)),
      signal: () => this.#cancel.signal,
      closed: closed.signal,
    });
  }

  /**
   * Leaves this conversation for `sessionId`: its transport closes, a
   * confirmation it asks for is withdrawn (asked again on return: nothing
   * ran), a result not yet delivered stays in the journal, and the host
   * follows the other conversation from its stored state.
   */
  #switch(sessionId: string): Promise<void> {
    if (sessionId === this.sessionId) return this.connect();
    this.#closed.abort();
    this.#transport.close();
    this.#finish();
    this.#turnCall = undefined;
    this.#owner = undefined;
    this.#held.clear();
    this.#lastSeq = 0;
    this.#exists = false;
    this.#loaded = false;
    this.#connected = undefined;
    if (!this.#options.sessionId) tabSession(this.#options.runtimeUrl, sessionId);
    this.state.set(() => initialState(sessionId));
    this.#open(sessionId);
    // A switch still loading is over: the one before resolves too.
    this.#synced?.();
    const synced = new Promise<void>((resolve) => (this.#synced = resolve));
    void this.connect().catch(() => {});
    return synced;
  }

  /** Shows what is on screen (the latest view registered wins); pass a function to have it read at each message. */
  view(view: Source<View>): Disposer {
    return this.#registry.view(view);
  }

  /** Declares places the host can go. */
  navigation(targets: Source<NavigationTarget[]>): Disposer {
    return this.#registry.navigation(targets);
  }

  /** Summarises something off screen under `name`. */
  background(name: string, entry: Source<BackgroundEntry>): Disposer {
    return this.#registry.background(name, entry);
  }

  /** Adds host-specific data the runtime passes to the model as JSON. */
  extensions(data: Source<Record<string, unknown>>): Disposer {
    return this.#registry.extensions(data);
  }

  /** Attaches content to the context of every message until disposed. */
  attach(attachment: AttachmentInput): Disposer {
    return this.#registry.attach(attachment);
  }

  /** Registers an action the model may call; the handler's return value is the tool result. */
  // deno-lint-ignore no-explicit-any -- see ActionHandler
  action<Args = any>(name: string, options: ActionOptions, handler: ActionHandler<Args>): Disposer {
    const definition = { name, ...options, handler };
    const dispose = this.#registry.action(definition);
    // The bridge is fetched only where the browser has a model context (most have none).
    let withdraw: (() => void) | undefined;
    let withdrawn = false;
    const found = (options.webmcp ?? this.#options.webmcp ?? true) && modelContext();
    if (found) {
      import("./webmcp.ts").then(({ offerToWebMcp }) => {
        if (withdrawn) return;
        withdraw = offerToWebMcp(
          found,
          name,
          options.description,
          toJsonSchema(options.parameters),
          (args) =>
            runAction(definition, { call_id: newId("webmcp-"), tool_name: name, arguments: args }, {
              timeout: this.#options.actionTimeout,
            }),
          { readOnly: options.readOnly, confirms: !!options.confirm },
        );
      });
    }
    const undo = () => (
      this.#withdrawals.delete(undo), dispose(), withdrawn = true, withdraw?.()
    );
    this.#withdrawals.add(undo);
    return undo;
  }

  /** The host_context as the next message would carry it: fresh, validated, stamped. */
  context(): Promise<HostContext> {
    return this.#registry.build();
  }

  /** A screenshot attachment of the page or of one element. */
  screenshot(options: ScreenshotOptions = {}): Promise<Attachment> {
    return screenshot({ ...this.#options.screenshotOptions, ...options });
  }

  /** Connects and recovers pending calls (after a reload, say); called by itself unless `autoConnect: false`. */
  connect(): Promise<void> {
    return this.#connected ??= this.#transport.connect().then(() => this.#recover()).finally(() =>
      this.#gate.open()
    );
  }

  /**
   * Sends a message and answers every host call it leads to; resolves with
   * the turn's last `final_response` once no call is pending.
   */
  async send(text: string, options: SendOptions = {}): Promise<FinalResponse | undefined> {
    // Connecting settles calls left pending by an earlier page first; the context is read after, so it is current.
    await this.connect().catch(() => {});
    const attachments = [...(options.attachments ?? [])];
    if (this.#options.screenshots === "each-message") attachments.push(await this.screenshot());
    const context = await this.#registry.build();
    const body: Record<string, unknown> = {
      id: options.id ?? newId("m-"),
      session_id: this.sessionId,
      content: text,
      host_context: context,
    };
    if (attachments.length) body.attachments = attachments;
    if (options.messageType) body.message_type = options.messageType;
    if (options.config) body.config = options.config;
    const steering = options.messageType === "steering";
    if (!steering) {
      // A new message supersedes the exchange in flight.
      this.#uncancel();
      this.#exchange?.resolve(this.#exchange.final);
      this.#exchange = undefined;
      this.#turnCall = undefined;
    }
    let exchange: Exchange | undefined;
    const result = new Promise<FinalResponse | undefined>((resolve, reject) => {
      if (!steering) this.#exchange = exchange = exchangeOf(resolve, reject, body.id);
      else resolve(undefined);
    });
    // What the runtime stores with the message: its attachments, then the context's.
    const sent = await summaries([...attachments, ...context.attachments ?? []]);
    keepThumbnails(body.id as string, sent);
    this.#update(["user", { id: body.id as string, content: text, attachments: sent, steering }]);
    const closed = this.#closed.signal;
    try {
      await this.#transport.send(body);
      this.#exists = true;
      void this.#transport.follow?.(); // the session exists now
    } catch (error) {
      // Cut off by a switch to another conversation: that is no failure of this one.
      if (closed.aborted) return result;
      if (this.#exchange === exchange) this.#exchange = undefined;
      throw error;
    }
    return result;
  }

  /**
   * Cancels the live turn and the exchange in flight: a running handler's
   * signal is aborted (the handler decides whether to stop), and a call the
   * exchange announced but has not started yet never runs (the model is told
   * the user cancelled it), in this page and in the browser's other tabs on
   * this conversation. The next message or answer starts afresh.
   */
  async cancel(): Promise<void> {
    this.#stopHere();
    this.#tabs?.postMessage(0);
    await this.#transport.cancel();
  }

  #stopHere(): void {
    this.#cancel.abort(new DOMException("The user cancelled the turn.", "AbortError"));
  }

  /** A new exchange is not cancelled by a Stop pressed before it. */
  #uncancel(): void {
    if (this.#cancel.signal.aborted) this.#cancel = new AbortController();
  }

  /**
   * Answers a remote action's preview (`state.pending` waiting for
   * `confirmation`): `apply` (a delete needs a second one: the first leaves
   * the call pending with one confirmation received) or `cancel` (the model
   * is told the user declined). Resolves with the `final_response` of the
   * turn it leads to; rejects with a TetherError when the runtime refuses it
   * (409: already answered, superseded, or held for an approval, which only
   * an approver can release).
   */
  async answer(callId: string, decision: "apply" | "cancel"): Promise<FinalResponse | undefined> {
    if (decision !== "apply" && decision !== "cancel") {
      throw new TypeError(`decision must be "apply" or "cancel", not ${JSON.stringify(decision)}.`);
    }
    await this.connect().catch(() => {});
    const context = await this.#registry.build().catch(() => undefined);
    const body: Record<string, unknown> = {
      id: newId("m-"),
      session_id: this.sessionId,
      content: "",
      tool_call_id: callId,
      tool_result: { decision },
    };
    if (context) body.host_context = context;
    this.#uncancel();
    this.#exchange?.resolve(this.#exchange.final);
    let exchange: Exchange | undefined;
    const result = new Promise<FinalResponse | undefined>((resolve, reject) => {
      this.#exchange = exchange = exchangeOf(resolve, reject, body.id);
    });
    this.#update(["answer", { callId, decision }]);
    try {
      await this.#transport.send(body);
    } catch (error) {
      if (this.#exchange === exchange) this.#exchange = undefined;
      this.#update(["answer", { callId }]);
      throw error;
    }
    return result;
  }

  /** Listens to a runtime or SDK event; returns the function that stops listening. */
  on<K extends keyof TetherEventMap>(event: K, fn: (payload: TetherEventMap[K]) => void): Disposer {
    const set = this.#listeners.get(event) ?? new Set();
    this.#listeners.set(event, set);
    set.add(fn as (payload: never) => void);
    return () => void set.delete(fn as (payload: never) => void);
  }

  /** Asks for one silent decision (`output_mode: "host_tools"`), in a fresh session unless one is given. */
  async decide(content: string, options: DecideOptions = {}): Promise<Decision> {
    const decision = await requestDecision(
      this.#options.runtimeUrl,
      headersOf(this.#options.headers),
      await this.#registry.build(),
      content,
      options,
    );
    if (decision.decision === "pending") {
      this.#decisions.set(decision.call.call_id, decision.sessionId);
    }
    return decision;
  }

  /** Reports what the engine did with a decided call; resolves with `decision: "completed"`, a repeat is a 409. */
  async receipt(callId: string, result: unknown, options: ReceiptOptions = {}): Promise<Decision> {
    const sessionId = options.sessionId ?? this.#decisions.get(callId);
    if (!sessionId) {
      throw new TypeError(
        `No decision of this host returned the call ${callId}; pass its sessionId.`,
      );
    }
    const decision = await sendReceipt(
      this.#options.runtimeUrl,
      headersOf(this.#options.headers),
      sessionId,
      callId,
      result,
      options,
    );
    this.#decisions.delete(callId);
    return decision;
  }

  /** Closes the transport and withdraws the actions from WebMCP; results not yet delivered stay in the journal for the next page. */
  close(): void {
    this.#closed.abort();
    this.#transport.close();
    for (const undo of [...this.#withdrawals]) undo();
  }

  #update(event: StateEvent): void {
    this.state.set((state) => applyEvent(state, event));
  }

  #dispatch<K extends keyof TetherEventMap>(name: K, payload: TetherEventMap[K]): void {
    this.#update([name, payload] as StateEvent);
    for (const fn of [...this.#listeners.get(name) ?? []]) {
      try {
        (fn as (payload: TetherEventMap[K]) => void)(payload);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  #onEvent(name: string, payload: Record<string, unknown>): void {
    const seq = payload.seq;
    if (typeof seq === "number") {
      if (seq <= this.#lastSeq) return;
      this.#lastSeq = seq;
    }
    if (
      !this.#gate.closed && name === "assistant:status" && payload.status === "started" &&
      !this.#answers(payload.request_id) && this.#loaded
    ) {
      // Another tab or client started this turn: read its user message before its events fold in.
      this.#gate.close();
      void this.#sync();
    }
    this.#gate.pass(name, payload);
  }

  /**
   * Whether the turn that answers the body `request` is the exchange in flight's; a runtime that
   * does not say (or a body without an id) leaves it the exchange's.
   */
  #answers(request: unknown): boolean {
    return !!this.#exchange && (typeof request !== "string" || this.#exchange.ids.has(request));
  }

  #handle(name: string, payload: Record<string, unknown>): void {
    if (name === "assistant:status" && payload.status === "started") {
      this.#owner = this.#answers(payload.request_id) ? this.#exchange : null;
    }
    const owner = this.#owner === undefined ? this.#exchange : this.#owner ?? undefined;
    if (name === "assistant:final_response" && isFinal(payload)) {
      const final = payload;
      const call = final.pending_tool_call;
      const waits = call ? waitingFor(call) : undefined;
      if (owner) {
        owner.final = final;
        if (waits === "host") this.#turnCall = call!;
        if (waits === "approval") this.#held.add(call!.call_id);
      } else if (
        !this.#exchange && waits === "host" && this.#held.has(call!.call_id) &&
        this.#registry.actions.has(call!.tool_name)
      ) {
        // An approver released a call this page asked for: the runtime resumed the turn by itself.
        this.#turnCall = call!;
      }
    }
    this.#dispatch(name as keyof TetherEventMap, payload as never);
    // A host call this page has no exchange for is run by the tab (or client) that asked.
    const { pending, elsewhere: shown } = this.state.get();
    const elsewhere = !this.#exchange && !this.#turnCall && !!pending &&
      waitingFor(pending) === "host";
    if (elsewhere !== !!shown) this.state.set((state) => ({ ...state, elsewhere }));
    if (name === "assistant:status" && payload.status === "completed") {
      this.#owner = undefined;
      // A turn superseded here ends as it ran; the newer exchange goes on.
      if (owner !== this.#exchange) return;
      const call = this.#turnCall;
      this.#turnCall = undefined;
      // A 409 means the runtime took another answer or moved on: the exchange is over, not failed.
      if (call) {
        const exchange = this.#exchange;
        this.#runner.schedule(call).catch((error) =>
          // A newer message may have superseded this exchange meanwhile: leave that one alone.
          exchange === this.#exchange && this.#finish(error.status === 409 ? undefined : error)
        );
      } else this.#finish();
    }
    clearTimeout(this.#quiet);
    if (this.state.get().running) {
      const [seen, closed] = [this.#lastSeq, this.#closed.signal];
      this.#quiet = setTimeout(
        () => closed.aborted || this.#askTurn(seen),
        this.#options.quietTurnCheck ?? 15_000,
      );
    }
  }

  /** Ends the exchange in flight: resolved with its last answer, or rejected with `error`. */
  #finish(error?: unknown): void {
    const exchange = this.#exchange;
    this.#exchange = undefined;
    if (!exchange) return;
    if (error !== undefined) exchange.reject(error);
    else exchange.resolve(exchange.final);
  }

  #onConnection(connection: ConnectionState): void {
    const previous = this.state.get().connection;
    this.state.set((state) => ({ ...state, connection }));
    if (connection === "open" && previous === "reconnecting") this.#recover().catch(() => {});
  }

  #get<T>(path: string, signal?: AbortSignal): Promise<T> {
    return jsonRequest<T>(
      runtimeHref(
        this.#options.runtimeUrl,
        `api/sessions/${encodeURIComponent(this.sessionId)}${path}`,
      ),
      "GET",
      headersOf(this.#options.headers),
      undefined,
      signal,
    );
  }

  /** Merges the stored conversation into the state, holding live events back meanwhile. */
  async #sync(): Promise<void> {
    const gate = this.#gate;
    const closed = this.#closed.signal;
    gate.close();
    try {
      const { messages } = await this.#get<{ messages: StoredMessage[] }>(
        "/messages",
        AbortSignal.timeout(10_000),
      );
      const history = await chatMessages(messages);
      if (!closed.aborted) this.#update(["history", history]);
    } catch {
      // Without the stored conversation the live events still tell what happens now.
    } finally {
      gate.open();
    }
  }

  /**
   * Asks the runtime about the session (one request: a new session is
   * `null`), loads its conversation the first time, and reconciles the journal
   * with what is pending; when the runtime cannot be reached, tries again
   * later in the background.
   */
  /**
   * A session not started yet may be started by another tab: asks again, less and less often
   * (up to every 5 s), until it exists or this page starts it, then follows it from its first
   * event, so a tab opened before the first message follows it too.
   */
  #awaitSession(transport: Transport, delay = 500): void {
    const closed = this.#closed.signal;
    setTimeout(async () => {
      if (closed.aborted || this.#exists || this.#transport !== transport) return;
      let reached = true;
      const info = await this.#get<SessionInfo | null>("?missing=null").catch(() => {
        reached = false;
        return null;
      });
      if (closed.aborted || this.#exists || this.#transport !== transport) return;
      // These asks are the only sign of the runtime while nothing streams: the indicator follows them.
      const shown = this.state.get().connection;
      if (!reached && shown === "open") this.#onConnection("reconnecting");
      if (reached && shown === "reconnecting") this.#onConnection("open");
      if (!info) return this.#awaitSession(transport, Math.min(delay * 2, 5_000));
      this.#exists = true;
      await transport.follow?.(true);
    }, delay);
  }

  /**
   * Whether a turn this page shows running still runs, asked of the runtime (`info`, asked when
   * the page had seen events up to `seen`) after the connection came back, and after
   * `quietTurnCheck` ms without an event (the process running the turn may have died behind
   * the one this page follows through, whose connection never drops). A turn the runtime runs
   * no more ended without its last events reaching the page: the page shows it ended. While
   * the runtime says it runs, asks again after 1, 2, 4, 8 s and so on (a lease the stopped
   * process held lapses within `LIMITS__LEASE_TTL_MS`, 10 s by default), until the turn ends
   * either way. An event that came meanwhile ends the asking: the turn is alive, and the quiet
   * after that event is timed afresh.
   */
  #settleTurn(info: SessionInfo | null, seen: number, delay = 1_000): void {
    const closed = this.#closed.signal;
    if (!this.state.get().running || info?.turn_running == null || this.#lastSeq !== seen) return;
    if (info.turn_running) {
      setTimeout(() => closed.aborted || this.#askTurn(seen, delay * 2), delay);
      // What streamed of the cut-off answer stays on screen; a replayed end folds in as usual.
    } else this.state.set((state) => ({ ...state, running: false }));
  }

  /** Asks the runtime about the session, then `#settleTurn`; unreachable, the recovery asks. */
  #askTurn(seen: number, delay?: number): void {
    const closed = this.#closed.signal;
    this.#get<SessionInfo | null>("?missing=null").then(
      (info) => closed.aborted || this.#settleTurn(info, seen, delay),
      () => {},
    );
  }

  async #recover(delay = 500): Promise<void> {
    const closed = this.#closed.signal;
    const [gate, runner, transport] = [this.#gate, this.#runner, this.#transport];
    const seen = this.#lastSeq;
    let info: SessionInfo | null;
    try {
      // `missing=null`: a session not started yet is 200 null, not a 404 the console shows as an error.
      info = await this.#get<SessionInfo | null>("?missing=null");
    } catch (error) {
      const status = (error as { status?: number }).status ?? 0;
      if (status === 404) info = null;
      else {
        gate.open();
        this.#synced?.();
        if ((status === 0 || status >= 500) && !closed.aborted) {
          // Not reachable: the indicator says so, whatever the transport last saw.
          this.#onConnection("reconnecting");
          setTimeout(
            () => closed.aborted || this.#recover(Math.min(delay * 2, 5_000)).catch(() => {}),
            delay,
          );
        }
        return;
      }
    }
    if (info) {
      this.#exists = true;
      this.#settleTurn(info, seen);
      await transport.follow?.();
    } else if (transport.follow) this.#awaitSession(transport);
    if (!this.#loaded && !closed.aborted) {
      this.#loaded = true;
      if (info?.message_count) await this.#sync();
    }
    if (closed.aborted) return;
    const pending = info?.pending_action ?? null;
    const waits = pending ? waitingFor(pending) : undefined;
    // A preview or a hold is shown again as it was (nothing ran); only a host call is the runner's.
    if (pending && waits !== "host") {
      if (waits === "approval") this.#held.add(pending.tool_call_id);
      this.#update(["pending", pendingCall(pending)]);
    }
    gate.open();
    this.#synced?.();
    await runner.recover(waits === "host" ? pending : null).catch((error) =>
      this.#finish(error.status === 409 ? undefined : error)
    );
  }
}

/**
 * Creates the host object for a page.
 *
 * @example
 * ```ts
 * const host = createHost({ runtimeUrl: "http://127.0.0.1:7100", transport: socketIoTransport() });
 * ```
 */
export function createHost(options: HostOptions): Host {
  return new Host(options);
}
