/**
 * Exactly-once handling of host calls. Each call is handled under a Web Lock
 * and recorded in the journal before its handler starts; its result is
 * recorded before it is sent, re-sent (never re-run) until the runtime
 * acknowledges it, and forgotten then. Calls run one at a time, in order.
 *
 * @module
 */
import { newId } from "./_id.ts";
import { withLock } from "./_locks.ts";
import { sleep } from "./_sleep.ts";
import type { HostContext } from "./_protocol.ts";
import type { ContextRegistry } from "./context.ts";
import { TetherError } from "./errors.ts";
import type { PendingToolCall, TetherEventMap } from "./events.ts";
import type { Journal, JournalEntry } from "./journal.ts";
import { runAction } from "./run_action.ts";

/** What the runner needs from its host. */
export interface CallRunnerLink {
  sessionId: string;
  journal: Journal;
  registry: ContextRegistry;
  /** Default handler timeout in ms. */
  timeout: number;
  /** Sends a continuation (rejects with TetherError when refused or undelivered). */
  send(body: Record<string, unknown>): Promise<void>;
  emit<K extends keyof TetherEventMap>(name: K, payload: TetherEventMap[K]): void;
  /** Aborted by `host.cancel()`. */
  signal(): AbortSignal;
  /** Aborted when the host is closed: stop retrying. */
  closed: AbortSignal;
}

/**
 * Handles the host calls of one session.
 *
 * @example
 * ```ts
 * const runner = new CallRunner(link);
 * runner.schedule(finalResponse.pending_tool_call);
 * ```
 */
export class CallRunner {
  #link: CallRunnerLink;
  #chain: Promise<unknown> = Promise.resolve();

  constructor(link: CallRunnerLink) {
    this.#link = link;
  }

  /** Queues a pending call; calls are handled one at a time in the order scheduled. */
  schedule(call: Pick<PendingToolCall, "call_id" | "tool_name" | "arguments">): Promise<void> {
    return this.#enqueue(() => this.#handle(call));
  }

  /**
   * Reconciles the journal with the runtime's pending action (after a reload
   * or reconnect): finished results are re-sent, cut-off calls reported (or
   * re-run when idempotent), a pending call never started is run.
   */
  async recover(
    pending: { tool_call_id: string; tool_name: string; arguments: Record<string, unknown> } | null,
  ): Promise<void> {
    const { journal, sessionId } = this.#link;
    for (const entry of await journal.list(sessionId)) {
      if (entry.callId === pending?.tool_call_id || entry.state === "settled") continue;
      // A finished result goes out again (a 409 settles it); a started call no longer pending cannot be reported.
      const task = entry.state === "finished"
        ? () => this.#deliver(entry)
        : () => journal.settle(sessionId, entry.callId);
      this.#enqueue(() => this.#locked(entry.callId, task)).catch(() => {});
    }
    if (pending) {
      await this.schedule({
        call_id: pending.tool_call_id,
        tool_name: pending.tool_name,
        arguments: pending.arguments,
      });
    }
  }

