/**
 * `redisStore()`: the store in Redis, through the `redis` package. Every
 * write, `set()` and `delete()` included, is one Lua script that checks
 * versions and applies its mutations inside Redis; `list()` walks a sorted
 * index with ZRANGEBYLEX; expiry is Redis's own (PEXPIRE); publish/subscribe
 * is Redis pub/sub on a second connection opened at the first subscribe.
 * The key layout is described in `_redis_lua.ts`.
 *
 * @module
 */

import { log } from "../log.ts";
import { createClient } from "redis";
import { deliver } from "./_bus.ts";
import {
  assertKey,
  assertValue,
  checkExpireIn,
  closedError,
  decodeKey,
  encodeKey,
  encodeValue,
  listBounds,
} from "./_codec.ts";
import { COMMIT, LIST } from "./_redis_lua.ts";
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
 * Options of `redisStore()`.
 *
 * @example
 * ```ts
 * import { redisStore } from "./redis.ts";
 * const store = await redisStore("redis://127.0.0.1:6379", { namespace: "tether-staging" });
 * ```
 */
export interface RedisStoreOptions {
  /** Prefix of every Redis key and channel name this store uses (default "tether"). */
  namespace?: string;
}

type Client = ReturnType<typeof connectClient>;

function connectClient(url: string) {
  const client = createClient({ url });
  client.on(
    "error",
    (error: Error) => log.error("Redis store connection error", { error: error.message }),
  );
  return client;
}

/**
 * Connects to Redis at `url` (`redis://` or `rediss://`) and returns the store.
 *
 * @example
 * ```ts
 * import { redisStore } from "./redis.ts";
 * const store = await redisStore("redis://127.0.0.1:6379");
 * await store.set(["session", "s1"], { turn: 1 }, { expireIn: 86_400_000 });
 * await store.close();
 * ```
 */
export async function redisStore(url: string, options: RedisStoreOptions = {}): Promise<Store> {
  const client = connectClient(url);
  await client.connect();
  const [commit, list] = await Promise.all([client.scriptLoad(COMMIT), client.scriptLoad(LIST)]);
  return new RedisStore(client, options.namespace ?? "tether", { commit, list });
}

class RedisStore implements Store {
  readonly name = "redis";
  readonly capabilities = { shared: true, durable: true } as const;
  #client: Client;
  #subscriber: Promise<Client> | undefined;
  #ns: string;
  #data: string;
  #dataBytes: string;
  #shas: { commit: string; list: string };
  #closed = false;

  constructor(client: Client, namespace: string, shas: { commit: string; list: string }) {
    this.#client = client;
    this.#ns = `{${namespace}}:`;
    this.#data = `${this.#ns}k:`;
    // Lua measures strings in bytes.
    this.#dataBytes = String(new TextEncoder().encode(this.#data).length);
    this.#shas = shas;
  }

  async get<T = unknown>(key: Key): Promise<Entry<T> | null> {
    this.#open();
    assertKey(key);
    const [version, data] = await this.#client.hmGet(this.#data + encodeKey(key), ["v", "d"]);
    return version == null ? null : { key, value: JSON.parse(data as string) as T, version };
  }

  async getMany<T = unknown>(keys: readonly Key[]): Promise<(Entry<T> | null)[]> {
    this.#open();
    for (const key of keys) assertKey(key);
    // The client pipelines commands sent in the same tick.
    return await Promise.all(keys.map((key) => this.get<T>(key)));
  }

  async set(key: Key, value: unknown, options?: SetOptions): Promise<void> {
    assertValue(value);
    await this.#commit([], [{ key, value, expireIn: options?.expireIn }]);
  }

  async delete(key: Key): Promise<void> {
    await this.#commit([], [{ key }]);
  }

  async list<T = unknown>(prefix: Key, options: ListOptions = {}): Promise<Entry<T>[]> {
    this.#open();
    assertKey(prefix, "list prefix");
    const { after, reverse = false, limit } = options;
    if (limit !== undefined && limit <= 0) return [];
    const { lower, upper } = listBounds(prefix, after, reverse);
    const reply = await this.#script(this.#shas.list, LIST, [`${this.#ns}index`], [
      `(${lower}`,
      `(${upper}`,
      reverse ? "1" : "0",
      String(limit === undefined || limit === Infinity ? 0 : Math.floor(limit)),
      this.#data,
    ]) as string[];
    const out: Entry<T>[] = [];
    for (let i = 0; i < reply.length; i += 3) {
      out.push({
        key: decodeKey(reply[i]),
        value: JSON.parse(reply[i + 2]) as T,
        version: reply[i + 1],
      });
    }
    return out;
  }

  async atomic(checks: readonly Check[], mutations: readonly Mutation[]): Promise<boolean> {
    return (await this.#commit(checks, mutations)) !== null;
  }

  commit(
    checks: readonly Check[],
    mutations: readonly Mutation[],
  ): Promise<(string | null)[] | null> {
    return this.#commit(checks, mutations);
  }

  async publish(channel: string, message: unknown): Promise<void> {
    this.#open();
    await this.#client.publish(this.#ns + channel, encodeValue(message));
  }

  async subscribe(channel: string, listener: Listener): Promise<() => Promise<void>> {
    this.#open();
    this.#subscriber ??= (async () => {
      const subscriber = this.#client.duplicate();
      subscriber.on(
        "error",
        (error: Error) => log.error("Redis store subscriber error", { error: error.message }),
      );
      await subscriber.connect();
      return subscriber;
    })();
    const subscriber = await this.#subscriber;
    // Each subscription gets its own function, so unsubscribing removes exactly it.
    const own = (text: string) => deliver(listener, JSON.parse(text));
    const name = this.#ns + channel;
    await subscriber.subscribe(name, own);
    return async () => {
      if (!this.#closed) await subscriber.unsubscribe(name, own);
    };
  }

  /** A server any process may reach: never known to be alone. */
  alone(): null {
    return null;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const subscriber = this.#subscriber;
    await Promise.all([
      this.#client.close(),
      subscriber?.then((s) => s.close(), () => {}),
    ]);
  }

  #open(): void {
    if (this.#closed) throw closedError(this.name);
  }

  async #commit(
    checks: readonly Check[],
    mutations: readonly Mutation[],
  ): Promise<(string | null)[] | null> {
    this.#open();
    const keys = [`${this.#ns}seq`, `${this.#ns}index`, `${this.#ns}expiry`];
    const args = [String(checks.length), this.#dataBytes];
    for (const check of checks) {
      assertKey(check.key, "check key");
      keys.push(this.#data + encodeKey(check.key));
      args.push(check.version ?? "");
    }
    for (const m of mutations) {
      assertKey(m.key, "mutation key");
      keys.push(this.#data + encodeKey(m.key));
      if (m.value === undefined) args.push("d", "", "0");
      else {args.push(
          "s",
          encodeValue(m.value),
          String(m.expireIn === undefined ? 0 : checkExpireIn(m.expireIn)),
        );}
    }
    // The script answers 0 when a check failed, else the version of this commit's writes.
    const version = await this.#script(this.#shas.commit, COMMIT, keys, args);
    if (version === 0) return null;
    return mutations.map((m) => (m.value === undefined ? null : String(version)));
  }

  async #script(sha: string, source: string, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.#client.evalSha(sha, { keys, arguments: args });
    } catch (error) {
      // After a SCRIPT FLUSH or a failover the script cache is empty; load it again once.
      if (!String((error as Error)?.message).startsWith("NOSCRIPT")) throw error;
      await this.#client.scriptLoad(source);
      return await this.#client.evalSha(sha, { keys, arguments: args });
    }
  }
}
