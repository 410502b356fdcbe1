/**
 * Schema and statements of `postgresStore()` (private to `server/kv/`).
 *
 * One table per store: `key` is the key from `encodeKey()` in a `text`
 * column compared byte-wise (`COLLATE "C"`), so `list()` is an index range
 * scan; `value` is JSON text (not `jsonb`, which reorders keys and refuses
 * `\u0000`); `version` comes from the table's own sequence on every write;
 * `expires_at` is set from the database clock, so processes with skewed
 * clocks agree. A second table holds publish/subscribe payloads too large
 * for NOTIFY (8000 bytes).
 *
 * @module
 */

import { log } from "../log.ts";
import type postgres from "postgres";

/** The postgres.js client type used here. */
export type Sql = postgres.Sql;

/** The table names of a store. */
export interface Tables {
  kv: string;
  pubsub: string;
  /** Channel for LISTEN/NOTIFY. */
  channel: string;
  /** First key of every advisory lock this store takes. */
  lockClass: number;
  /** The function an atomic commit calls (`commitFunction()`). */
  commit: string;
}

/** Derives the names and lock class of a store from its table name, refusing names that are not plain identifiers. */
export function tables(table: string): Tables {
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(table)) {
    throw new TypeError(
      `Postgres store table must be a lowercase identifier of at most 41 characters; got "${table}".`,
    );
  }
  return {
    kv: table,
    pubsub: `${table}_pubsub`,
    channel: table,
    lockClass: hash32(table),
    commit: `${table}_commit`,
  };
}

/**
 * Runs `fn` in a transaction on a connection reserved for it, committing when it resolves and
 * rolling back when it throws. Not `sql.begin()`: postgres.js 3.4.9 can send that BEGIN without
 * reserving its connection when BEGIN fills the connection's pipeline; the commit then fails
 * with UNSAFE_TRANSACTION and the open transaction goes back to the pool (porsager/postgres#1189),
 * which the load bench met about once in 3,000 turns.
 *
 * @example
 * ```ts
 * const n = await inTransaction(sql, async (tx) => (await tx`SELECT 1 AS n`)[0].n);
 * ```
 */
export async function inTransaction<T>(sql: Sql, fn: (tx: Sql) => Promise<T>): Promise<T> {
  const tx = await sql.reserve();
  try {
    await tx`BEGIN`;
    let result: T;
    try {
      result = await fn(tx);
    } catch (error) {
      await tx`ROLLBACK`.catch(() => {});
      throw error;
    }
    await tx`COMMIT`;
    return result;
  } finally {
    tx.release();
  }
}

