/**
 * `denoKvStore()`: the store in a Deno KV (SQLite) file, through Deno's own
 * KV on Deno, Node's own SQLite (`node:sqlite`) on Node 22 and later, and the
 * `@deno/kv` package on Node 20 (`_denokv.ts`). Keys are Deno KV keys as
 * they are; versions are versionstamps; expiry is `expireIn` plus a check on
 * read, because Deno KV removes expired keys only eventually.
 *
 * Values above about 60 KB (Deno KV takes 64 KiB per value) are split into
 * chunks written before the commit that stores their manifest, so a value
 * may be as large as memory allows while the commit itself stays small.
 * A commit may check at most 100 keys (10 on Node 20, through `@deno/kv`),
 * and write at most 1000 keys; larger ones fail with an error saying so.
 *
 * A Deno KV file, and Deno's own KV on Deno Deploy, may be opened by several
 * processes or isolates at once (two `deno serve` on one file,
 * `deno serve --parallel`, Deploy's isolates), so the store declares itself
 * `shared` and `durable` (`:memory:` is neither): the engine takes leases,
 * and publish/subscribe reaches every process on the database through it
 * (`_denokv_relay.ts`). Stores opened on the same path in one process share
 * their subscribers and one relay. A read or commit that finds the database
 * locked by another process is retried (`_denokv_retry.ts`).
 *
 * @module
 */

import { resolve } from "node:path";
import { Bus } from "./_bus.ts";
import { assertKey, assertValue, closedError, encodeValue } from "./_codec.ts";
import {
  assertKeySize,
  isExpired,
  isManifest,
  type Kv,
  type KvEntryMaybe,
  type KvKey,
  type KvLimits,
  openKv,
  readChunks,
  readRaw,
} from "./_denokv.ts";
import { KnownVersions } from "./_denokv_known.ts";
import { KvRelay } from "./_denokv_relay.ts";
import { KvReader } from "./_denokv_reader.ts";
import { KvWriter } from "./_denokv_writer.ts";
import { Sole } from "./_denokv_sole.ts";
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
 * The file `denoKvStore()` and `storeFromUrl()` use when given no path.
 *
 * @example
 * ```ts
 * import { DEFAULT_DENOKV_PATH, denoKvStore } from "./denokv.ts";
 * const store = await denoKvStore(DEFAULT_DENOKV_PATH);
 * ```
 */
export const DEFAULT_DENOKV_PATH = ".tether/store.db";

interface Shared {
  bus: Bus;
  refs: number;
  /** Messages to and from the other processes on the database (none for `:memory:`). */
  relay: KvRelay | null;
}

const buses = new Map<string, Shared>();
const RETRY = Symbol("retry");

/**
 * Opens (creating it and its folder if missing) the Deno KV file at `path`;
 * `null` opens Deno's own default database (the platform's KV on Deno Deploy).
 *
 * @example
 * ```ts
 * import { denoKvStore } from "./denokv.ts";
 * const store = await denoKvStore(".tether/store.db");
 * await store.set(["session", "s1"], { turn: 1 });
 * await store.close();
 * ```
 */
export async function denoKvStore(path: string | null = DEFAULT_DENOKV_PATH): Promise<Store> {
  const { kv, limits } = await openKv(path);
  const id = path === null
    ? "deno-default"
    : path === ":memory:"
    ? `:memory:${crypto.randomUUID()}`
    : resolve(path);
  const multi = path !== ":memory:";
  const known = new KnownVersions();
  // A file may be held alone (`_denokv_sole.ts`); Deno's own default database never is.
  const queue: { writer?: KvWriter } = {};
  const sole = multi && path !== null ? new Sole(kv, () => queue.writer?.kick()) : undefined;
  const writer = queue.writer = new KvWriter(kv, limits, known, sole);
  let shared = buses.get(id);
  if (shared === undefined) {
    const bus = new Bus();
    const relay = multi
      ? new KvRelay(kv, writer, limits, (channel, text) => bus.publishText(channel, text))
      : null;
    buses.set(id, shared = { bus, refs: 0, relay });
  } else {
    shared.relay?.add(kv, writer);
  }
  shared.relay?.alone(kv, () => sole?.held(Date.now()) ?? null);
  shared.refs++;
  sole?.start();
  // A store opens once it knows it may write: while another holds the file alone, that one
  // writes nothing for the other processes, so a client this process served meanwhile could
  // miss its events. Its yield comes within the holder's watch (50 to 250 ms).
  await sole?.writable();
  return new DenoKvStore(kv, limits, id, shared, multi, { known, writer, sole });
}

