/**
 * Session leases for several runtime processes sharing one store: only the
 * process holding `["lease", id]` runs the session's turn; it renews the
 * lease while the turn runs, and another process takes it over once it
 * expires (its holder died).
 *
 * @module
 */
import {
  acquireLease,
  type Lease,
  type LeaseClosing,
  type LeaseRecord,
  releaseLease,
  renewLease,
} from "../kv/lease.ts";
import type { Store } from "../kv/store.ts";
import { TetherError } from "../http/errors.ts";

/** The store channel for requests between processes (cancel). */
export const CONTROL_CHANNEL = "tether:control";

/**
 * Whether a store is shared by several processes (so leases and event fan-out are needed), as
 * the store itself declares it.
 *
 * @example
 * ```ts
 * isShared(memoryStore()); // false
 * ```
 */
export function isShared(store: Store): boolean {
  return store.capabilities.shared;
}

const leaseKey = (id: string) => ["lease", id];

/**
 * Holds session leases for this process.
 *
 * @example
 * ```ts
 * const leases = new SessionLeases(store, 10_000);
 * await leases.hold("s1", async () => runTurn(), () => abortTurn());
 * ```
 */
export class SessionLeases {
  #store: Store;
  #ttl: number;
  #owner = crypto.randomUUID();
  /** How long to wait for another process's turn before refusing (ms). */
  maxWaitMs = 120_000;

  constructor(store: Store, ttlMs: number) {
    this.#store = store;
    this.#ttl = ttlMs;
  }

  /**
   * Runs `fn` holding the session's lease; `onLost` is called if a renewal fails. `closing`
   * answers the writes to make with the release, in its commit (so they land only while the
   * lease is held), and is told whether they committed.
   */
  async hold<T>(
    sessionId: string,
    fn: () => Promise<T>,
    onLost: () => void,
    closing?: () => Promise<LeaseClosing | null>,
  ): Promise<T> {
    let current: Lease = await this.#acquire(sessionId);
    let renewing: Promise<unknown> = Promise.resolve();
    const timer = setInterval(() => {
      renewing = renewLease(this.#store, current, this.#ttl).then((next) => {
        if (next) current = next;
        else onLost();
      }, onLost);
    }, Math.max(50, Math.floor(this.#ttl / 3)));
    try {
      return await fn();
    } finally {
      clearInterval(timer);
      // A renewal under way changes the version the release must check.
      await renewing;
      const last = await closing?.().catch(() => null) ?? null;
      const released = await releaseLease(this.#store, current, last?.mutations)
        .catch(() => false);
      last?.committed(released);
    }
  }

  /** Whether another process holds the session's lease now. */
  async heldElsewhere(sessionId: string): Promise<boolean> {
    const entry = await this.#store.get<LeaseRecord>(leaseKey(sessionId));
    return !!entry && entry.value.owner !== this.#owner && entry.value.expiresAt > Date.now();
  }

  async #acquire(sessionId: string): Promise<Lease> {
    const deadline = Date.now() + this.maxWaitMs;
    let wait = 5;
    for (;;) {
      const lease = await acquireLease(this.#store, leaseKey(sessionId), this.#owner, this.#ttl);
      if (lease) return lease;
      if (Date.now() > deadline) {
        throw new TetherError(
          409,
          "session_error",
          `Session ${sessionId} is busy in another runtime process; retry shortly.`,
        );
      }
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(100, wait * 2);
    }
  }
}
