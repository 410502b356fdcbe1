/**
 * Session leases on top of any `Store`: at most one owner holds a key at a
 * time, until it releases the lease or lets it expire; then anyone may take
 * it. Every change is an `atomic()` commit checked on the key's version, so
 * the store, not this process, decides who wins.
 *
 * @module
 */

import type { Key, Store } from "./store.ts";

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
  // get() returns null once the holder's lease expired, so a null check takes it over.
  if (await store.get(key) !== null) return null;
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
  const version = await heldVersion(store, lease);
  if (version === null) return null;
  return await write(store, lease.key, lease.owner, lease.token, ttlMs, version);
}

/**
 * Gives a lease up so another owner may take it at once; returns false when it was already lost.
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
export async function releaseLease(store: Store, lease: Lease): Promise<boolean> {
  const version = await heldVersion(store, lease);
  if (version === null) return false;
  return await store.atomic([{ key: lease.key, version }], [{ key: lease.key }]);
}

async function heldVersion(store: Store, lease: Lease): Promise<string | null> {
  const entry = await store.get<LeaseRecord>(lease.key);
  return entry !== null && entry.value?.token === lease.token ? entry.version : null;
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
  const won = await store.atomic([{ key, version }], [{ key, value: record, expireIn: ttlMs }]);
  return won ? { key: [...key], owner, token, ttlMs, expiresAt } : null;
}
