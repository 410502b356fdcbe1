/**
 * One store alone on a Deno KV file (private to `server/kv/`).
 *
 * A Deno KV file may be opened by several processes (or isolates), so every
 * commit checks the versions it depends on at the database, and every turn
 * takes and releases its session's lease there: work that only matters when
 * somebody else is there. Nearly always nobody is (`npm start` is one
 * process). So a store that finds itself alone on its file holds the file
 * alone: it writes the holder record `[false, "x"]`, and from then on each of
 * its commits checks only that record's version at the database (the others
 * are checked here, against what this store wrote and read), and writes
 * marked `forOthers` (leases) are kept in memory (`Held`). While it holds the
 * file, a commit is no longer limited by Deno KV's checks per commit, so the
 * write queue puts many more turns into one commit. Past {@linkcode HELD_MOST}
 * writes kept, the oldest that never expire are written to the file between
 * commits, so memory stays bounded; a check against the version this store
 * answered for one of them fails afterwards, as after another writer's change.
 *
 * Every store that is not the holder says it is there: it keeps a presence
 * key `[false, "p", id]` fresh (every {@linkcode HEARTBEAT_MS} ms), and every
 * commit it makes checks that nobody holds the file. The holder lists the
 * presence keys every {@linkcode WATCH_MS} ms; when one is fresh, it yields
 * before its next commit: it writes what it kept in memory (so a lease it
 * holds now stops the newcomer from running the same session), deletes the
 * holder record, and from then on works as every shared store does. A store
 * that sees no other fresh presence for {@linkcode STALE_MS} ms and no holder
 * takes the file again. A newcomer waits (its commits, not its reads) while
 * the file is held: until the holder yields, until the holder's record runs
 * out ({@linkcode SOLE_TTL_MS} after its last renewal), or at once when the
 * record names a process on this machine that is gone (`/proc`), as after a
 * crash.
 *
 * A holder that stalled so long that another store took the file over finds
 * out at its next commit (the record's version changed): what it kept in
 * memory is dropped (so its leases read as lost, and their turns stop, as
 * when a lease is lost), and it waits like a newcomer.
 *
 * Deno's own default database (`denokv://default`, Deno Deploy's isolates)
 * never holds the file alone: isolates come and go without closing.
 *
 * @module
 */

import { readFileSync, readlinkSync } from "node:fs";
import process from "node:process";
import {
  fromJsonBytes,
  jsonBytes,
  type Kv,
  type KvAtomic,
  type KvEntryMaybe,
  type KvKey,
} from "./_denokv.ts";
import { log } from "../log.ts";
import { denoGlobal } from "../runtime/detect.ts";

/**
 * Writes kept in memory past which the oldest that never expire go to the file: a lease runs
 * out by itself, but a value without expiry (the event numbers a session hands back) is kept
 * once per session ever run, which no bound would otherwise hold.
 */
export const HELD_MOST = 4_096;
/** Kept writes that go to the file in one commit, when past {@linkcode HELD_MOST}. */
const SPILL_PER_COMMIT = 500;

/** The holder record's key: a boolean first part, which no string key of ours reaches. */
export const SOLE_KEY: KvKey = [false, "x"];
/** Presence keys: `[false, "p", id]`. */
const PRESENCE: KvKey = [false, "p"];
/** A holder that stopped renewing its record is taken over this long after its last renewal. */
export const SOLE_TTL_MS = 6_000;
/** The holder renews its record once it has less than this much left. */
const RENEW_BELOW_MS = SOLE_TTL_MS - 2_000;
/** A store that does not hold the file writes its presence this often. */
export const HEARTBEAT_MS = 1_000;
/** A presence older than this is a store that is gone. */
export const STALE_MS = 4 * HEARTBEAT_MS;
/** The holder lists the presence keys this often, and every {@linkcode WATCH_IDLE_MS} once quiet. */
export const WATCH_MS = 50;
export const WATCH_IDLE_MS = 250;
/** A holder whose write queue had none of the store's own commits for this long is quiet. */
export const QUIET_MS = 5_000;
/** A waiting store reads the holder record this often. */
const WAIT_MS = 25;
/** Writes kept in memory with no commit beside them check that the file is still held this often. */
const VERIFY_MS = 1_000;

/** What the holder record says: who holds the file, until when, and how to tell it is gone. */
interface Holder {
  /** The holding store's id. */
  o: string;
  /** Epoch milliseconds the hold runs until unless renewed. */
  u: number;
  /** Process id, its start time and its pid namespace (Linux), when known. */
  p?: number;
  s?: string;
  n?: string;
}

