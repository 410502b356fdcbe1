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
 * With a `Sole` (a store on a file, `_denokv_sole.ts`) every commit also
 * passes its gate: while the store holds the file alone, the commits' own
 * checks are decided here and only the holder record is checked at the
 * database, so a group is no longer bounded by Deno KV's checks per commit,
 * and `forOthers` writes are kept in memory; otherwise each commit also
 * checks that nobody holds the file, and waits while somebody does.
 *
 * @module
 */

import {
  deleteChunks,
  ENVELOPE_BYTES,
  isManifest,
  keyBytes,
  type Kv,
  type KvKey,
  type KvLimits,
  type Manifest,
  storedBytes,
} from "./_denokv.ts";
import { KnownVersions } from "./_denokv_known.ts";
import {
  checksHold,
  COMMIT_SPARE,
  commitAlone,
  KEY_SPARE,
  prepare,
  type Write,
} from "./_denokv_commit.ts";
import type { Sole } from "./_denokv_sole.ts";
import { log } from "../log.ts";
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
  /** What the commit carries against Deno KV's limits (`commitBytes()`). */
  bytes: number;
  /** Bytes of the keys it writes. */
  keyBytes: number;
  /** Keys set as they are, beside `writes` (none checked, none read). */
  raw?: readonly RawSet[];
  /**
   * The version each write left its key at (null for a delete), in the order of `writes` (for
   * raw sets, the commit's versionstamp alone); null when a check failed.
   */
  resolve(versions: (string | null)[] | null): void;
  reject(error: unknown): void;
}

/**
 * `resolve`, called on a turn of the event loop of its own (`setImmediate`), for a handle that
 * answers at once (`Kv.synchronous`). A group commit answers tens of commits together. Resolved
 * together, their awaiting turns go on in one stretch of microtasks, each step of each turn
 * queued behind a step of every other, and over such a handle nothing breaks the stretch up: the
 * turns' reads answer at once too. So every turn of the group is half way through its model
 * stream at the same time, and a garbage collection then copies all their streams. Answered one
 * per turn of the event loop (as the memory store answers every call), each turn runs on until
 * it waits again before the next starts. Answers keep the queue's order. A handle that answers
 * from callbacks of its own breaks the stretch at each turn's next read already; there the extra
 * turn of the event loop only costs (docs/performance.md).
 */
function onATurnOfItsOwn<T>(resolve: (value: T) => void): (value: T) => void {
  return (value) => void setImmediate(resolve, value);
}

