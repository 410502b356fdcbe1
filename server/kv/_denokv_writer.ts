/**
 * Group commit for `denoKvStore()` (private to `server/kv/`).
 *
 * A Deno KV commit costs about the same CPU whatever it holds (encoding, a
 * SQLite transaction, a sync to disk), and so does a read. Every write of a
 * store therefore goes through one queue: the commits that wait while one
 * runs are applied together, with one read of the keys they check or write
 * (but not of `fresh` keys, which replace nothing, nor of keys whose version
 * the handle knows, `_denokv_known.ts`) and one atomic operation
 * holding all their checks and mutations. A commit
 * joins a group only when its keys are disjoint from those of every commit
 * before it still in the queue (so the order of the group's members cannot
 * matter) and the group stays within Deno KV's limits; a commit that writes
 * chunks runs alone. When the group's commit fails (another writer changed
 * one of its keys between the read and the commit), each member runs again
 * alone, so each gets exactly the answer it would have got alone.
 *
 * @module
 */

import {
  deleteChunks,
  isManifest,
  type Kv,
  type KvKey,
  type KvLimits,
  type Manifest,
} from "./_denokv.ts";
import { KnownVersions } from "./_denokv_known.ts";
import { checksHold, commitAlone, INLINE_BUDGET, prepare, type Write } from "./_denokv_commit.ts";
import type { Check, Mutation } from "./store.ts";

/** A key written as it is, outside the store's envelopes (the relay's own keys, `raw()`). */
export interface RawSet {
  key: KvKey;
  value: unknown;
  expireIn?: number;
}

interface Job {
  checks: readonly Check[];
  /** The checked keys as JSON, as `Write.id`. */
  checkIds: string[];
  writes: Write[];
  /** Every key the commit checks or writes, as JSON. */
  keys: string[];
  alone: boolean;
  bytes: number;
  /** Keys set as they are, beside `writes` (none checked, none read). */
  raw?: readonly RawSet[];
  resolve(versionstamp: string | null): void;
  reject(error: unknown): void;
}

/**
 * The write queue of one Deno KV handle.
 *
 * @example
 * ```ts
 * const writer = new KvWriter(kv, limits);
 * const ok = await writer.commit([{ key: ["a"], version: null }], [{ key: ["a"], value: 1 }]);
 * ```
 */
export class KvWriter {
  #kv: Kv;
  #limits: KvLimits;
  #queue: Job[] = [];
  #running = false;
  #known: KnownVersions;

  constructor(kv: Kv, limits: KvLimits, known = new KnownVersions()) {
    this.#kv = kv;
    this.#limits = limits;
    this.#known = known;
  }

  /** Applies `mutations` if every check holds (all or nothing); resolves the versionstamp, or null when a check failed. */
  commit(checks: readonly Check[], mutations: readonly Mutation[]): Promise<string | null> {
    let writes: Write[];
    try {
      writes = prepare(this.#limits, checks, mutations);
    } catch (error) {
      return Promise.reject(error);
    }
    const checkIds = checks.map((c) => JSON.stringify(c.key));
    const keys = new Set(checkIds);
    for (const w of writes) keys.add(w.id);
    return new Promise((resolve, reject) => {
      this.#queue.push({
        checks,
        checkIds,
        writes,
        keys: [...keys],
        alone: writes.some((w) => w.chunk),
        bytes: writes.reduce((n, w) => n + (w.text?.length ?? 0), 0),
        resolve,
        reject,
      });
      if (!this.#running) this.#drain();
    });
  }

