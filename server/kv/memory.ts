/**
 * `memoryStore()`: the store in this process's memory, for tests, demos and
 * single-process deployments that may lose their state on restart.
 *
 * Every method does its work synchronously when called, so `atomic()` is
 * atomic because JavaScript runs one task at a time, and answers on a later
 * turn of the event loop, as a store whose answers come back over I/O does:
 * concurrent turns take turns between store calls rather than each running
 * to its end while the rest wait (docs/architecture.md, Decisions).
 * Values are copied in and out (primitives as they are, objects as JSON
 * text, which measured faster than `structuredClone` for small records on
 * Node 20 and Deno 2), so callers never share objects with the store.
 *
 * @module
 */

// Methods are async without awaiting so that a bad argument or a closed store rejects rather than throws.
// deno-lint-ignore-file require-await

import { Bus } from "./_bus.ts";
import { assertKey, checkExpireIn, closedError, encodeValue } from "./_codec.ts";
import { ensure, find, node, put, type Rec, remove, stored, type TreeNode, walk } from "./_tree.ts";
import type {
  Check,
  Entry,
  Key,
  Listener,
  ListOptions,
  Mutation,
  SetOptions,
  Store,
} from "./store.ts";

/**
 * Creates an empty in-process store; publish/subscribe reaches only this instance.
 *
 * @example
 * ```ts
 * import { memoryStore } from "./memory.ts";
 * const store = memoryStore();
 * await store.set(["session", "s1"], { turn: 1 }, { expireIn: 60_000 });
 * (await store.get(["session", "s1"]))?.value; // { turn: 1 }
 * ```
 */
export function memoryStore(): Store {
  return new MemoryStore();
}

interface Expiring {
  key: Key;
  version: string;
  at: number;
}

class MemoryStore implements Store {
  readonly name = "memory";
  readonly capabilities = { shared: false, durable: false } as const;
  #root: TreeNode = node();
  #counter = 0;
  #closed = false;
  #bus = new Bus();
  // Keys written with an expiry, swept now and then so unread expired keys do not pile up.
  #expiring: Expiring[] = [];
  #sweepAt = 1024;