/** The version each write of a committed commit left its key at. */
function committedAt(writes: readonly Write[], versionstamp: string): (string | null)[] {
  return writes.map((w) => (w.text === undefined ? null : versionstamp));
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
  #sole: Sole | undefined;
  /** The sole holds this writer's known versions were kept through (`Sole.claims`). */
  #claims = 0;
  /** Whether each commit is answered on a turn of the event loop of its own (`onATurnOfItsOwn`). */
  #spread: boolean;

  /** How a job's promise is resolved: at once, or on a turn of its own (`onATurnOfItsOwn`). */
  #answer<T>(settled: (value: T) => void): (value: T) => void {
    return this.#spread ? onATurnOfItsOwn(settled) : settled;
  }

  /**
   * `sole`: the gate of a store on a file (its commits then keep one of Deno KV's checks for
   * it); without one, commits go out as they are.
   */
  constructor(kv: Kv, limits: KvLimits, known = new KnownVersions(), sole?: Sole) {
    this.#kv = kv;
    this.#limits = sole ? { ...limits, checks: limits.checks - 1 } : limits;
    this.#known = known;
    this.#sole = sole;
    this.#spread = kv.synchronous === true;
  }

  /**
   * Applies `mutations` if every check holds (all or nothing); resolves the version each
   * mutation left its key at (null for a delete), in their order, or null when a check failed.
   */
  commit(
    checks: readonly Check[],
    mutations: readonly Mutation[],
  ): Promise<(string | null)[] | null> {
    let prepared: ReturnType<typeof prepare>;
    try {
      prepared = prepare(this.#limits, checks, mutations);
    } catch (error) {
      return Promise.reject(error);
    }
    const { writes } = prepared;
    const checkIds = checks.map((c) => JSON.stringify(c.key));
    const keys = new Set(checkIds);
    for (const w of writes) keys.add(w.id);
    return new Promise((settled, reject) => {
      const resolve = this.#answer(settled);
      this.#queue.push({
        checks,
        checkIds,
        writes,
        keys: [...keys],
        alone: writes.some((w) => w.chunk),
        bytes: prepared.bytes,
        keyBytes: prepared.keyBytes,
        // A key written twice in one commit is one write: answer each mutation by its key.
        resolve: writes.length === mutations.length ? resolve : (versions) => {
          if (versions === null) return resolve(null);
          const at = new Map(writes.map((w, i) => [w.id, versions[i]]));
          resolve(mutations.map((m) => at.get(JSON.stringify(m.key)) ?? null));
        },
        reject,
      });
      this.kick();
    });
  }

  /** Runs the queue unless it runs already (also for a yield, a claim or a renewal of the file). */
  kick(): void {
    if (!this.#running) void this.#drain();
  }

  /**
   * Sets `sets` as they are (no envelope, no codec), with the next group: keys no store read
   * meets and no other job writes, such as the relay's. Resolves the versionstamp.
   */
  raw(sets: readonly RawSet[]): Promise<string | null> {
    let bytes = 0;
    let keys = 0;
    for (const r of sets) {
      const k = keyBytes(r.key);
      // The relay's values are bytes; anything else is counted as its JSON text would be stored.
      bytes += 2 * k +
        (r.value instanceof Uint8Array
          ? r.value.length
          : storedBytes(JSON.stringify(r.value) ?? "") + ENVELOPE_BYTES);
      keys += k;
    }
    return new Promise((settled, reject) => {
      const resolve = this.#answer(settled);
      this.#queue.push({
        checks: [],
        checkIds: [],
        writes: [],
        keys: sets.map((r) => JSON.stringify(r.key)),
        alone: false,
        bytes,
        keyBytes: keys,
        raw: sets,
        resolve: (versions) => resolve(versions?.[0] ?? null),
        reject,
      });
      this.kick();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    const sole = this.#sole;
    try {
      while (this.#queue.length || sole?.pending) {
        // One turn of the event loop first: commits that requests already on their way make
        // join this one, so a burst costs one database commit rather than several.
        await new Promise((resolve) => setImmediate(resolve));
        if (sole) {
          await sole.writable();
          await sole.settle(this.#queue.length > 0).catch((error) =>
            log.warn("yielding, taking or renewing the Deno KV file failed; retrying", { error })
          );
          // Holding the file, checks are decided on what is known: nothing known from before.
          if (sole.claims !== this.#claims) {
            this.#claims = sole.claims;
            this.#known.clear();
          }
          if (!this.#queue.length) break;
        }
        const group = this.#take();
        if (group.length === 1) await this.#alone(group[0]);
        else await this.#oneByOne(await this.#together(group));
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
    let keyTotal = 0;
    // Alone on the file, a commit's own checks are decided here: none reaches the database.
    const maxChecks = this.#sole?.checked === false ? Infinity : this.#limits.checks;
    // Room for the holder record's renewal.
    const maxMutations = this.#sole ? this.#limits.mutations - 1 : this.#limits.mutations;
    for (let i = 0; i < queue.length; i++) {
      if (checks === maxChecks) {
        rest = rest.concat(queue.slice(i));
        break;
      }
      const job = queue[i];
      // The first always goes (within the limits by `prepare()`): a job left first for ever would
      // hold up the queue for ever.
      const fits = i === 0 || !job.alone && job.keys.every((k) => !taken.has(k)) &&
          checks + job.checks.length <= maxChecks &&
          mutations + job.writes.length + (job.raw?.length ?? 0) <= maxMutations &&
          bytes + job.bytes <= this.#limits.bytes - COMMIT_SPARE &&
          keyTotal + job.keyBytes <= this.#limits.keyBytes - KEY_SPARE;
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
      keyTotal += job.keyBytes;
    }
    this.#queue = rest;
    return group;
  }

  async #alone(job: Job): Promise<void> {
    const sole = this.#sole;
    try {
      if (job.raw) {
        // The relay's own keys: nobody else writes them, so they pass no gate.
        const op = this.#kv.atomic();
        for (const r of job.raw) setRaw(op, r);
        const { ok, versionstamp } = await op.commit();
        return job.resolve(ok ? [versionstamp!] : null);
      }
      if (!job.alone) {
        // Alone as a group of one: a failed commit (a rival's write, the file taken) reads again.
        for (let round = 0; round < 100; round++) {
          if (sole) await sole.writable();
          if (!(await this.#together([job])).length) return;
        }
        throw new Error(
          "Deno KV commit lost 100 races with other writers of the same keys; try again.",
        );
      }
      for (;;) {
        if (sole) await sole.writable();
        const versionstamp = await commitAlone(
          this.#kv,
          this.#limits,
          job.checks,
          job.writes,
          this.#known,
          sole,
        );
        if (versionstamp === "gate") continue;
        return job.resolve(versionstamp === null ? null : committedAt(job.writes, versionstamp));
      }
    } catch (error) {
      job.reject(error);
    }
  }

  /**
   * Commits a group; answers the members whose commit failed at the database (each to run again
   * alone), none when every member was answered.
   */
  async #together(group: Job[]): Promise<Job[]> {
    const kv = this.#kv;
    const sole = this.#sole;
    // Alone on the file: the commits' own checks are decided here, none at the database.
    const checked = sole?.checked ?? true;
    try {
      // A key a commit both checks and writes is read once; a fresh key replaces nothing, so is
      // not read; a key known at the version checked (or, unchecked, at any) is not read either.
      const expect = new Map<string, string | null | undefined>();
      const keyOf = new Map<string, Write["key"]>();
      const ids: string[] = [];
      // Each job's checks, with a version answered while the file was held as it is now.
      const checksOf = sole
        ? group.map((j) =>
          j.checks.map((c, i) => ({
            key: c.key,
            version: sole.translate(j.checkIds[i], c.version),
          }))
        )
        : group.map((j) => j.checks);
      group.forEach((j, g) => {
        checksOf[g].forEach((c, i) => {
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
      });
      const now = Date.now();
      // A key kept in memory is answered as kept: nothing to read underneath.
      const held = new Map<string, ReturnType<Sole["read"]>>();
      if (sole?.holding) {
        for (const id of keyOf.keys()) {
          const entry = sole.read(id, now);
          if (entry !== undefined) held.set(id, entry);
        }
        for (const id of held.keys()) keyOf.delete(id);
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
      for (const [id, entry] of held) byId.set(id, entry!);
      const raw = ids.map((id) => byId.get(id)!);
      const op = kv.atomic();
      const members: Job[] = [];
      const replaced: Manifest[] = [];
      // Guards on written keys, those holding chunks first: their chunks are deleted after the commit.
      const guards: { key: Write["key"]; versionstamp: string | null }[] = [];
      // Writes kept in memory while the file is held, with what the database holds underneath.
      const kept = new Map<Job, { at: number; base: string | null }[]>();
      const keptIds = new Set<string>();
      let toDatabase = false;
      let spare = this.#limits.checks;
      let at = 0;
      group.forEach((job, g) => {
        const checks = checksOf[g];
        const read = checks.length + job.writes.filter((w) => !w.fresh).length;
        const mine = raw.slice(at, at += read);
        if (!checksHold(checks, mine, now)) {
          job.resolve(null);
          return;
        }
        members.push(job);
        if (job.raw) {
          for (const r of job.raw) setRaw(op, r);
          toDatabase = true;
        }
        if (checked) {
          checks.forEach((check, i) =>
            op.check({ key: check.key, versionstamp: mine[i].versionstamp })
          );
          spare -= checks.length;
        }
        const checkedIds = new Set(job.checkIds);
        let old = checks.length;
        job.writes.forEach((w, i) => {
          const { value, versionstamp } = w.fresh
            ? { value: null, versionstamp: null }
            : mine[old++];
          if (sole?.holds(w.others)) {
            let list = kept.get(job);
            if (!list) kept.set(job, list = []);
            list.push({ at: i, base: versionstamp });
            keptIds.add(w.id);
            return;
          }
          toDatabase = true;
          const chunked = isManifest(value);
          if (chunked) replaced.push(value);
          if (checked && !w.fresh && !checkedIds.has(w.id)) {
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
        });
      });
      if (!members.length) return [];
      let versionstamp = "";
      // Only writes kept in memory: no commit checks the hold, so it is read now and then.
      if (!toDatabase && (await sole?.lostSince(now))) return members;
      if (toDatabase) {
        // Replacing more chunked values than the commit can guard could leak chunks: run alone.
        // Alone already, it guards what fits (as `commitAlone` does): beyond, a chunk set may leak.
        if (checked && replaced.length > spare && members.length > 1) return members;
        for (const guard of checked ? guards.slice(0, spare) : []) op.check(guard);
        sole?.guard(op, now);
        const result = await op.commit();
        if (!result.ok) {
          for (const [id, key] of keyOf) this.#known.forget(key, id);
          // Somebody holds the file now, or took it over: each waits, then runs alone.
          await sole?.after(false);
          return members;
        }
        await sole?.after(true, result.versionstamp);
        versionstamp = result.versionstamp!;
        for (const job of members) this.#known.wroteAll(job.writes, versionstamp);
        for (const manifest of replaced) await deleteChunks(kv, this.#limits, manifest);
      }
      for (const job of members) {
        if (job.raw) {
          job.resolve([versionstamp]);
          continue;
        }
        const versions = committedAt(job.writes, versionstamp);
        for (const k of kept.get(job) ?? []) {
          const w = job.writes[k.at];
          versions[k.at] = sole!.keep(w.id, w.key, w.text, w.expireIn, k.base, now);
        }
        if (sole?.tracking) {
          for (const w of job.writes) if (!keptIds.has(w.id)) sole.wrote(w.id);
        }
        job.resolve(versions);
      }
      return [];
    } catch (error) {
      for (const job of group) job.reject(error);
      return [];
    }
  }

  async #oneByOne(jobs: Job[]): Promise<void> {
    for (const job of jobs) await this.#alone(job);
  }
}

function setRaw(op: ReturnType<Kv["atomic"]>, r: RawSet): void {
  op.set(r.key, r.value, r.expireIn === undefined ? undefined : { expireIn: r.expireIn });
}
