/**
 * A Deno KV file spoken to through Node's own SQLite (`node:sqlite`, Node 22
 * and later), private to `server/kv/`. The file is the one `@deno/kv` and
 * Deno open: the same tables, the same migrations, the same key packing and
 * value encodings, versionstamps from the same counter raised by the same
 * random step. Processes on either path, and Deno, share one file. One
 * thing differs, and only in what SQLite keeps for itself: the index on
 * expiry holds only the keys that expire (`narrowExpiryIndex()`), which every
 * query that reads it, Deno's included, asks for alone.
 *
 * Each read or commit is one SQLite call on the calling thread, where
 * `@deno/kv` encodes a request, carries it to SQLite's own thread over its
 * Tokio runtime and decodes the answer. Under the load bench on Node 24 a
 * Deno KV turn cost the server about a fifth less this way
 * (docs/performance.md). The price is that a commit holds the event loop
 * while SQLite writes and syncs it: the write queue's groups (at most 1,000
 * keys and 800 KiB) took 2.6 ms at the median there and 32 ms at most. A
 * commit holds SQLite's write lock only while it runs; a file locked by
 * another process fails at once with "database is locked", which
 * `retryingKv()` retries after a pause, so no call waits on the event loop
 * for another process. The database keeps Deno KV's durability: WAL, synced
 * on every commit.
 *
 * Deno KV deletes expired keys in the background; this handle does the same
 * every minute, a bounded batch at a time, raising the counter as
 * `@deno/kv` does when it deletes.
 *
 * @module
 */

import process from "node:process";
import {
  DENO_LIMITS,
  type Kv,
  type KvAtomic,
  type KvEntryMaybe,
  type KvKey,
  MAX_KEY_BYTES,
  MAX_VALUE_BYTES,
} from "./_denokv.ts";
import { pagedList, storedValue, valueToStore } from "./_denokv_rows.ts";
import { packKey } from "./_denokv_wire.ts";

/** The part of `node:sqlite`'s `StatementSync` used here. */
interface Statement {
  get(...params: unknown[]): Record<string, unknown> | undefined;
  all(...params: unknown[]): Record<string, unknown>[];
  run(...params: unknown[]): { changes: number | bigint };
}
/** The part of `node:sqlite`'s `DatabaseSync` used here. */
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}
interface SqliteModule {
  DatabaseSync: new (path: string, options?: Record<string, unknown>) => Database;
}

/** Deno KV's migrations (`denokv`'s SQLite backend), applied in order to a new or older file. */
const MIGRATIONS = [
  `
create table data_version (
  k integer primary key,
  version integer not null
);
insert into data_version (k, version) values (0, 0);
create table kv (
  k blob primary key,
  v blob not null,
  v_encoding integer not null,
  version integer not null
) without rowid;
`,
  `
create table queue (
  ts integer not null,
  id text not null,
  data blob not null,
  backoff_schedule text not null,
  keys_if_undelivered blob not null,

  primary key (ts, id)
);
create table queue_running(
  deadline integer not null,
  id text not null,
  data blob not null,
  backoff_schedule text not null,
  keys_if_undelivered blob not null,

  primary key (deadline, id)
);
`,
  `
alter table kv add column seq integer not null default 0;
alter table data_version add column seq integer not null default 0;
alter table kv add column expiration_ms integer not null default -1;
create index kv_expiration_ms_idx on kv (expiration_ms);
`,
];

/** Expired keys deleted in one transaction at most. */
const SWEEP_BATCH = 500;
const SWEEP_MS = 60_000;

/**
 * `node:sqlite` when this Node has it without a flag (22.13 and later), else undefined. Its
 * one-time "experimental" warning (Node 22) is not passed on: the store says which path
 * it took in its own words (docs/stores.md).
 */
export function nodeSqlite(): SqliteModule | undefined {
  const builtin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof builtin !== "function") return undefined;
  const emit = process.emitWarning;
  process.emitWarning = function (warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === "string" ? warning : warning?.message;
    if (/SQLite is an experimental feature/.test(String(text))) return;
    return (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const found = builtin.call(process, "node:sqlite") as Partial<SqliteModule> | undefined;
    return typeof found?.DatabaseSync === "function" ? found as SqliteModule : undefined;
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emit;
  }
}

/** Deno KV's versionstamp of a version: its 8 bytes big-endian, then 2 zero bytes, in hex. */
function versionstampOf(version: number): string {
  return version.toString(16).padStart(16, "0") + "0000";
}

/**
 * Opens (creating or migrating) the Deno KV file at `path` with `node:sqlite`.
 *
 * @example
 * ```ts
 * const sqlite = nodeSqlite();
 * if (sqlite) sqliteKv(sqlite, ".tether/store.db");
 * ```
 */
