/**
 * The oversight holds of this runtime, in the store (`["policy_hold",
 * request_id]`), so a hold survives a restart: on start every stored hold is
 * watched again. Each hold is polled until its approval is decided or its
 * window passes on the runtime's own clock; the process that claims it (an
 * atomic delete) retries the evaluation with the token, and releases the
 * call with allow only when that retry answers allow.
 *
 * @module
 */
import type { Verdict } from "../../protocol/mod.ts";
import type { Store } from "../kv/store.ts";
import type { Logger } from "../log.ts";
import { backgroundInterval } from "../background_timer.ts";
import type { ApprovalOffer } from "./contract.ts";
import type { GateCall, PolicyGate } from "./gate.ts";
import { awaitApproval, type HoldClock } from "./hold.ts";

/** A held call as stored. */
export interface HoldRecord {
  call: GateCall;
  request_id: string;
  timeout_seconds: number;
  /** When the hold began on this runtime's clock (epoch ms). */
  started_at: number;
}

/** What the watcher needs. */
export interface HoldWatcherOptions {
  store: Store;
  gate: PolicyGate;
  clock: HoldClock;
  pollMs: number;
  /** Resumes the held call's turn with the verdict (`Engine.resumeHeld`). */
  release: (sessionId: string, callId: string, verdict: Verdict) => Promise<unknown>;
  logger: Logger;
}

const PREFIX = ["policy_hold"] as const;
// Kept a while past the window, so a restart after the window still ends the hold (as a timeout).
const KEEP_MS = 600_000;

/**
 * Watches holds and releases their calls.
 *
 * @example
 * ```ts
 * const holds = new HoldWatcher({ store, gate, clock: realClock, pollMs: 2_000, release, logger });
 * await holds.start();
 * ```
 */
export class HoldWatcher {
  #o: HoldWatcherOptions;
  #watching = new Map<string, Promise<void>>();
  #stop = new AbortController();
  #stopRescan: (() => void) | undefined;

  constructor(options: HoldWatcherOptions) {
    this.#o = options;
  }

  /** Watches every hold found in the store (those a previous run left), and looks again now and then. */
  async start(): Promise<void> {
    await this.rescan();
    // A process that died leaves its holds to the others sharing the store.
    this.#stopRescan = backgroundInterval(
      () => void this.rescan().catch(() => {}),
      Math.max(30_000, this.#o.pollMs * 15),
    );
  }

  /** Watches the stored holds this process is not watching yet. */
  async rescan(): Promise<void> {
    if (this.#stop.signal.aborted) return;
    const found = await this.#o.store.list<HoldRecord>(PREFIX, { limit: 10_000 });
    for (const e of found) this.#watch(e.value);
  }

  /** Stores a new hold and starts polling it. */
  async add(call: GateCall, offer: ApprovalOffer): Promise<void> {
    const record: HoldRecord = {
      call,
      request_id: offer.request_id,
      timeout_seconds: offer.timeout_seconds,
      started_at: this.#o.clock.now(),
    };
    await this.#o.store.set([...PREFIX, offer.request_id], record, {
      expireIn: offer.timeout_seconds * 1000 + KEEP_MS,
    });
    this.#watch(record);
  }

  /** Stops polling (holds stay in the store for the next start) and waits for the loops. */
  async stop(): Promise<void> {
    this.#stopRescan?.();
    this.#stop.abort();
    await Promise.allSettled([...this.#watching.values()]);
  }

  #watch(hold: HoldRecord): void {
    if (this.#watching.has(hold.request_id) || this.#stop.signal.aborted) return;
    const run = this.#run(hold).catch((error) =>
      this.#o.logger.error("an approval hold failed", { request_id: hold.request_id, error })
    ).finally(() => this.#watching.delete(hold.request_id));
    this.#watching.set(hold.request_id, run);
  }

  async #run(hold: HoldRecord): Promise<void> {
    const { gate, clock, pollMs, store } = this.#o;
    const signal = this.#stop.signal;
    const end = await awaitApproval(gate, hold, {
      startedAt: hold.started_at,
      clock,
      pollMs,
      signal,
    });
    if (signal.aborted) return;
    // Only the process that removes the hold goes on, so a token is presented once.
    const key = [...PREFIX, hold.request_id];
    const entry = await store.get(key);
    if (!entry || !(await store.atomic([{ key, version: entry.version }], [{ key }]))) return;
    let verdict: Verdict;
    if (end.approved) {
      const retry = await gate.evaluate(hold.call, end.token);
      verdict = retry.decision === "allow" ? retry : {
        decision: "deny",
        reason: retry.decision === "deny" ? retry.reason : "The approval did not release the call.",
      };
    } else verdict = { decision: "deny", reason: end.reason };
    try {
      await this.#o.release(hold.call.sessionId, hold.call.callId, verdict);
    } catch (error) {
      // The call is no longer held (a newer message superseded it, the session was deleted).
      this.#o.logger.warn("a held call could not be released", {
        session_id: hold.call.sessionId,
        call_id: hold.call.callId,
        error: (error as Error).message,
      });
    }
  }
}
