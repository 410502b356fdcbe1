/**
 * Shared stores for tests and benchmarks that run several runtimes: each run
 * gets its own Redis namespace or Postgres table, so runs on one server never
 * see each other's keys, and everything is removed afterwards.
 *
 * `STORE__URL` cannot name a namespace or table yet, so the runtime process
 * opens the adapter itself from `STORE__URL` plus `TEST_STORE_NAMESPACE`.
 *
 * @module
 */
import process from "node:process";
import { createClient } from "redis";
import postgres from "postgres";
import { storeFromUrl } from "../../server/kv/from_url.ts";
import { dropTables } from "../../server/kv/_postgres_sql.ts";
import { postgresStore } from "../../server/kv/postgres.ts";
import { redisStore } from "../../server/kv/redis.ts";
import type { Store } from "../../server/kv/store.ts";
import { registerRelayStore } from "../../server/testing/relay_store.ts";

// The test-only store of `server/testing/relay_store.ts`, opened by `relay:<inner url>`.
registerRelayStore();

/**
 * A server-backed store several processes can share.
 *
 * @example
 * ```ts
 * const redis: SharedStore = { kind: "redis", variable: "REDIS_URL", url: process.env.REDIS_URL };
 * ```
 */
export interface SharedStore {
  kind: "redis" | "postgres";
  /** The variable that configures it. */
  variable: "REDIS_URL" | "DATABASE_URL";
  url: string | undefined;
}

/**
 * The shared stores of this machine, configured or not.
 *
 * @example
 * ```ts
 * for (const s of sharedStores()) console.log(s.kind, s.url ? "set" : "not set");
 * ```
 */
export function sharedStores(env: Record<string, string | undefined> = process.env): SharedStore[] {
  return [
    { kind: "redis", variable: "REDIS_URL", url: env.REDIS_URL || undefined },
    { kind: "postgres", variable: "DATABASE_URL", url: env.DATABASE_URL || undefined },
  ];
}

/**
 * A fresh namespace (Redis) or table name (Postgres) for one run.
 *
 * @example
 * ```ts
 * const ns = freshNamespace(); // "tether_mp_3f2a…"
 * ```
 */
export function freshNamespace(): string {
  // Lowercase letters, digits and "_" suit both a Redis prefix and a Postgres identifier.
  return `tether_mp_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
}

const isRedis = (url: string) => /^rediss?:/i.test(url);
const isPostgres = (url: string) => /^postgres(ql)?:/i.test(url);

/**
 * Opens the store `url` names, inside `namespace` when given (Redis namespace, Postgres table).
 *
 * @example
 * ```ts
 * const store = await openStore("redis://127.0.0.1:6379", freshNamespace());
 * ```
 */
export async function openStore(url: string, namespace?: string): Promise<Store> {
  if (namespace && isRedis(url)) return await redisStore(url, { namespace });
  if (namespace && isPostgres(url)) return await postgresStore(url, { table: namespace });
  return await storeFromUrl(url);
}

/**
 * Deletes everything a run left in `namespace` (Redis keys, or the Postgres tables).
 *
 * @example
 * ```ts
 * await dropNamespace("redis://127.0.0.1:6379", ns);
 * ```
 */
export async function dropNamespace(url: string, namespace: string): Promise<void> {
  if (isRedis(url)) {
    const client = createClient({ url });
    await client.connect();
    try {
      for await (const keys of client.scanIterator({ MATCH: `{${namespace}}:*`, COUNT: 1000 })) {
        if (keys.length > 0) await client.del(keys);
      }
    } finally {
      await client.close();
    }
  } else if (isPostgres(url)) {
    const sql = postgres(url, { onnotice: () => {}, max: 1 });
    try {
      await dropTables(sql, namespace);
    } finally {
      await sql.end({ timeout: 2 });
    }
  }
}