/** A presence: when the store last said it is there. */
interface Presence {
  a: number;
}

/** The holder record and presences, as JSON in bytes (read the same on Deno and Node). */
export const packed: (record: Holder | Presence) => Uint8Array = jsonBytes;
/** A holder record or presence, or null for anything else. */
export const unpacked: <T>(value: unknown) => T | null = fromJsonBytes;

/** A `forOthers` write kept in memory while the file is held. */
interface Held {
  key: KvKey;
  /** The value's JSON text; undefined for a delete. */
  text: string | undefined;
  /** Epoch ms the value expires at; 0 for never. */
  expiresAt: number;
  /** The version this store answers for the key (never a Deno KV versionstamp). */
  version: string;
  /** The versionstamp the key has in the database underneath (null: absent there). */
  base: string | null;
}

/** Where a store stands. */
export type SoleMode = "opening" | "waiting" | "shared" | "sole";

/**
 * This process as a holder record names it: its pid, start time and pid namespace, read from
 * `/proc` (Linux); only the pid elsewhere or when `/proc` cannot be read.
 */
function self(): Pick<Holder, "p" | "s" | "n"> {
  // Deno without read access to /proc would prompt for it: ask first, and go without.
  const deno = denoGlobal<{
    permissions?: { querySync?(d: { name: string; path: string }): { state: string } };
  }>();
  if (deno && deno.permissions?.querySync?.({ name: "read", path: "/proc" }).state !== "granted") {
    return {};
  }
  try {
    return {
      p: process.pid,
      s: startTime(process.pid),
      n: readlinkSync("/proc/self/ns/pid"),
    };
  } catch {
    return {};
  }
}

/**
 * A process's start time (clock ticks since boot, field 22 of `/proc/<pid>/stat`), or "" when
 * it has exited and waits for its parent to reap it (a zombie, state Z or X): gone all the same.
 */
function startTime(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces and parentheses: count from its closing one.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields[0] === "Z" || fields[0] === "X" ? "" : fields[19];
}

let me: Pick<Holder, "p" | "s" | "n"> | undefined;

/**
 * Whether the process a holder record names is known to be gone: it ran on this machine, in
 * this pid namespace, and no process with its pid and start time runs now. False when that
 * cannot be told (another machine or namespace, no `/proc`, no permission).
 *
 * @example
 * ```ts
 * holderGone({ o: "id", u: Date.now() + 6_000 }); // false: nothing names its process
 * ```
 */
export function holderGone(holder: Holder): boolean {
  me ??= self();
  if (holder.p === undefined || holder.s === undefined || !me.n || holder.n !== me.n) {
    return false;
  }
  try {
    return startTime(holder.p) !== holder.s;
  } catch (error) {
    // No such process: gone. Anything else (no permission) says nothing.
    return (error as { code?: string }).code === "ENOENT";
  }
}

/**
 * The sole-holder state of one store, and the gate every commit of its write queue passes.
 *
 * @example
 * ```ts
 * const sole = new Sole(kv, () => writer.kick());
 * sole.start();
 * await sole.writable();
 * ```
 */
export class Sole {
  readonly id: string = crypto.randomUUID();
  #mode: SoleMode = "opening";
  #kv: Kv;
  #kick: () => void;
  /** Sole: the versionstamp the holder record has now, and when it runs out. */
  #version: string | null = null;
  #until = 0;
  /** Sole: the renewal a commit being built carries, applied once it committed. */
  #renewing = 0;
  /** Sole: a fresh presence was seen; yield before the next commit. */
  #yieldWanted = false;
  /** Shared: nobody else was seen for long enough; take the file before the next commit. */
  #claimWanted = false;
  /** In the order they were last written: the oldest first. */
  #held = new Map<string, Held>();
  /** Held writes past which the oldest that never expire go to the file (`#spill`). */
  #spillAt = HELD_MOST;
  #spillWanted = false;
  #counter = 0;
  /** After a yield: the version each held key was answered at, and the versionstamp it has now. */
  #flushed = new Map<string, { from: string; to: string }>();
  #writable: Promise<void>;
  #open!: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #deciding: Promise<void> | null = null;
  /** When the write queue last had commits of the store's own (its idle renewals aside). */
  #lastActivity = Date.now();
  #presentAt = 0;
  #claims = 0;
  /** When the hold was last seen to be ours (a commit that checked it, or a read). */
  #verifiedAt = 0;
  #closed = false;