  async get<T = unknown>(key: Key): Promise<Entry<T> | null> {
    this.#open();
    assertKey(key);
    return later(this.#read<T>(key));
  }

  async getMany<T = unknown>(keys: readonly Key[]): Promise<(Entry<T> | null)[]> {
    this.#open();
    for (const key of keys) assertKey(key);
    return later(keys.map((key) => this.#read<T>(key)));
  }

  async set(key: Key, value: unknown, options?: SetOptions): Promise<void> {
    this.#open();
    assertKey(key);
    this.#write(key, this.#rec(value, options?.expireIn));
    await later(undefined);
  }

  async delete(key: Key): Promise<void> {
    this.#open();
    assertKey(key);
    remove(this.#root, key);
    await later(undefined);
  }

  async list<T = unknown>(prefix: Key, options: ListOptions = {}): Promise<Entry<T>[]> {
    this.#open();
    assertKey(prefix, "list prefix");
    const limit = options.limit ?? Infinity;
    const out: Entry<T>[] = [];
    const expired: string[][] = [];
    if (limit <= 0) return later(out);
    const now = Date.now();
    walk(this.#root, prefix, options.after, options.reverse === true, (key, rec) => {
      if (rec.expiresAt !== 0 && rec.expiresAt <= now) expired.push(key);
      else out.push({ key, value: copy(rec) as T, version: rec.version });
      return out.length < limit;
    });
    for (const key of expired) remove(this.#root, key);
    return later(out);
  }

  async atomic(checks: readonly Check[], mutations: readonly Mutation[]): Promise<boolean> {
    return (await this.commit(checks, mutations)) !== null;
  }

  async commit(
    checks: readonly Check[],
    mutations: readonly Mutation[],
  ): Promise<(string | null)[] | null> {
    this.#open();
    for (const check of checks) assertKey(check.key, "check key");
    // Serialise every value before deciding, so a bad value cannot leave a half-applied commit.
    const recs = mutations.map((m) => {
      assertKey(m.key, "mutation key");
      return m.value === undefined ? undefined : this.#rec(m.value, m.expireIn, false);
    });
    for (const check of checks) {
      if ((this.#live(check.key)?.version ?? null) !== check.version) return later(null);
    }
    if (recs.length > 0) this.#counter++;
    const version = String(this.#counter);
    for (let i = 0; i < recs.length; i++) {
      const rec = recs[i];
      if (rec === undefined) remove(this.#root, mutations[i].key);
      else {
        rec.version = version;
        this.#write(mutations[i].key, rec);
      }
    }
    return later(recs.map((rec) => (rec === undefined ? null : version)));
  }

  async publish(channel: string, message: unknown): Promise<void> {
    this.#open();
    this.#bus.publish(channel, message);
    await later(undefined);
  }

  async subscribe(channel: string, listener: Listener): Promise<() => Promise<void>> {
    this.#open();
    const off = this.#bus.subscribe(channel, listener);
    return () => Promise.resolve(off());
  }

  /** One process's memory: nobody else ever writes it. */
  alone(): number {
    return 0;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#root = node();
    this.#expiring = [];
    this.#bus.clear();
  }

  #open(): void {
    if (this.#closed) throw closedError(this.name);
  }

  #rec(value: unknown, expireIn: number | undefined, versioned = true): Rec {
    const kind = typeof value;
    const primitive = value === null || kind === "string" || kind === "boolean" ||
      (kind === "number" && Number.isFinite(value));
    return {
      data: primitive ? value : flat(encodeValue(value)),
      json: !primitive,
      version: versioned ? String(++this.#counter) : "",
      expiresAt: expireIn === undefined ? 0 : Date.now() + checkExpireIn(expireIn),
    };
  }

  #write(key: Key, rec: Rec): void {
    put(ensure(this.#root, key), rec);
    if (rec.expiresAt === 0) return;
    this.#expiring.push({ key: [...key], version: rec.version, at: rec.expiresAt });
    if (this.#expiring.length >= this.#sweepAt) this.#sweep();
  }

  #sweep(): void {
    const now = Date.now();
    const kept: Expiring[] = [];
    for (const item of this.#expiring) {
      const rec = stored(find(this.#root, item.key));
      if (rec === undefined || rec.version !== item.version) continue;
      if (item.at <= now) remove(this.#root, item.key);
      else kept.push(item);
    }
    this.#expiring = kept;
    this.#sweepAt = Math.max(1024, kept.length * 2);
  }

  #live(key: Key): Rec | undefined {
    const rec = stored(find(this.#root, key));
    if (rec === undefined || rec.expiresAt === 0 || rec.expiresAt > Date.now()) return rec;
    remove(this.#root, key);
    return undefined;
  }

  #read<T>(key: Key): Entry<T> | null {
    const rec = this.#live(key);
    return rec === undefined ? null : { key, value: copy(rec) as T, version: rec.version };
  }
}

/**
 * Answers `value` on a later turn of the event loop (`setImmediate`), where a store over a
 * database answers once its reply arrives. Settled at once, a memory turn ran from its request
 * to its answer in one go while every other request waited: under 200 concurrent turns that
 * held the event loop up to 250 ms, and cost a third more CPU a turn (docs/performance.md).
 */
function later<T>(value: T): Promise<T> {
  return new Promise((resolve) => setImmediate(resolve, value));
}

/**
 * V8's `JSON.stringify()` answers a rope, a tree of the pieces it wrote (about a dozen objects
 * for a 500-byte record). Reading one character makes V8 flatten it in place into one string,
 * so the store keeps one object per value for every later garbage collection to walk, not a
 * dozen.
 */
function flat(text: string): string {
  text.charCodeAt(0);
  return text;
}

function copy(rec: Rec): unknown {
  return rec.json ? JSON.parse(rec.data as string) : rec.data;
}