  #enqueue(task: () => Promise<unknown>): Promise<void> {
    const run = this.#chain.then(task);
    this.#chain = run.catch(() => {});
    return run.then(() => {});
  }

  #locked(callId: string, fn: () => Promise<unknown>): Promise<unknown> {
    return withLock(`tether:${this.#link.sessionId}:${callId}`, fn);
  }

  #handle(call: Pick<PendingToolCall, "call_id" | "tool_name" | "arguments">): Promise<unknown> {
    const { journal, sessionId } = this.#link;
    return this.#locked(call.call_id, async () => {
      if (this.#link.closed.aborted) return;
      // After a reload the page may register its actions a little later (when a route mounts): give it a moment.
      const actions = this.#link.registry.actions;
      for (let waited = 0; !actions.has(call.tool_name) && waited < 3_000; waited += 100) {
        await sleep(100, this.#link.closed);
      }
      const entry: JournalEntry = {
        sessionId,
        callId: call.call_id,
        toolName: call.tool_name,
        arguments: call.arguments ?? {},
        // An action that asks first has not started until the user applies it.
        state: actions.get(call.tool_name)?.confirm ? "confirming" : "started",
        messageId: newId("r-"),
        startedAt: Date.now(),
      };
      if (await journal.claim(entry)) return this.#execute(entry);
      const existing = await journal.get(sessionId, call.call_id);
      // Settled (the runtime's pending view lagged behind our acknowledgement) or pruned: nothing to do.
      if (!existing || existing.state === "settled") return;
      if (existing.state === "finished") return this.#deliver(existing);
      // The user was asked and never answered (a reload, a closed tab): nothing ran, ask again.
      if (existing.state === "confirming") return this.#execute(existing);
      // Started, and we hold its lock: the page that ran it died mid-handler.
      if (this.#link.registry.actions.get(existing.toolName)?.idempotent) {
        return this.#execute({ ...existing, startedAt: Date.now() });
      }
      return this.#finish(
        existing,
        "failed",
        `The outcome of ${existing.toolName} is unknown: the page was reloaded or closed while it ran. Check its effect before trying again.`,
      );
    });
  }

  async #execute(entry: JournalEntry): Promise<void> {
    const call: PendingToolCall = {
      call_id: entry.callId,
      tool_name: entry.toolName,
      arguments: entry.arguments,
      queued: [],
      category: "host",
      waiting_for: "host",
    };
    const { journal } = this.#link;
    await journal.put(entry);
    const confirming = entry.state === "confirming";
    let began = !confirming;
    this.#link.emit(confirming ? "action:confirm" : "action:start", { call });
    const { outcome, result } = await runAction(
      this.#link.registry.actions.get(entry.toolName),
      call,
      {
        timeout: this.#link.timeout,
        signal: this.#link.signal(),
        withdraw: this.#link.closed,
        // From here on a reload cannot know what the handler did.
        started: async () => {
          began = true;
          if (!confirming) return;
          await journal.put({ ...entry, state: "started" });
          this.#link.emit("action:start", { call });
        },
      },
    );
    // Left before the user answered (another conversation, a closed host): nothing ran, and
    // the journal still says `confirming`, so the question comes back with the conversation.
    if (!began && this.#link.closed.aborted) return;
    await this.#finish(entry, outcome, result);
  }

  async #finish(
    entry: JournalEntry,
    outcome: "success" | "failed" | "declined",
    result: unknown,
  ): Promise<void> {
    const finished: JournalEntry = { ...entry, state: "finished", outcome, result };
    await this.#link.journal.put(finished);
    this.#link.emit("action:end", {
      call: {
        call_id: entry.callId,
        tool_name: entry.toolName,
        arguments: entry.arguments,
        queued: [],
        category: "host",
        waiting_for: "host",
      },
      outcome,
      result,
    });
    await this.#deliver(finished);
  }

  /** Sends a finished call's result until the runtime takes it or says it cannot. */
  async #deliver(entry: JournalEntry): Promise<void> {
    const { journal, sessionId } = this.#link;
    let delay = 500;
    while (!this.#link.closed.aborted) {
      // A context that cannot be built must not keep the result from the runtime: it reuses the last one.
      const context: HostContext | undefined = await this.#link.registry.build().catch(() =>
        undefined
      );
      try {
        await this.#link.send({
          id: entry.messageId,
          session_id: sessionId,
          content: "",
          tool_call_id: entry.callId,
          tool_result: entry.result ?? null,
          // A decline is a failure on the wire; its sentence says what happened.
          ...(entry.outcome !== "success" ? { tool_outcome: "failed" } : {}),
          ...(context ? { host_context: context } : {}),
        });
        await journal.settle(sessionId, entry.callId);
        return;
      } catch (error) {
        if (!(error instanceof TetherError) || error.status === 0 || error.status >= 500) {
          await sleep(delay, this.#link.closed);
          delay = Math.min(delay * 2, 5_000);
          continue;
        }
        if (error.status === 422 && entry.outcome === "success") {
          // The result itself was refused (too large, say): tell the model the action ran but its result could not be sent.
          entry = {
            ...entry,
            outcome: "failed",
            messageId: newId("r-"),
            result: `${entry.toolName} ran, but the runtime refused its result: ${error.message}`,
          };
          await journal.put(entry);
          continue;
        }
        // 409: recorded already, superseded or not pending: the runtime will never take this result.
        await journal.settle(sessionId, entry.callId);
        throw error;
      }
    }
  }
}
