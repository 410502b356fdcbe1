/**
 * Group commit for `postgresStore()` (private to `server/kv/`).
 *
 * Each query costs the process about the same whatever it carries (building
 * and parsing the protocol's messages, a socket write that on loopback also
 * wakes the database's process), so commits go out in groups: while the
 * most calls the queue makes at once all run, the commits asked meanwhile
 * wait, and the next call takes them together. A call is one call of the
 * store's commit function (`commitFunction()` in `_postgres_sql.ts`), which
 * applies its commits in the order they were asked, each on its own checks,
 * in one transaction. Several calls run at once because each transaction
 * ends with the database writing its log to disk: one call at a time made
 * every commit wait for the disk in turn (up to 900 ms for a group of 100
 * under the load bench).
 * A commit whose check fails writes nothing and the others go on. When a
 * call fails for another reason than a deadlock or a serialization failure
 * (which run the call again), each of its commits runs again alone, so only
 * the one at fault fails.
 *
 * @module
 */

import { hash32, type Sql, type Tables } from "./_postgres_sql.ts";

/** One commit, its keys already encoded (`encodeKey()`) and its values JSON text. */
export interface PgCommit {
  checked: string[];
  /** The version each checked key must be at, null for absent. */
  expected: (string | null)[];
  sets: { key: string; text: string; expireIn: number | null }[];
  deletes: string[];
}

/** What a commit answers: the new version of each key it set, or null when a check failed. */
export type PgCommitResult = Map<string, string> | null;

interface Job {
  commit: PgCommit;
  bytes: number;
  resolve(result: PgCommitResult): void;
  reject(error: unknown): void;
}

/** Most commits in one call. */
const MOST_COMMITS = 100;
/** A call stops taking commits once their values pass this many characters (a larger one goes alone). */
const MOST_CHARS = 1_000_000;
const RETRYABLE = new Set(["40001", "40P01"]); // serialization failure, deadlock

/**
 * The commit queue of one store.
 *
 * @example
 * ```ts
 * const commits = new PgCommits(sql, tables("tether_kv"));
 * const versions = await commits.commit({ checked: [], expected: [], sets: [], deletes: [] });
 * ```
 */
export class PgCommits {
  #sql: Sql;
  #t: Tables;
  #most: number;
  #queue: Job[] = [];
  #calls = 0;

  /** `calls`: at most this many calls at once (each on a connection of its own). */
  constructor(sql: Sql, t: Tables, calls = 1) {
    this.#sql = sql;
    this.#t = t;
    this.#most = Math.max(1, calls);
  }

  /** Applies `commit` when its checks hold; resolves with the versions it left, or null. */
  commit(commit: PgCommit): Promise<PgCommitResult> {
    return new Promise((resolve, reject) => {
      let bytes = 0;
      for (const s of commit.sets) bytes += s.text.length;
      this.#queue.push({ commit, bytes, resolve, reject });
      this.#pump();
    });
  }

  /** Starts calls for what waits, while fewer than the most run. */
  #pump(): void {
    while (this.#calls < this.#most && this.#queue.length > 0) {
      let n = 1;
      let chars = this.#queue[0].bytes;
      while (
        n < this.#queue.length && n < MOST_COMMITS && chars + this.#queue[n].bytes <= MOST_CHARS
      ) chars += this.#queue[n++].bytes;
      this.#calls++;
      void this.#run(this.#queue.splice(0, n)).finally(() => {
        this.#calls--;
        this.#pump();
      });
    }
  }

  async #run(group: Job[]): Promise<void> {
    try {
      const results = await this.#call(group.map((j) => j.commit));
      group.forEach((job, i) => job.resolve(results[i]));
    } catch (error) {
      if (group.length === 1) return group[0].reject(error);
      // Each again alone, so only the commit at fault fails.
      for (const job of group) {
        await this.#call([job.commit]).then((r) => job.resolve(r[0]), job.reject);
      }
    }
  }

  /** One call of the commit function for `commits`, run again on a deadlock or serialization failure. */
  async #call(commits: PgCommit[]): Promise<PgCommitResult[]> {
    const locks = new Set<number>();
    const nChecks: number[] = [];
    const nSets: number[] = [];
    const nDeletes: number[] = [];
    const checked: string[] = [];
    const expected: (string | null)[] = [];
    const setKeys: string[] = [];
    const setTexts: string[] = [];
    const setExpires: (number | null)[] = [];
    const deleted: string[] = [];
    for (const c of commits) {
      for (const key of c.checked) locks.add(hash32(key));
      for (const s of c.sets) locks.add(hash32(s.key));
      for (const key of c.deletes) locks.add(hash32(key));
      nChecks.push(c.checked.length);
      nSets.push(c.sets.length);
      nDeletes.push(c.deletes.length);
      checked.push(...c.checked);
      expected.push(...c.expected);
      for (const s of c.sets) {
        setKeys.push(s.key);
        setTexts.push(s.text);
        setExpires.push(s.expireIn);
      }
      deleted.push(...c.deletes);
    }
    // Sorted lock ids make every call lock in the same order (no deadlocks between them).
    const sorted = [...locks].sort((a, b) => a - b);
    const sql = this.#sql;
    for (let attempt = 0;; attempt++) {
      try {
        const rows = await sql<
          { out_commit: number; out_key: string | null; out_version: string | null }[]
        >`SELECT out_commit, out_key, out_version FROM ${sql(this.#t.commit)}(
            ${this.#t.lockClass}::int4, ${sorted}::int4[],
            ${nChecks}::int4[], ${checked}::text[], ${expected}::text[],
            ${nSets}::int4[], ${setKeys}::text[], ${setTexts}::text[], ${setExpires}::float8[],
            ${nDeletes}::int4[], ${deleted}::text[])`;
        const results: PgCommitResult[] = commits.map(() => new Map());
        for (const row of rows) {
          const i = row.out_commit - 1;
          if (row.out_key === null) results[i] = null;
          else results[i]!.set(row.out_key, row.out_version!);
        }
        return results;
      } catch (error) {
        if (attempt >= 5 || !RETRYABLE.has((error as { code?: string }).code ?? "")) throw error;
      }
    }
  }
}
