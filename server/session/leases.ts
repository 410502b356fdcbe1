/**
 * Session leases for several runtime processes sharing one store: only the
 * process holding `["lease", id]` runs the session's turn; it renews the
 * lease while the turn runs, and another process takes it over once it
 * expires (its holder died).
 *
 * A cancel sent to another process is durable: it commits
 * `["lease_cancel", id, token]` for the lease's acquisition (so it cannot
 * stop a later turn), and the holder reads that key every
 * {@linkcode CANCEL_POLL_MS} ms while it holds the lease. The message on
 * {@linkcode CONTROL_CHANNEL} is only the fast path; a message the relay
 * misses or delivers late no longer loses the cancel.
 *
 * @module
 */
import {
  acquireLease,
  type Lease,
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

/** How often the lease holder reads its cancel key (ms). */
export const CANCEL_POLL_MS = 150;

const leaseKey = (id: string) => ["lease", id];
const cancelKey = (id: string, token: string) => ["lease_cancel", id, token];

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
   * Runs `fn` holding the session's lease; `stop` is called if a renewal fails, and at every
   * read of the cancel key that finds a cancel another process recorded (again at each read,
   * so a turn that registers after the first read is still stopped).
   */
  async hold<T>(sessionId: string, fn: () => Promise<T>, stop: () => void): Promise<T> {
    const lease = await this.#acquire(sessionId);
    let current: Lease = lease;
    const timer = setInterval(() => {
      renewLease(this.#store, current, this.#ttl).then((next) => {
        if (next) current = next as Lease;
        else stop();
      }, stop);
    }, Math.max(50, Math.floor(this.#ttl / 3)));
    const key = cancelKey(sessionId, lease.token);
    let holding = true;
    let poll: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      poll = setTimeout(() => {
        this.#store.get(key).then((entry) => {
          if (entry && holding) stop();
        }, () => {/* a failed read is retried at the next one */}).finally(() => {
          if (holding) check();
        });
      }, CANCEL_POLL_MS);
    };
    check();
    try {
      return await fn();
    } finally {
      holding = false;
      clearInterval(timer);
      clearTimeout(poll);
      await this.#store.delete(key).catch(() => {});
      await releaseLease(this.#store, current).catch(() => {});
    }
  }

  /**
   * Records a cancel for the turn another process runs under the session's lease, durably, so
   * the holder finds it at its next read of the cancel key; false when no other process holds it.
   */
  async cancelElsewhere(sessionId: string): Promise<boolean> {
    const held = await this.#elsewhere(sessionId);
    if (held === null) return false;
    await this.#store.set(cancelKey(sessionId, held.token), { at: Date.now() }, {
      // Outlives any lease: the holder deletes it when it lets the lease go.
      expireIn: Math.max(60_000, this.#ttl * 6),
    });
    return true;
  }

  async #elsewhere(sessionId: string): Promise<LeaseRecord | null> {
    const entry = await this.#store.get<LeaseRecord>(leaseKey(sessionId));
    return entry && entry.value.owner !== this.#owner && entry.value.expiresAt > Date.now()
      ? entry.value
      : null;
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