  /** `kick` runs the write queue (for a yield, a claim or a renewal while it is idle). */
  constructor(kv: Kv, kick: () => void) {
    this.#kv = kv;
    this.#kick = kick;
    this.#writable = new Promise((resolve) => (this.#open = resolve));
  }

  /** Where this store stands now. */
  get mode(): SoleMode {
    return this.#mode;
  }

  /**
   * How many times this store took the file: what it knew of keys before is stale once it
   * checks them itself (another process may have written any of them), so the write queue
   * forgets it when this changes.
   */
  get claims(): number {
    return this.#claims;
  }

  /** Whether this store holds the file alone now. */
  get alone(): boolean {
    return this.#mode === "sole";
  }

  /**
   * The number of this store's hold on the file ({@linkcode claims}) while it holds it alone
   * and its holder record has not run out, so no newcomer can have taken it over; else null.
   * A hold whose record ran out counts again only once a commit renewed it, which proves
   * nobody took the file meanwhile (the renewal checks the record).
   */
  held(now: number): number | null {
    return this.#mode === "sole" && now < this.#until ? this.#claims : null;
  }

  /** Decides whether to hold the file or to join the others; commits wait for it. */
  start(): void {
    this.#deciding = this.#decide().catch((error) => this.#retryLater(error));
  }

  /** Resolves once commits may go out (never while another store holds the file). */
  writable(): Promise<void> {
    return this.#writable;
  }

