/**
 * The store interface: the one place sessions, messages, pending calls, the
 * event log and leases live. Every adapter (`memoryStore()`, `denoKvStore()`,
 * `redisStore()`, `postgresStore()`) implements it and passes the shared
 * contract suite in `store.case.ts`.
 *
 * Keys are arrays of strings (like Deno KV keys); adapters join them however
 * suits the engine, but `list()` must return entries in ascending key order,
 * comparing parts as strings, and a prefix `["a"]` must not match `["ab"]`.
 *
 * Values are JSON values. Adapters serialise them however they like, but a
 * value read back must deep-equal what was written.
 *
 * @module
 */

/** A key: one or more non-empty string parts. */
export type Key = readonly string[];

/** An entry read from the store. `version` changes on every write of the key. */
export interface Entry<T = unknown> {
  key: Key;
  value: T;
  /** Opaque; compare only for equality, pass back to `atomic()` checks. */
  version: string;
}

/** Options for a write. */
export interface SetOptions {
  /** Milliseconds until the key disappears (reads after that return null). */
  expireIn?: number;
}

/** A precondition of an atomic commit: the key's current version must equal `version` (null: the key must not exist). */
export interface Check {
  key: Key;
  version: string | null;
}

/** A write in an atomic commit: `value: undefined` deletes the key. */
export interface Mutation {
  key: Key;
  value?: unknown;
  expireIn?: number;
  /**
   * The caller knows the key was never written before (a write-once key, such as a log
   * entry under a number never handed out twice), so a backend need not look at what the
   * write replaces. A wrong claim costs at most the space of what was there; never data.
   */
  fresh?: boolean;
  /**
   * Only other processes need to read this key (a session's lease says "this process is running
   * the session" to the others). A store that knows no other process has its database open may
   * keep such a write in memory and write it the moment another process arrives; it still reads,
   * lists and checks the key for this process exactly as if written. Stores that cannot know
   * ignore the flag and write.
   */
  forOthers?: boolean;
}

/** Options for `list()`. */
export interface ListOptions {
  /** At most this many entries. */
  limit?: number;
  /** Newest-key-first (descending) order. */
  reverse?: boolean;
  /** Only keys strictly greater than `[...prefix, after]` (ascending) or strictly smaller (reverse). */
  after?: string;
}

/**
 * What a store can do, declared by the adapter itself (nothing reads a store's name to guess
 * it). The engine decides from these alone whether it needs leases, cross-process events and
 * per-process caches.
 *
 * @example
 * ```ts
 * const capabilities: StoreCapabilities = { shared: true, durable: true };
 * ```
 */
export interface StoreCapabilities {
  /**
   * Several processes (or Deno isolates) may open this store at once and must agree: turns take
   * a lease per session, events and cancel requests travel through `publish()`, and nothing
   * read from the store is cached in one process.
   */
  readonly shared: boolean;
  /** What is written outlives the process (event numbers are then reserved before use). */
  readonly durable: boolean;
}

/** A message published on a channel. Delivery is at most once, to every subscriber of every process sharing the store. */
export type Listener = (message: unknown) => void;

/**
 * The store. Every method may be called concurrently; `atomic()` is the only
 * way to make a decision that several processes must agree on.
 *
 * @example
 * ```ts
 * import { memoryStore } from "./memory.ts";
 * const store = memoryStore();
 * await store.set(["session", "s1"], { turn: 1 });
 * const entry = await store.get<{ turn: number }>(["session", "s1"]);
 * const won = await store.atomic(
 *   [{ key: ["session", "s1"], version: entry!.version }],
 *   [{ key: ["session", "s1"], value: { turn: 2 } }],
 * );
 * ```
 */
export interface Store {
  /** Short adapter name shown on /health and in logs ("memory", "denokv"…); never read to decide anything. */
  readonly name: string;
  /** What the store can do (see {@linkcode StoreCapabilities}). */
  readonly capabilities: StoreCapabilities;
  /** Reads one key; null when absent or expired. */
  get<T = unknown>(key: Key): Promise<Entry<T> | null>;
  /** Reads several keys at once, in the order given. */
  getMany<T = unknown>(keys: readonly Key[]): Promise<(Entry<T> | null)[]>;
  /** Writes one key unconditionally. */
  set(key: Key, value: unknown, options?: SetOptions): Promise<void>;
  /** Deletes one key (no error when absent). */
  delete(key: Key): Promise<void>;
  /** Entries whose key starts with `prefix` (the prefix itself excluded), in key order. */
  list<T = unknown>(prefix: Key, options?: ListOptions): Promise<Entry<T>[]>;
  /**
   * Applies every mutation if and only if every check holds, all or nothing,
   * decided by the database itself (a transaction, a conditional write or a
   * script), never by a read-then-write in this process. Returns whether it
   * committed.
   */
  atomic(checks: readonly Check[], mutations: readonly Mutation[]): Promise<boolean>;
  /**
   * `atomic()` that also answers, when it committed, the version each mutation left its key
   * at (null for a delete), in the order of `mutations`; null when a check failed. A caller
   * that writes a key and checks it again later needs no read in between.
   */
  commit(
    checks: readonly Check[],
    mutations: readonly Mutation[],
  ): Promise<(string | null)[] | null>;
  /** Publishes a message to every subscriber of `channel`, in every process sharing this store. */
  publish(channel: string, message: unknown): Promise<void>;
  /** Subscribes to a channel; returns the function that unsubscribes. */
  subscribe(channel: string, listener: Listener): Promise<() => Promise<void>>;
  /**
   * While no other process can write this store: a number that stays the same for as long as
   * that lasts, so what this process read stays true (but for its own writes) until the number
   * changes or this answers null. Null while another process may write (a shared store that
   * cannot know, or knows it is not alone).
   */
  alone(): number | null;
  /** Releases connections and timers. The store is unusable afterwards. */
  close(): Promise<void>;
}
