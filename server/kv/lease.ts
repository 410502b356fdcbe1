/**
 * Session leases on top of any `Store`: at most one owner holds a key at a
 * time, until it releases the lease or lets it expire; then anyone may take
 * it. Every change is one `commit()` checked on the key's version (absent, to
 * take it; the version the holder's last write left, to renew or release it),
 * so the store, not this process, decides who wins, and no change reads first.
 *
 * @module
 */

import type { Key, Mutation, Store } from "./store.ts";

/**
 * A lease this process holds. Keep it to renew or release the lease.
 *
 * @example
 * ```ts
 * import { memoryStore } from "./memory.ts";
 * import { acquireLease, type Lease } from "./lease.ts";
 * const lease: Lease | null = await acquireLease(memoryStore(), ["lease", "s1"], "process-a", 30_000);
 * lease?.expiresAt; // epoch milliseconds
 * ```
 */
export interface Lease {
  key: Key;
  owner: string;
  /** Unique to this acquisition, so a lease taken over and re-acquired by the same owner is not confused with it. */
  token: string;
  ttlMs: number;
  /** Epoch milliseconds (this process's clock) when the lease lapses unless renewed. */
  expiresAt: number;
  /** The version the holder's last write left the key at: a renewal or release checks it. */
  version: string;
}

/**
 * What a lease key holds in the store.
 *
 * @example
 * ```ts
 * import { memoryStore } from "./memory.ts";
 * import { acquireLease, type LeaseRecord } from "./lease.ts";
 * const store = memoryStore();
 * await acquireLease(store, ["lease", "s1"], "process-a", 30_000);
 * (await store.get<LeaseRecord>(["lease", "s1"]))?.value.owner; // "process-a"
 * ```
 */
export interface LeaseRecord {
  owner: string;
  token: string;
  expiresAt: number;
}

/**
 * Writes for the commit that releases a lease to carry, and what to do once it is known
 * whether they landed (they do only while the lease is still held).
 *
 * @example
 * ```ts
 * import type { LeaseClosing } from "./lease.ts";
 * const closing: LeaseClosing = { mutations: [{ key: ["k"], value: 1 }], committed: (ok) => {} };
 * ```
 */
export interface LeaseClosing {
  mutations: Mutation[];
  committed(ok: boolean): void;
}

/**
 * Takes the lease at `key` for `owner` unless someone (the same owner included) holds it; returns null when held.
 *
 * @example
 * ```ts
 * import { memoryStore } from "./memory.ts";
 * import { acquireLease } from "./lease.ts";
 * const store = memoryStore();
 * const lease = await acquireLease(store, ["lease", "s1"], "process-a", 30_000);
 * if (lease === null) console.log("another process is running this session");
 * ```
 */
export async function acquireLease(
  store: Store,
  key: Key,
  owner: string,
  ttlMs: number,
): Promise<Lease | null> {
  if (!(ttlMs > 0)) {
    throw new TypeError(`Lease ttlMs must be a positive number of milliseconds; got ${ttlMs}.`);
  }
  // A store reads an expired key as absent, checks included, so this takes an expired lease over.
  return await write(store, key, owner, crypto.randomUUID(), ttlMs, null);
}

/**
 * Extends a lease by `ttlMs` (default: its own ttl); returns the renewed lease, or null when it was lost.
 *
 * @example
 * ```ts
 * import { memoryStore } from "./memory.ts";
 * import { acquireLease, renewLease } from "./lease.ts";
 * const store = memoryStore();
 * let lease = await acquireLease(store, ["lease", "s1"], "process-a", 30_000);
 * lease = lease && await renewLease(store, lease);
 * ```
 */
export async function renewLease(
  store: Store,
  lease: Lease,
  ttlMs = lease.ttlMs,
): Promise<Lease | null> {
  return await write(store, lease.key, lease.owner, lease.token, ttlMs, lease.version);
}

/**
 * Gives a lease up so another owner may take it at once, applying `mutations` in the same
 * commit (so they land only while the lease is still held); returns false when it was already
 * lost (nothing is applied then).
 *
 * @example
 * ```ts
 * import { memoryStore } from "./memory.ts";
 * import { acquireLease, releaseLease } from "./lease.ts";
 * const store = memoryStore();
 * const lease = await acquireLease(store, ["lease", "s1"], "process-a", 30_000);
 * if (lease) await releaseLease(store, lease);
 * ```
 */
export function releaseLease(
  store: Store,
  lease: Lease,
  mutations: readonly Mutation[] = [],
): Promise<boolean> {
  return store.atomic([{ key: lease.key, version: lease.version }], [
    { key: lease.key, forOthers: true },
    ...mutations,
  ]);
}

async function write(
  store: Store,
  key: Key,
  owner: string,
  token: string,
  ttlMs: number,
  version: string | null,
): Promise<Lease | null> {
  const expiresAt = Date.now() + ttlMs;
  const record: LeaseRecord = { owner, token, expiresAt };
  // Only other processes read a lease: a store alone on its database may keep it in memory.
  const written = await store.commit([{ key, version }], [
    { key, value: record, expireIn: ttlMs, forOthers: true },
  ]);
  const now = written?.[0];
  return now ? { key: [...key], owner, token, ttlMs, expiresAt, version: now } : null;
}