  /**
   * Sets `sets` as they are (no envelope, no codec), with the next group: keys no store read
   * meets and no other job writes, such as the relay's. `chars` is what their values hold in
   * text, for the group's byte budget. Resolves the versionstamp.
   */
  raw(sets: readonly RawSet[], chars: number): Promise<string | null> {
    return new Promise((resolve, reject) => {
      this.#queue.push({
        checks: [],
        checkIds: [],
        writes: [],
        keys: sets.map((r) => JSON.stringify(r.key)),
        alone: false,
        bytes: chars,
        raw: sets,
        resolve,
        reject,
      });
      if (!this.#running) this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#queue.length) {
        // One turn of the event loop first: commits that requests already on their way make
        // join this one, so a burst costs one database commit rather than several.
        await new Promise((resolve) => setImmediate(resolve));
        const group = this.#take();
        if (group.length === 1) await this.#alone(group[0]);
        else await this.#together(group);
      }
    } finally {
      this.#running = false;
    }
  }

  /**
   * Takes the next group off the queue: the first job, and each later one that fits beside it,
   * up to the first job past a full complement of checks (those after it wait for the next
   * group, in order: under load most groups fill their checks, and looking further on every
   * take would walk a long queue again and again).
   */
  #take(): Job[] {
    const queue = this.#queue;
    const first = queue[0];
    if (first.alone) return [queue.shift()!];
    const group: Job[] = [];
    let rest: Job[] = [];
    const taken = new Set<string>();
    let checks = 0;
    let mutations = 0;
    let bytes = 0;
    for (let i = 0; i < queue.length; i++) {
      if (checks === this.#limits.checks) {
        rest = rest.concat(queue.slice(i));
        break;
      }
      const job = queue[i];
      const fits = !job.alone && job.keys.every((k) => !taken.has(k)) &&
        checks + job.checks.length <= this.#limits.checks &&
        mutations + job.writes.length + (job.raw?.length ?? 0) <= this.#limits.mutations &&
        bytes + job.bytes <= INLINE_BUDGET;
      // A job left behind still holds its keys, so no later job on them overtakes it.
      for (const k of job.keys) taken.add(k);
      if (!fits) {
        rest.push(job);
        continue;
      }
      group.push(job);
      checks += job.checks.length;
      mutations += job.writes.length + (job.raw?.length ?? 0);
      bytes += job.bytes;
    }
    this.#queue = rest;
    return group;
  }

  async #alone(job: Job): Promise<void> {
    try {
      if (job.raw) {
        const op = this.#kv.atomic();
        for (const r of job.raw) setRaw(op, r);
        const { ok, versionstamp } = await op.commit();
        return job.resolve(ok ? versionstamp! : null);
      }
      job.resolve(await commitAlone(this.#kv, this.#limits, job.checks, job.writes, this.#known));
    } catch (error) {
      job.reject(error);
    }
  }

  async #together(group: Job[]): Promise<void> {
    const kv = this.#kv;
    try {
      // A key a commit both checks and writes is read once; a fresh key replaces nothing, so is
      // not read; a key known at the version checked (or, unchecked, at any) is not read either.
      const expect = new Map<string, string | null | undefined>();
      const keyOf = new Map<string, Write["key"]>();
      const ids: string[] = [];
      for (const j of group) {
        j.checks.forEach((c, i) => {
          const id = j.checkIds[i];
          expect.set(id, c.version);
          keyOf.set(id, c.key);
          ids.push(id);
        });
        for (const w of j.writes) {
          if (w.fresh) continue;
          keyOf.set(w.id, w.key);
          ids.push(w.id);
        }
      }
      const unique = [...keyOf.keys()];
      const read = await this.#known.read(
        kv,
        this.#limits,
        unique.map((id) => keyOf.get(id)!),
        unique.map((id) => expect.get(id)),
        unique,
      );
      const byId = new Map(unique.map((id, i) => [id, read[i]]));
      const raw = ids.map((id) => byId.get(id)!);
      const now = Date.now();
      const op = kv.atomic();
      const members: Job[] = [];
      const replaced: Manifest[] = [];
      // Guards on written keys, those holding chunks first: their chunks are deleted after the commit.
      const guards: { key: Write["key"]; versionstamp: string | null }[] = [];
      let spare = this.#limits.checks;
      let at = 0;
      for (const job of group) {
        const read = job.checks.length + job.writes.filter((w) => !w.fresh).length;
        const mine = raw.slice(at, at += read);
        if (!checksHold(job.checks, mine, now)) {
          job.resolve(null);
          continue;
        }
        members.push(job);
        for (const r of job.raw ?? []) setRaw(op, r);
        job.checks.forEach((check, i) =>
          op.check({ key: check.key, versionstamp: mine[i].versionstamp })
        );
        spare -= job.checks.length;
        const checked = new Set(job.checkIds);
        let old = job.checks.length;
        for (const w of job.writes) {
          const { value, versionstamp } = w.fresh
            ? { value: null, versionstamp: null }
            : mine[old++];
          const chunked = isManifest(value);
          if (chunked) replaced.push(value);
          if (!w.fresh && !checked.has(w.id)) {
            if (chunked) guards.unshift({ key: w.key, versionstamp });
            else guards.push({ key: w.key, versionstamp });
          }
          if (w.text === undefined) op.delete(w.key);
          else {
            const x = w.expireIn === undefined ? undefined : now + w.expireIn;
            const envelope = x === undefined ? { j: w.text } : { j: w.text, x };
            op.set(
              w.key,
              envelope,
              w.expireIn === undefined ? undefined : { expireIn: w.expireIn },
            );
          }
        }
      }
      if (!members.length) return;
      // Replacing more chunked values than the commit can guard could leak chunks: run alone.
      if (replaced.length > spare) return await this.#oneByOne(members);
      for (const guard of guards.slice(0, spare)) op.check(guard);
      const { ok, versionstamp } = await op.commit();
      if (!ok) {
        for (const [id, key] of keyOf) this.#known.forget(key, id);
        return await this.#oneByOne(members);
      }
      for (const job of members) this.#known.wroteAll(job.writes, versionstamp);
      for (const manifest of replaced) await deleteChunks(kv, this.#limits, manifest);
      for (const job of members) job.resolve(versionstamp!);
    } catch (error) {
      for (const job of group) job.reject(error);
    }
  }

  async #oneByOne(jobs: Job[]): Promise<void> {
    for (const job of jobs) await this.#alone(job);
  }
}

function setRaw(op: ReturnType<Kv["atomic"]>, r: RawSet): void {
  op.set(r.key, r.value, r.expireIn === undefined ? undefined : { expireIn: r.expireIn });
}