class DenoKvStore implements Store {
  readonly name = "denokv";
  readonly capabilities: Store["capabilities"];
  #kv: Kv;
  #limits: KvLimits;
  #id: string;
  #bus: Bus;
  #relay: KvRelay | null;
  #reader: KvReader;
  #writer: KvWriter;
  #sole: Sole | undefined;
  #closed = false;

  constructor(
    kv: Kv,
    limits: KvLimits,
    id: string,
    shared: Shared,
    multi: boolean,
    queue: { known: KnownVersions; writer: KvWriter; sole?: Sole },
  ) {
    this.capabilities = { shared: multi, durable: multi };
    this.#kv = kv;
    this.#limits = limits;
    this.#id = id;
    this.#bus = shared.bus;
    this.#relay = shared.relay;
    this.#reader = new KvReader(kv, limits, queue.known);
    this.#writer = queue.writer;
    this.#sole = queue.sole;
  }

  async get<T = unknown>(key: Key): Promise<Entry<T> | null> {
    this.#open();
    assertKey(key);
    assertKeySize(key);
    if (this.#sole?.holding) {
      const held = this.#sole.read(JSON.stringify(key), Date.now());
      if (held !== undefined) return this.#decode<T>(held, Date.now()) as Promise<Entry<T> | null>;
    }
    for (let attempt = 0; attempt < 10; attempt++) {
      const entry = await this.#decode<T>(await this.#reader.get(key), Date.now());
      if (entry !== RETRY) return entry;
    }
    throw new Error(
      `Deno KV key ${JSON.stringify(key)} kept changing while it was read; try again.`,
    );
  }