  /** Whether a yield, a claim or an idle renewal waits for the write queue. */
  get pending(): boolean {
    return (this.#mode === "sole" &&
      (this.#yieldWanted || this.#spillWanted || this.#renewDue(Date.now()))) ||
      (this.#mode === "shared" && this.#claimWanted);
  }

  /**
   * Run by the write queue before each group, between commits: yields the file to a newcomer,
   * takes it when alone, or renews the holder record while idle. `busy`: the queue holds the
   * store's own commits (an idle renewal alone is not activity, so a quiet holder's watch slows).
   */
  async settle(busy = true): Promise<void> {
    if (this.#closed) return;
    if (busy) this.#lastActivity = Date.now();
    if (this.#mode === "sole" && this.#yieldWanted) await this.#yield();
    else if (this.#mode === "sole" && this.#spillWanted) await this.#spill();
    else if (this.#mode === "shared" && this.#claimWanted) {
      this.#claimWanted = false;
      if (await this.#claim()) this.#watch(0);
    } else if (this.#mode === "sole" && this.#renewDue(Date.now())) {
      const op = this.#kv.atomic();
      this.guard(op, Date.now());
      const { ok, versionstamp } = await op.commit();
      await this.after(ok, versionstamp);
    }
  }

  /** Whether each commit's own checks go to the database: not while the file is held. */
  get checked(): boolean {
    return this.#mode !== "sole";
  }

  /**
   * Adds what every commit must carry: while held, a check that the holder record is still
   * ours (and its renewal when due); otherwise a check that nobody holds the file.
   */
  guard(op: KvAtomic, now: number): void {
    if (this.#mode !== "sole") {
      op.check({ key: SOLE_KEY, versionstamp: null });
      return;
    }
    op.check({ key: SOLE_KEY, versionstamp: this.#version });
    if (this.#renewDue(now)) {
      this.#renewing = now + SOLE_TTL_MS;
      op.set(SOLE_KEY, packed(this.#record(this.#renewing)));
    } else this.#renewing = 0;
  }

  /**
   * After a commit that carried {@linkcode guard}: records a renewal, or, when it failed, finds
   * out whether because of the hold (answers true: run the commit again once writable).
   */
  async after(ok: boolean, versionstamp?: string): Promise<boolean> {
    if (ok) {
      this.#verifiedAt = Date.now();
      if (this.#mode === "sole" && this.#renewing) {
        this.#version = versionstamp!;
        this.#until = this.#renewing;
      }
      this.#renewing = 0;
      return false;
    }
    this.#renewing = 0;
    const holder = await this.#kv.get(SOLE_KEY);
    if (this.#mode === "sole") {
      if (holder.versionstamp === this.#version) return false;
      log.warn(
        "another process took over this Deno KV file while this one stalled; its running turns stop",
        { file_holder: unpacked<Holder>(holder.value)?.o ?? null },
      );
      this.#dropHeld();
      this.#flushed.clear();
      this.#version = null;
      this.#wait();
      return true;
    }
    if (holder.versionstamp === null) return false;
    this.#wait();
    return true;
  }

  /**
   * Before answering writes kept in memory alone (no commit to carry the check): whether the
   * file is still held, read at most once a second (any committed commit counts). Answers
   * true when the hold was lost: the writes must run again once writable.
   */
  async lostSince(now: number): Promise<boolean> {
    if (this.#mode !== "sole" || now - this.#verifiedAt < VERIFY_MS) return false;
    const holder = await this.#kv.get(SOLE_KEY);
    if (holder.versionstamp === this.#version) {
      this.#verifiedAt = now;
      return false;
    }
    return await this.after(false);
  }

  /** The held entry of a key, as the database would answer it (null: absent), or undefined when not held. */
  read(id: string, now: number): KvEntryMaybe | undefined {
    const held = this.#held.get(id);
    if (held === undefined) return undefined;
    if (held.text === undefined || (held.expiresAt !== 0 && held.expiresAt <= now)) {
      return { key: held.key, value: null, versionstamp: null };
    }
    const value = held.expiresAt ? { j: held.text, x: held.expiresAt } : { j: held.text };
    return { key: held.key, value, versionstamp: held.version };
  }

  /** Held entries under `prefix` (ids and entries), for a listing to merge; empty when nothing is held. */
  under(prefix: KvKey, now: number): [string, KvEntryMaybe][] {
    if (!this.#held.size) return [];
    const out: [string, KvEntryMaybe][] = [];
    for (const [id, held] of this.#held) {
      if (held.key.length <= prefix.length || !prefix.every((p, i) => held.key[i] === p)) continue;
      out.push([id, this.read(id, now)!]);
    }
    return out;
  }

  /** Whether a write of this key is kept in memory rather than committed. */
  holds(forOthers: boolean): boolean {
    return forOthers && this.#mode === "sole";
  }

  /**
   * Keeps a committed `forOthers` write in memory; `base` is what the database holds underneath
   * (the versionstamp read, null when absent). Answers the version to report for it.
   */
  keep(
    id: string,
    key: KvKey,
    text: string | undefined,
    expireIn: number | undefined,
    base: string | null,
    now: number,
  ): string | null {
    const before = this.#held.get(id);
    const under = before ? before.base : base;
    if (text === undefined && under === null) {
      this.#held.delete(id);
      return null;
    }
    const version = `s${(++this.#counter).toString(36)}`;
    // Written again, it goes last: the map stays in the order of the last writes.
    if (before) this.#held.delete(id);
    this.#held.set(id, {
      key,
      text,
      expiresAt: expireIn === undefined ? 0 : now + expireIn,
      version,
      base: under,
    });
    if (this.#held.size > 1024 && this.#held.size % 1024 === 0) this.#sweep(now);
    if (this.#held.size > this.#spillAt) this.#spillWanted = true;
    return text === undefined ? null : version;
  }

  /** A version this store answered while it held the file, as the database knows it since the yield. */
  translate(id: string, version: string | null): string | null {
    if (version === null || version.charCodeAt(0) !== 115 /* s */) return version;
    const moved = this.#flushed.get(id);
    return moved?.from === version ? moved.to : version;
  }

  /** Whether any write is kept in memory now. */
  get holding(): boolean {
    return this.#held.size > 0;
  }

  /** Whether {@linkcode wrote} has anything to forget. */
  get tracking(): boolean {
    return this.#held.size > 0 || this.#flushed.size > 0;
  }

  /** A key was written to the database: what was kept of it in memory, and its translation, go. */
  wrote(id: string): void {
    this.#held.delete(id);
    this.#flushed.delete(id);
  }

  /** Stops the timers and lets the file go: deletes the holder record, or this store's presence. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    // Commits still waiting go on, to meet the closed handle and fail rather than hang.
    this.#open();
    await this.#deciding?.catch(() => {});
    try {
      if (this.#mode === "sole") {
        const op = this.#kv.atomic().check({ key: SOLE_KEY, versionstamp: this.#version });
        // Deletes this store kept in memory over records of the database go through first.
        for (const held of this.#held.values()) if (held.text === undefined) op.delete(held.key);
        op.delete(SOLE_KEY);
        await op.commit();
      } else {
        await this.#kv.atomic().delete([...PRESENCE, this.id]).commit();
      }
    } catch (error) {
      log.warn("letting go of the Deno KV file failed; another process waits for it to run out", {
        error,
      });
    }
    this.#dropHeld();
  }

  #renewDue(now: number): boolean {
    return this.#mode === "sole" && this.#until - now < RENEW_BELOW_MS;
  }

  #record(until: number): Holder {
    me ??= self();
    return { o: this.id, u: until, ...me };
  }

  #sweep(now: number): void {
    for (const [id, held] of this.#held) {
      if (held.expiresAt !== 0 && held.expiresAt <= now && held.base === null) {
        this.#held.delete(id);
      }
    }
  }

  /** Opening, or the hold went elsewhere: take the file if alone, else join; commits wait meanwhile. */
  async #decide(): Promise<void> {
    for (;;) {
      if (this.#closed) return;
      const holder = await this.#kv.get(SOLE_KEY);
      if (holder.versionstamp === null) {
        if (!(await this.#othersThere()) && (await this.#claim())) {
          this.#watch(WATCH_MS);
          return this.#open();
        }
        if ((await this.#kv.get(SOLE_KEY)).versionstamp === null) {
          await this.#present();
          this.#mode = "shared";
          this.#beat(HEARTBEAT_MS);
          return this.#open();
        }
        continue;
      }
      const record = unpacked<Holder>(holder.value);
      // A record this code cannot read names no live holder it could wait for: cleared too.
      if (!record || typeof record.u !== "number" || record.u <= Date.now() || holderGone(record)) {
        // Run out, or its process is gone: clear it (if nobody renewed it meanwhile) and look again.
        await this.#kv.atomic().check({ key: SOLE_KEY, versionstamp: holder.versionstamp })
          .delete(SOLE_KEY).commit();
        continue;
      }
      // Held by a live store: say we are here (it yields when it sees this), then look again.
      if (Date.now() - this.#presentAt >= HEARTBEAT_MS) await this.#present();
      await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
    }
  }

  /** Commits wait again until the file is free (after another store took it over). */
  #wait(): void {
    this.#mode = "waiting";
    this.#writable = new Promise((resolve) => (this.#open = resolve));
    clearTimeout(this.#timer);
    this.start();
  }

  #retryLater(error: unknown): void {
    if (this.#closed) return;
    log.warn("deciding who writes the Deno KV file failed; retrying", { error });
    this.#deciding = new Promise<void>((resolve) => setTimeout(resolve, 200))
      .then(() => this.#decide()).catch((e) => this.#retryLater(e));
  }

  /** Takes the file: succeeds only while nobody holds it. */
  async #claim(): Promise<boolean> {
    const until = Date.now() + SOLE_TTL_MS;
    const { ok, versionstamp } = await this.#kv.atomic()
      .check({ key: SOLE_KEY, versionstamp: null })
      .set(SOLE_KEY, packed(this.#record(until)))
      .delete([...PRESENCE, this.id])
      .commit();
    if (!ok) return false;
    this.#claims++;
    this.#mode = "sole";
    this.#version = versionstamp!;
    this.#until = until;
    this.#verifiedAt = Date.now();
    this.#yieldWanted = false;
    return true;
  }

  /** Forgets every write kept in memory (written at a yield, or lost with the hold). */
  #dropHeld(): void {
    this.#held.clear();
    this.#spillAt = HELD_MOST;
    this.#spillWanted = false;
  }

  /**
   * Writes the oldest kept writes that never expire to the file, at most
   * {@linkcode SPILL_PER_COMMIT} in one commit (the file stays held; run between commits, so no
   * write is kept meanwhile, and one commit keeps the queue's wait short). The next spill comes
   * once that many more are kept; when too few never expire (more leases than that are held),
   * once {@linkcode HELD_MOST} more are, so the work stays bounded either way.
   */
  async #spill(): Promise<void> {
    this.#spillWanted = false;
    const batch: [string, Held][] = [];
    for (const entry of this.#held) {
      if (batch.length >= SPILL_PER_COMMIT) break;
      if (entry[1].expiresAt === 0) batch.push(entry);
    }
    this.#spillAt = this.#held.size + (batch.length ? SPILL_PER_COMMIT - batch.length : HELD_MOST);
    if (!batch.length) return;
    const op = this.#kv.atomic();
    this.guard(op, Date.now());
    for (const [, h] of batch) {
      if (h.text === undefined) op.delete(h.key);
      else op.set(h.key, { j: h.text });
    }
    const { ok, versionstamp } = await op.commit();
    // Lost the hold meanwhile: `after` dropped what was kept, and the store waits.
    if (!ok) return void (await this.after(false));
    await this.after(true, versionstamp);
    for (const [id, h] of batch) if (this.#held.get(id) === h) this.#held.delete(id);
    this.#spillAt = Math.max(HELD_MOST, this.#spillAt - batch.length);
  }

  /** Writes what was kept in memory, lets the file go, and works as a shared store from now on. */
  async #yield(): Promise<void> {
    const now = Date.now();
    const entries = [...this.#held].filter(([, h]) =>
      h.text === undefined ? h.base !== null : h.expiresAt === 0 || h.expiresAt > now + 1
    );
    // Room for the check, the holder record and this store's presence in the last commit.
    const PER_COMMIT = 500;
    for (let i = 0; i < entries.length || i === 0; i += PER_COMMIT) {
      const last = i + PER_COMMIT >= entries.length;
      const op = this.#kv.atomic().check({ key: SOLE_KEY, versionstamp: this.#version });
      const batch = entries.slice(i, i + PER_COMMIT);
      for (const [, h] of batch) {
        if (h.text === undefined) op.delete(h.key);
        else if (h.expiresAt === 0) op.set(h.key, { j: h.text });
        else op.set(h.key, { j: h.text, x: h.expiresAt }, { expireIn: h.expiresAt - now });
      }
      if (last) {
        op.delete(SOLE_KEY);
        op.set([...PRESENCE, this.id], packed({ a: Date.now() }), {
          expireIn: 10 * STALE_MS,
        });
      } else op.set(SOLE_KEY, packed(this.#record(Date.now() + SOLE_TTL_MS)));
      const { ok, versionstamp } = await op.commit();
      if (!ok) {
        await this.after(false);
        return;
      }
      for (const [id, h] of batch) {
        if (h.text !== undefined) this.#flushed.set(id, { from: h.version, to: versionstamp! });
      }
      if (!last) this.#version = versionstamp!;
    }
    this.#dropHeld();
    this.#version = null;
    this.#yieldWanted = false;
    this.#mode = "shared";
    clearTimeout(this.#timer);
    this.#beat(HEARTBEAT_MS);
  }

  /** Writes this store's presence. */
  async #present(): Promise<void> {
    this.#presentAt = Date.now();
    await this.#kv.atomic().set([...PRESENCE, this.id], packed({ a: Date.now() }), {
      expireIn: 10 * STALE_MS,
    }).commit();
  }

  /** Whether another store's presence is fresh. */
  async #othersThere(): Promise<boolean> {
    const now = Date.now();
    for await (const entry of this.#kv.list({ prefix: PRESENCE }, { batchSize: 100 })) {
      if (entry.key[2] === this.id) continue;
      const a = unpacked<Presence>(entry.value)?.a;
      if (typeof a === "number" && a > now - STALE_MS) return true;
    }
    return false;
  }

  /** Sole: lists the presences now and then; a fresh one makes this store yield. */
  #watch(ms: number): void {
    this.#schedule(ms, async () => {
      if (this.#mode !== "sole") return;
      if (await this.#othersThere()) {
        this.#yieldWanted = true;
        this.#kick();
        return;
      }
      if (this.#renewDue(Date.now())) this.#kick();
      const quiet = Date.now() - this.#lastActivity > QUIET_MS;
      this.#watch(quiet ? WATCH_IDLE_MS : WATCH_MS);
    });
  }

  /** Shared: writes this store's presence now and then, and takes the file once alone. */
  #beat(ms: number): void {
    this.#schedule(ms, async () => {
      if (this.#mode !== "shared") return;
      await this.#present();
      if (!(await this.#othersThere()) && (await this.#kv.get(SOLE_KEY)).versionstamp === null) {
        this.#claimWanted = true;
        this.#kick();
      }
      this.#beat(HEARTBEAT_MS);
    });
  }

  #schedule(ms: number, run: () => Promise<void>): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      run().catch((error) => {
        if (this.#closed) return;
        log.warn("watching who else uses the Deno KV file failed; retrying", { error });
        // Keep the loop alive whatever the mode.
        if (this.#mode === "sole") this.#watch(WATCH_IDLE_MS);
        else if (this.#mode === "shared") this.#beat(HEARTBEAT_MS);
      });
    }, ms);
    // Node's timers have unref(): a dropped store's timers must not keep its process alive.
    (this.#timer as unknown as { unref?: () => void }).unref?.();
  }
}
