/**
 * `postgresStore()`: the store in a Postgres table, through postgres.js.
 * `atomic()` goes through the store's commit queue (`_postgres_commits.ts`):
 * the commits asked while the store's calls run (up to half the pool at
 * once) go out together as one call of the store's commit function, one
 * statement in its own transaction, which takes an advisory lock per key
 * they touch (in a fixed order), then per commit reads the checked rows
 * `FOR UPDATE` and writes only when every version matches, so of any number
 * of processes checking one version exactly one commits. Publish/subscribe
 * is LISTEN/NOTIFY on one channel per table; messages over NOTIFY's 8000
 * bytes travel through a side table and the notification carries their id.
 * The schema is in `_postgres_sql.ts`.
 *
 * @module
 */

import postgres from "postgres";
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
import { PgPubSub } from "./_postgres_pubsub.ts";
import { type PgCommit, PgCommits } from "./_postgres_commits.ts";
import { Background, migrate, type Sql, type Tables, tables } from "./_postgres_sql.ts";
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
 * Options of `postgresStore()`.
 *
 * @example
 * ```ts
 * import { postgresStore } from "./postgres.ts";
 * const store = await postgresStore("postgres://postgres@127.0.0.1:5432/app", { table: "tether_kv", max: 20 });
 * ```
 */
export interface PostgresStoreOptions {
  /** Table name (a lowercase identifier, default "tether_kv"); created on start when missing. */
  table?: string;
  /** Most connections in the pool (default 10); up to half of them carry commits at once. */
  max?: number;
}

const SWEEP_EVERY = 500;

/**
 * Connects to Postgres at `url`, creates the store's tables if missing, and returns the store.
 *
 * @example
 * ```ts
 * import { postgresStore } from "./postgres.ts";
 * const store = await postgresStore("postgres://postgres@127.0.0.1:5432/app");
 * await store.set(["session", "s1"], { turn: 1 });
 * await store.close();
 * ```
 */
export async function postgresStore(
  url: string,
  options: PostgresStoreOptions = {},
): Promise<Store> {
  const t = tables(options.table ?? "tether_kv");
  const max = options.max ?? 10;
  const sql = postgres(url, { max, onnotice: () => {} });
  try {
    await migrate(sql, t);
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw error;
  }
  return new PostgresStore(sql, t, max);
}

interface Row {
  key: string;
  value: string;
  version: string;
}

class PostgresStore implements Store {
  readonly name = "postgres";
  readonly capabilities = { shared: true, durable: true } as const;
  #sql: Sql;
  #t: Tables;
  #closed = false;
  #writes = 0;
  #background = new Background();
  #pubsub: PgPubSub;
  #commits: PgCommits;

  constructor(sql: Sql, t: Tables, max: number) {
    this.#sql = sql;
    this.#t = t;
    this.#commits = new PgCommits(sql, t, Math.floor(max / 2));
    this.#pubsub = new PgPubSub(sql, t, this.#background);
  }