/** Creates the tables if missing; concurrent starts wait for each other. */
export async function migrate(sql: Sql, t: Tables): Promise<void> {
  await inTransaction(sql, async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${t.lockClass}, 0)`;
    await tx`CREATE TABLE IF NOT EXISTS ${tx(t.kv)} (
      key text COLLATE "C" PRIMARY KEY,
      value text NOT NULL,
      version bigserial NOT NULL,
      expires_at timestamptz
    )`;
    await tx`CREATE INDEX IF NOT EXISTS ${tx(`${t.kv}_expires`)} ON ${tx(t.kv)} (expires_at)
      WHERE expires_at IS NOT NULL`;
    await tx`CREATE TABLE IF NOT EXISTS ${tx(t.pubsub)} (
      id bigserial PRIMARY KEY,
      payload text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`;
    await tx.unsafe(commitFunction(t));
  });
}

/**
 * The SQL that creates (or replaces) the store's commit function: a group of atomic commits in
 * one statement, so one round trip to the server where a transaction of its own took four per
 * commit (BEGIN, the locks and the checked rows, the writes, COMMIT). Called outside any
 * transaction, it runs in one of its own. It first takes the advisory lock of every key the
 * group touches, in the order given (sorted, so no two calls wait on each other), then applies
 * the commits in order, each on its own checks: it locks the commit's checked rows (`FOR
 * UPDATE`, so a plain `set()` waits too) and, when a version differs, answers one row of nulls
 * for that commit and writes nothing of it; otherwise it writes and answers each key it set with
 * its new version. Under READ COMMITTED each statement inside sees what committed before it
 * started, and what the earlier commits of the group wrote. The arrays hold the commits one
 * after another; `n_checks`, `n_sets` and `n_deletes` say how many entries each commit has. The
 * names come from `tables()`, plain identifiers only.
 *
 * The function runs with sequential scans off. Its statements' plans are kept per connection,
 * and a plan made while the table was nearly empty scanned the whole table for each key once
 * it had grown (under the load bench: a group of 100 commits took up to 900 ms, the table read
 * 41 million rows in 1,348 scans), until the statistics caught up. Every key it reads is in the
 * primary key's index.
 *
 * @example
 * ```ts
 * await sql.unsafe(commitFunction(tables("tether_kv")));
 * ```
 */
export function commitFunction(t: Tables): string {
  const kv = `"${t.kv}"`;
  return `CREATE OR REPLACE FUNCTION "${t.commit}"(
  lock_class int4, locks int4[],
  n_checks int4[], checked text[], expected text[],
  n_sets int4[], set_keys text[], set_values text[], set_expires float8[],
  n_deletes int4[], deleted text[])
RETURNS TABLE(out_commit int4, out_key text, out_version text)
LANGUAGE plpgsql SET enable_seqscan = off AS $commit$
DECLARE
  c int4 := 1;
  s int4 := 1;
  d int4 := 1;
  differs boolean;
BEGIN
  PERFORM pg_advisory_xact_lock(lock_class, h) FROM unnest(locks) AS h;
  FOR i IN 1 .. coalesce(cardinality(n_checks), 0) LOOP
    differs := false;
    IF n_checks[i] > 0 THEN
      SELECT EXISTS (
        SELECT 1 FROM unnest(checked[c:c + n_checks[i] - 1], expected[c:c + n_checks[i] - 1])
          AS w(k, v)
        LEFT JOIN (
          SELECT r.key, CASE WHEN r.expires_at IS NULL OR r.expires_at > now()
            THEN r.version::text END AS version
          FROM ${kv} AS r WHERE r.key = ANY(checked[c:c + n_checks[i] - 1]) FOR UPDATE
        ) AS cur ON cur.key = w.k
        WHERE cur.version IS DISTINCT FROM w.v
      ) INTO differs;
    END IF;
    IF differs THEN
      out_commit := i;
      out_key := NULL;
      out_version := NULL;
      RETURN NEXT;
    ELSE
      IF n_sets[i] > 0 THEN
        RETURN QUERY INSERT INTO ${kv} AS r (key, value, expires_at)
          SELECT m.k, m.v, now() + m.e * interval '1 millisecond'
          FROM unnest(set_keys[s:s + n_sets[i] - 1], set_values[s:s + n_sets[i] - 1],
            set_expires[s:s + n_sets[i] - 1]) AS m(k, v, e)
          ON CONFLICT (key) DO UPDATE
          SET value = EXCLUDED.value, version = EXCLUDED.version, expires_at = EXCLUDED.expires_at
          RETURNING i, r.key, r.version::text;
      END IF;
      IF n_deletes[i] > 0 THEN
        DELETE FROM ${kv} AS r WHERE r.key = ANY(deleted[d:d + n_deletes[i] - 1]);
      END IF;
    END IF;
    c := c + n_checks[i];
    s := s + n_sets[i];
    d := d + n_deletes[i];
  END LOOP;
END
$commit$`;
}

/** Drops a store's tables (for tests and teardown). */
export async function dropTables(sql: Sql, table: string): Promise<void> {
  const t = tables(table);
  await sql`DROP TABLE IF EXISTS ${sql(t.kv)}, ${sql(t.pubsub)}`;
  await sql`DROP FUNCTION IF EXISTS ${sql(t.commit)}`;
}

/** A 32-bit FNV-1a hash as a signed integer, the type advisory lock keys take. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/** Background cleanup queries, awaited by `close()` so no connection is ended under them. */
export class Background {
  #pending = new Set<Promise<void>>();
  #closing = false;

  /** Runs `query` without waiting for it, reporting a failure unless the store is closing. */
  run(query: PromiseLike<unknown>): void {
    const done: Promise<void> = Promise.resolve(query).then(() => {}, (error) => {
      if (!this.#closing) {
        log.error("Postgres store cleanup failed; it will run again later", { error });
      }
    }).finally(() => this.#pending.delete(done));
    this.#pending.add(done);
  }

  /** Waits for every query started so far. */
  async drain(): Promise<void> {
    this.#closing = true;
    await Promise.all(this.#pending);
  }
}