  async getMany<T = unknown>(keys: readonly Key[]): Promise<(Entry<T> | null)[]> {
    this.#open();
    for (const key of keys) {
      assertKey(key);
      assertKeySize(key);
    }
    // A snapshot that fits one read joins the reads waiting beside it; a larger one is read in
    // parts.
    const raw = keys.length <= this.#limits.reads
      ? await this.#reader.getMany(keys)
      : await readRaw(this.#kv, this.#limits, keys);
    const now = Date.now();
    if (this.#sole?.holding) {
      keys.forEach((key, i) => (raw[i] = this.#sole!.read(JSON.stringify(key), now) ?? raw[i]));
    }
    return await Promise.all(raw.map(async (entry, i) => {
      const decoded = await this.#decode<T>(entry, now);
      return decoded === RETRY ? this.get<T>(keys[i]) : decoded;
    }));
  }

  async set(key: Key, value: unknown, options?: SetOptions): Promise<void> {
    this.#open();
    // A mutation without a value deletes; set() must refuse one instead.
    assertValue(value);
    await this.#writer.commit([], [{ key, value, expireIn: options?.expireIn }]);
  }

  async delete(key: Key): Promise<void> {
    this.#open();
    await this.#writer.commit([], [{ key }]);
  }

  async list<T = unknown>(prefix: Key, options: ListOptions = {}): Promise<Entry<T>[]> {
    this.#open();
    assertKey(prefix, "list prefix");
    assertKeySize(prefix, "list prefix");
    const { after, reverse = false, limit = Infinity } = options;
    const out: Entry<T>[] = [];
    if (limit <= 0) return out;
    const pivot = after === undefined ? undefined : [...prefix, after];
    // Deno's `start` is inclusive and `end` exclusive; the pivot itself is skipped below.
    const selector = pivot === undefined
      ? { prefix }
      : reverse
      ? { prefix, end: pivot }
      : { prefix, start: pivot };
    const batchSize = Math.min(500, limit === Infinity ? 500 : limit + 1);
    const now = Date.now();
    // Keys kept in memory (`_denokv_sole.ts`) are listed as kept, merged in key order.
    const held = this.#sole?.under(prefix, now) ?? [];
    const listing = held.length
      ? mergeHeld(this.#kv.list(selector, { reverse, batchSize }), held, reverse, pivot)
      : this.#kv.list(selector, { reverse, batchSize });
    for await (const raw of listing) {
      if (
        pivot !== undefined && !reverse && raw.key.length === pivot.length &&
        raw.key.at(-1) === after
      ) continue;
      let entry = await this.#decode<T>(raw, now);
      if (entry === RETRY) entry = await this.get<T>(raw.key as Key);
      if (entry === null) continue;
      out.push(entry);
      if (out.length >= limit) break;
    }
    return out;
  }

  async atomic(checks: readonly Check[], mutations: readonly Mutation[]): Promise<boolean> {
    return (await this.commit(checks, mutations)) !== null;
  }

  async commit(
    checks: readonly Check[],
    mutations: readonly Mutation[],
  ): Promise<(string | null)[] | null> {
    this.#open();
    return await this.#writer.commit(checks, mutations);
  }

  async publish(channel: string, message: unknown): Promise<void> {
    this.#open();
    // Serialised once, for this process's subscribers and the other processes alike.
    const text = encodeValue(message);
    this.#bus.publishText(channel, text);
    await this.#relay?.publish(channel, text);
  }

  // deno-lint-ignore require-await -- async so that a closed store rejects rather than throws
  async subscribe(channel: string, listener: Listener): Promise<() => Promise<void>> {
    this.#open();
    const off = this.#bus.subscribe(channel, listener);
    return () => Promise.resolve(off());
  }

  /**
   * A file held alone (`_denokv_sole.ts`): the number of the hold, while it lasts; `:memory:`
   * is this process's alone; Deno's default database, or a file shared, is never alone.
   */
  alone(): number | null {
    if (!this.capabilities.shared) return 0;
    return this.#sole?.held(Date.now()) ?? null;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const shared = buses.get(this.#id);
    if (shared !== undefined && --shared.refs === 0) {
      buses.delete(this.#id);
      await shared.relay?.close();
    } else {
      shared?.relay?.drop(this.#kv);
    }
    await this.#sole?.close();
    this.#kv.close();
  }

  #open(): void {
    if (this.#closed) throw closedError(this.name);
  }

  async #decode<T>(raw: KvEntryMaybe, now: number): Promise<Entry<T> | null | typeof RETRY> {
    const { value, versionstamp } = raw;
    if (versionstamp === null || isExpired(value, now)) return null;
    let text: string | undefined;
    if (isManifest(value)) {
      text = await readChunks(this.#kv, value);
      if (text === undefined) return RETRY;
    } else if (
      typeof value === "object" && value !== null &&
      typeof (value as { j?: unknown }).j === "string"
    ) {
      text = (value as { j: string }).j;
    }
    // Anything else was not written by this store; hand it over as it is.
    const decoded = text === undefined ? value : JSON.parse(text);
    return { key: raw.key as Key, value: decoded as T, version: versionstamp };
  }
}

/** Whether key `a` sorts before key `b` as Deno KV orders them (here: string parts only). */
function before(a: KvKey, b: KvKey): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) continue;
    return (a[i] as string) < (b[i] as string);
  }
  return a.length < b.length;
}

/**
 * A listing with the held entries under its prefix merged in, in its order: a held key replaces
 * the database's entry for it (a held delete removes it), within the listing's bounds.
 */
async function* mergeHeld(
  listing: AsyncIterable<KvEntryMaybe>,
  held: [string, KvEntryMaybe][],
  reverse: boolean,
  pivot: KvKey | undefined,
): AsyncIterable<KvEntryMaybe> {
  const inRange = held.filter(([, e]) =>
    pivot === undefined || (reverse ? before(e.key, pivot) : !before(e.key, pivot))
  ).sort(([, a], [, b]) => (before(a.key, b.key) === reverse ? 1 : -1));
  const ids = new Set(inRange.map(([id]) => id));
  let next = 0;
  for await (const raw of listing) {
    while (
      next < inRange.length &&
      (reverse ? before(raw.key, inRange[next][1].key) : before(inRange[next][1].key, raw.key))
    ) {
      if (inRange[next][1].versionstamp !== null) yield inRange[next][1];
      next++;
    }
    if (ids.has(JSON.stringify(raw.key))) continue;
    yield raw;
  }
  for (; next < inRange.length; next++) {
    if (inRange[next][1].versionstamp !== null) yield inRange[next][1];
  }
}