  async get<T = unknown>(key: Key): Promise<Entry<T> | null> {
    this.#open();
    assertKey(key);
    const [row] = await this.#sql<Row[]>`SELECT value, version::text FROM ${this.#sql(this.#t.kv)}
      WHERE key = ${encodeKey(key)} AND (expires_at IS NULL OR expires_at > now())`;
    return row === undefined
      ? null
      : { key, value: JSON.parse(row.value) as T, version: row.version };
  }

  async getMany<T = unknown>(keys: readonly Key[]): Promise<(Entry<T> | null)[]> {
    this.#open();
    for (const key of keys) assertKey(key);
    const rows = await this.#sql<Row[]>`SELECT key, value, version::text FROM ${
      this.#sql(this.#t.kv)
    }
      WHERE key = ANY(${
      keys.map(encodeKey)
    }::text[]) AND (expires_at IS NULL OR expires_at > now())`;
    const found = new Map(rows.map((row) => [row.key, row]));
    return keys.map((key) => {
      const row = found.get(encodeKey(key));
      return row === undefined
        ? null
        : { key, value: JSON.parse(row.value) as T, version: row.version };
    });
  }

  async set(key: Key, value: unknown, options?: SetOptions): Promise<void> {
    this.#open();
    assertKey(key);
    assertValue(value);
    const expireIn = options?.expireIn === undefined ? null : checkExpireIn(options.expireIn);
    await this.#sql`INSERT INTO ${this.#sql(this.#t.kv)} (key, value, expires_at)
      VALUES (${encodeKey(key)}, ${
      encodeValue(value)
    }, now() + ${expireIn}::float8 * interval '1 millisecond')
      ON CONFLICT (key) DO UPDATE
      SET value = EXCLUDED.value, version = EXCLUDED.version, expires_at = EXCLUDED.expires_at`;
    this.#wrote();
  }

  async delete(key: Key): Promise<void> {
    this.#open();
    assertKey(key);
    await this.#sql`DELETE FROM ${this.#sql(this.#t.kv)} WHERE key = ${encodeKey(key)}`;
  }

  async list<T = unknown>(prefix: Key, options: ListOptions = {}): Promise<Entry<T>[]> {
    this.#open();
    assertKey(prefix, "list prefix");
    const { after, reverse = false, limit } = options;
    if (limit !== undefined && limit <= 0) return [];
    const { lower, upper } = listBounds(prefix, after, reverse);
    const sql = this.#sql;
    const rows = await sql<Row[]>`SELECT key, value, version::text FROM ${sql(this.#t.kv)}
      WHERE key > ${lower} AND key < ${upper} AND (expires_at IS NULL OR expires_at > now())
      ORDER BY key ${reverse ? sql`DESC` : sql`ASC`}
      ${limit === undefined || limit === Infinity ? sql`` : sql`LIMIT ${Math.floor(limit)}`}`;
    return rows.map((row) => ({
      key: decodeKey(row.key),
      value: JSON.parse(row.value) as T,
      version: row.version,
    }));
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
    const ids: string[] = [];
    const writes = new Map<string, { text: string | null; expireIn: number | null }>();
    for (const m of mutations) {
      assertKey(m.key, "mutation key");
      const id = encodeKey(m.key);
      ids.push(id);
      writes.delete(id); // the last mutation of a key wins
      writes.set(id, {
        text: m.value === undefined ? null : encodeValue(m.value),
        expireIn: m.value === undefined || m.expireIn === undefined
          ? null
          : checkExpireIn(m.expireIn),
      });
    }
    if (checks.length === 0 && writes.size === 0) return [];
    const sets: PgCommit["sets"] = [];
    const deletes: string[] = [];
    for (const [key, { text, expireIn }] of writes) {
      if (text === null) deletes.push(key);
      else sets.push({ key, text, expireIn });
    }
    const versions = await this.#commits.commit({
      checked: checks.map((c) => encodeKey(c.key)),
      expected: checks.map((c) => c.version),
      sets,
      deletes,
    });
    if (versions === null) return null;
    this.#wrote();
    return mutations.map((m, i) => m.value === undefined ? null : versions.get(ids[i]) ?? null);
  }

  async publish(channel: string, message: unknown): Promise<void> {
    this.#open();
    await this.#pubsub.publish(channel, message);
  }

  async subscribe(channel: string, listener: Listener): Promise<() => Promise<void>> {
    this.#open();
    return await this.#pubsub.subscribe(channel, listener);
  }

  /** A server any process may reach: never known to be alone. */
  alone(): null {
    return null;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#pubsub.close();
    await this.#background.drain();
    await this.#sql.end({ timeout: 5 });
  }

  #open(): void {
    if (this.#closed) throw closedError(this.name);
  }

  #wrote(): void {
    if (++this.#writes % SWEEP_EVERY !== 0) return;
    const sql = this.#sql;
    // The outer expires_at test is re-checked on rows a concurrent commit just rewrote.
    this.#background.run(sql`DELETE FROM ${sql(this.#t.kv)} WHERE expires_at <= now() AND key IN (
      SELECT key FROM ${sql(this.#t.kv)} WHERE expires_at <= now() LIMIT 1000)`);
  }
}