export function sqliteKv(sqlite: SqliteModule, path: string): SqliteKv {
  const db = new sqlite.DatabaseSync(path);
  try {
    db.exec("pragma busy_timeout = 0");
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return new SqliteKv(db);
}

function migrate(db: Database): void {
  db.exec("pragma journal_mode = wal");
  db.exec("begin immediate");
  try {
    db.exec(
      "create table if not exists migration_state(\n  k integer not null primary key,\n  version integer not null\n)",
    );
    const row = db.prepare("select version from migration_state where k = 0").get();
    const current = row === undefined ? 0 : Number(row.version);
    const replace = db.prepare("replace into migration_state (k, version) values(?, ?)");
    for (let i = current; i < MIGRATIONS.length; i++) {
      db.exec(MIGRATIONS[i]);
      replace.run(0, i + 1);
    }
    narrowExpiryIndex(db);
    db.exec("commit");
  } catch (error) {
    db.exec("rollback");
    throw error;
  }
}

/** The expiry index as this handle keeps it: keys that expire only. */
export const EXPIRY_INDEX =
  "CREATE INDEX kv_expiration_ms_idx on kv (expiration_ms) where expiration_ms >= 0";

/**
 * Makes Deno KV's index on expiry hold only the keys that expire (inside the migration's
 * transaction). Deno KV's migration indexes every key, and every key it holds is written twice,
 * once in the table and once in that index, though nothing ever looks a key up there but to find
 * the ones that expire: Deno KV's own statements (its sweep, its next expiry) and this handle's
 * sweep all ask for `expiration_ms >= 0`, which SQLite answers from the narrower index alike.
 * Tether's keys nearly never expire (a lease, kept in memory while the file is held alone, is
 * the one that does), so writes cost SQLite about a third less (docs/performance.md). Deno and
 * `@deno/kv` open the file as before: the index keeps its name, its column and what every
 * query of theirs gets from it. A file made elsewhere is narrowed when this handle first opens
 * it: one pass over its table.
 */
function narrowExpiryIndex(db: Database): void {
  const row = db.prepare(
    "select sql from sqlite_master where type = 'index' and name = 'kv_expiration_ms_idx'",
  ).get();
  if (row?.sql === EXPIRY_INDEX) return;
  db.exec(`drop index if exists kv_expiration_ms_idx; ${EXPIRY_INDEX}`);
}

/** `work`'s result as a promise; what it throws, as a rejection. */
function answer<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => resolve(work()));
}

/** A row's value and versionstamp. */
function stored(row: Record<string, unknown>): { value: unknown; versionstamp: string } {
  return {
    value: storedValue(row.v_encoding as number, row.v as Uint8Array),
    versionstamp: versionstampOf(row.version as number),
  };
}

type Mutation = [key: Uint8Array, value: Uint8Array | null, encoding: number, expireAt: number];

/**
 * Refuses, before any write, a commit Deno KV itself would refuse, so a file written here holds
 * nothing Deno or `@deno/kv` could not have written, and each path fails alike: at most 100
 * checks and 1,000 mutations; keys of at most 2 KiB and values of at most 64 KiB; 800 KiB in all
 * (every key, and each written key again with its value); 80 KiB of written keys.
 */
function withinLimits(checks: readonly [Uint8Array, unknown][], mutations: readonly Mutation[]) {
  const refuse = (what: string) => {
    throw new TypeError(`Deno KV refuses this commit: ${what}.`);
  };
  if (checks.length > DENO_LIMITS.checks) refuse(`it checks more than ${DENO_LIMITS.checks} keys`);
  if (mutations.length > DENO_LIMITS.mutations) {
    refuse(`it writes more than ${DENO_LIMITS.mutations} keys`);
  }
  let bytes = 0;
  let keyBytes = 0;
  for (const [key] of checks) {
    if (key.length > MAX_KEY_BYTES) refuse(`a key takes more than ${MAX_KEY_BYTES} bytes`);
    bytes += key.length;
  }
  for (const [key, value] of mutations) {
    if (key.length > MAX_KEY_BYTES) refuse(`a key takes more than ${MAX_KEY_BYTES} bytes`);
    bytes += key.length;
    if (value === null) continue;
    if (value.length > MAX_VALUE_BYTES) refuse(`a value takes more than ${MAX_VALUE_BYTES} bytes`);
    bytes += key.length + value.length;
    keyBytes += key.length;
  }
  if (bytes > DENO_LIMITS.bytes) refuse(`it carries more than ${DENO_LIMITS.bytes} bytes`);
  if (keyBytes > DENO_LIMITS.keyBytes) {
    refuse(`the keys it writes take more than ${DENO_LIMITS.keyBytes} bytes`);
  }
}

/** A Deno KV file on `node:sqlite`. */
export class SqliteKv implements Kv {
  readonly synchronous = true;
  #db: Database;
  #point: Statement;
  #scan: Statement;
  #scanReverse: Statement;
  #versionOf: Statement;
  #raise: Statement;
  #set: Statement;
  #delete: Statement;
  #expired: Statement;
  #sweep: ReturnType<typeof setInterval>;

  constructor(db: Database) {
    this.#db = db;
    this.#point = db.prepare("select v, v_encoding, version from kv where k = ?");
    this.#scan = db.prepare(
      "select k, v, v_encoding, version from kv where k >= ? and k < ? order by k asc limit ?",
    );
    this.#scanReverse = db.prepare(
      "select k, v, v_encoding, version from kv where k >= ? and k < ? order by k desc limit ?",
    );
    this.#versionOf = db.prepare("select version from kv where k = ?");
    this.#raise = db.prepare(
      "update data_version set version = version + ? where k = 0 returning version",
    );
    this.#set = db.prepare(
      "insert into kv (k, v, v_encoding, version, expiration_ms) values (?1, ?2, ?3, ?4, ?5) " +
        "on conflict(k) do update set v = ?2, v_encoding = ?3, version = ?4, expiration_ms = ?5",
    );
    this.#delete = db.prepare("delete from kv where k = ?");
    this.#expired = db.prepare(
      "delete from kv where k in (select k from kv where expiration_ms >= 0 and expiration_ms <= ? limit ?)",
    );
    this.#sweep = setInterval(() => this.collectExpired(), SWEEP_MS);
    (this.#sweep as { unref?: () => void }).unref?.();
  }

  /** Runs `work` in one transaction (`immediate` takes the write lock first). */
  #inTransaction<T>(begin: string, work: () => T): T {
    this.#db.exec(begin);
    try {
      const result = work();
      this.#db.exec("commit");
      return result;
    } catch (error) {
      try {
        this.#db.exec("rollback");
      } catch { /* no transaction left to roll back */ }
      throw error;
    }
  }

  /**
   * Deletes the keys whose expiry has passed, at most {@linkcode SWEEP_BATCH} at a time; how
   * many it deleted. Runs every minute; a busy file or a closed handle waits for the next.
   */
  collectExpired(now = Date.now()): number {
    let total = 0;
    try {
      for (;;) {
        const deleted = this.#inTransaction("begin immediate", () => {
          const n = Number(this.#expired.run(now, SWEEP_BATCH).changes);
          // Deno KV raises its counter by one when it deletes expired keys.
          if (n > 0) this.#raise.get(1);
          return n;
        });
        total += deleted;
        if (deleted < SWEEP_BATCH) return total;
      }
    } catch {
      // The store's reads check expiry themselves; nothing waits on the sweep.
      return total;
    }
  }

  #entry(key: KvKey): KvEntryMaybe {
    const row = this.#point.get(packKey(key));
    return row === undefined ? { key, value: null, versionstamp: null } : { key, ...stored(row) };
  }

  get(key: KvKey): Promise<KvEntryMaybe> {
    return answer(() => this.#entry(key));
  }

  getMany(keys: KvKey[]): Promise<KvEntryMaybe[]> {
    // Several keys are read in one transaction: one snapshot, as Deno KV's reads are.
    return answer(() =>
      keys.length === 1
        ? [this.#entry(keys[0])]
        : this.#inTransaction("begin", () => keys.map((key) => this.#entry(key)))
    );
  }

  list(
    selector: { prefix: KvKey; start?: KvKey; end?: KvKey },
    options: { reverse?: boolean; batchSize?: number; limit?: number } = {},
  ): AsyncIterable<KvEntryMaybe> {
    return pagedList(
      selector,
      options,
      (range) =>
        (range.reverse ? this.#scanReverse : this.#scan).all(range.start, range.end, range.limit)
          .map((row) => ({ key: row.k as Uint8Array, ...stored(row) })),
    );
  }

  atomic(): KvAtomic {
    const checks: [Uint8Array, string | null][] = [];
    const mutations: Mutation[] = [];
    const commit = (): { ok: boolean; versionstamp?: string } => {
      withinLimits(checks, mutations);
      return this.#inTransaction("begin immediate", () => {
        for (const [key, expected] of checks) {
          const row = this.#versionOf.get(key);
          const actual = row === undefined ? null : versionstampOf(row.version as number);
          if (actual !== expected) return { ok: false };
        }
        // Deno KV raises its counter by a random step of 1 to 9 on every commit.
        const version = this.#raise.get(1 + Math.floor(Math.random() * 9))!.version as number;
        for (const [key, v, encoding, expireAt] of mutations) {
          if (v === null) this.#delete.run(key);
          else this.#set.run(key, v, encoding, version, expireAt);
        }
        return { ok: true, versionstamp: versionstampOf(version) };
      });
    };
    const op: KvAtomic = {
      check(...more) {
        for (const c of more) checks.push([packKey(c.key), c.versionstamp]);
        return op;
      },
      set(key, v, options) {
        const { data, encoding } = valueToStore(v);
        const expireAt = options?.expireIn === undefined ? -1 : Date.now() + options.expireIn;
        mutations.push([packKey(key), data, encoding, expireAt]);
        return op;
      },
      delete(key) {
        mutations.push([packKey(key), null, 0, -1]);
        return op;
      },
      commit() {
        // At once, so reads and commits apply in the order asked, as on `@deno/kv`'s one
        // thread; the write queue already gathers the commits asked meanwhile into one.
        return answer(commit);
      },
    };
    return op;
  }

  close(): void {
    clearInterval(this.#sweep);
    this.#db.close();
  }
}
