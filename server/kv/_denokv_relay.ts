/**
 * Publish/subscribe across the processes and isolates sharing one Deno KV
 * database (private to `server/kv/`): two `deno serve` processes on one
 * file, the isolates of `deno serve --parallel`, Deno Deploy's isolates on
 * the project's KV, Node processes through `@deno/kv`.
 *
 * Deno KV's `watch()` does not see another process's writes to a local file,
 * and its queues hand each message to one listener, not to all; so messages
 * travel through the database itself. A publish commits the message under
 * `[false, "m", stamp, origin, n]` (all strings after the first) (a boolean first part, which no string key
 * of ours reaches) with a short expiry, together with the head key
 * `[false, "head"]`. Each process reads the head's versionstamp every
 * {@linkcode RELAY_POLL_MS} ms (every {@linkcode RELAY_IDLE_MS} ms when
 * nothing moved for a while): one small read; when it changed, it lists the
 * messages from 2 s before the last one it saw (a commit may land after a
 * later-stamped one of another process), and a second later from 20 s before
 * (a commit that waited long for the lock), and delivers those it has not
 * seen and that another origin wrote. Messages one process publishes keep their
 * order; those queued while a commit runs go out together in the next.
 *
 * @module
 */

import { type Kv, type KvLimits, type Manifest, readChunks, writeChunks } from "./_denokv.ts";
import { retryLocked } from "./_denokv_retry.ts";
import { log } from "../log.ts";

/** How often the head key is read while messages move. */
export const RELAY_POLL_MS = 40;
/** How often it is read once nothing moved for {@linkcode RELAY_QUIET_MS}. */
export const RELAY_IDLE_MS = 250;
/** After this long without a message, reads slow to {@linkcode RELAY_IDLE_MS}. */
export const RELAY_QUIET_MS = 5_000;
/** Messages expire after this long: a reader that fell further behind catches up from the event log. */
export const RELAY_KEEP_MS = 60_000;
/** How far before the last message seen each listing starts. */
const LOOKBACK_MS = 2_000;
/**
 * How far back a wider listing reaches, once a second after messages moved: a commit that
 * waited long for another process's lock (SQLite's own wait included) lands with an older stamp.
 */
const STRAGGLER_MS = 20_000;
/** How often that wider listing runs. */
const STRAGGLER_EVERY_MS = 1_000;
/** Message text above this many characters is written as chunks. */
const INLINE_CHARS = 30_000;
/** Messages per commit. */
const PER_COMMIT = 64;

const RELAY = false;
const HEAD = [RELAY, "head"] as const;
const MESSAGES = [RELAY, "m"] as const;

interface Stored {
  /** The channel. */
  c: string;
  /** The message as JSON text, or the chunks holding it. */
  t?: string;
  m?: Manifest;
}

interface Queued {
  channel: string;
  text: string;
  done: { resolve(): void; reject(error: unknown): void };
}

const stampOf = (ms: number) => ms.toString().padStart(15, "0");

/**
 * Carries one process's messages to the others sharing the database, and theirs to `deliver`.
 *
 * @example
 * ```ts
 * const relay = new KvRelay(kv, limits, (channel, text) => bus.publishText(channel, text));
 * await relay.publish("tether:events", JSON.stringify({ n: 1 }));
 * await relay.close();
 * ```
 */
export class KvRelay {
  #kvs: Kv[] = [];
  #limits: KvLimits;
  #deliver: (channel: string, text: string) => void;
  #origin = crypto.randomUUID();
  #n = 0;
  #lastStamp = 0;
  #queue: Queued[] = [];
  #writing = false;
  #head: string | null | undefined = undefined;
  #since = Date.now();
  #cursor = this.#since;
  #seen = new Map<string, number>();
  #owed = false;
  #wideAt = 0;
  #lastActivity = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #polling: Promise<void> | null = null;
  #closed = false;

  /** `deliver` receives every message another process published, with its channel. */
  constructor(kv: Kv, limits: KvLimits, deliver: (channel: string, text: string) => void) {
    this.#kvs.push(kv);
    this.#limits = limits;
    this.#deliver = deliver;
    this.#schedule(0);
  }

  /** Another handle on the same database, used once the first one closes. */
  add(kv: Kv): void {
    this.#kvs.push(kv);
  }

  /** Stops using a handle that is about to close; false when none is left. */
  drop(kv: Kv): boolean {
    this.#kvs = this.#kvs.filter((k) => k !== kv);
    return this.#kvs.length > 0;
  }

  /** Commits a message for the other processes; resolves once it is in the database. */
  publish(channel: string, text: string): Promise<void> {
    this.#lastActivity = Date.now();
    return new Promise((resolve, reject) => {
      this.#queue.push({ channel, text, done: { resolve, reject } });
      if (!this.#writing) void this.#write();
    });
  }

  /** Waits for the writes and the read under way, then stops reading. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#polling;
  }

  get #kv(): Kv {
    return this.#kvs[0];
  }

  async #write(): Promise<void> {
    this.#writing = true;
    try {
      while (this.#queue.length) {
        const batch = this.#queue.splice(0, PER_COMMIT);
        try {
          const stored = await Promise.all(
            batch.map(async (q): Promise<Stored> =>
              q.text.length <= INLINE_CHARS ? { c: q.channel, t: q.text } : {
                c: q.channel,
                m: await writeChunks(this.#kv, this.#limits, q.text, RELAY_KEEP_MS),
              }
            ),
          );
          await retryLocked(() => {
            // Stamped at each attempt, so a commit that waited for the lock is not listed late.
            const stamp = stampOf(this.#lastStamp = Math.max(Date.now(), this.#lastStamp));
            const op = this.#kv.atomic();
            for (const value of stored) {
              op.set(
                [...MESSAGES, stamp, this.#origin, (this.#n++).toString(36).padStart(8, "0")],
                value,
                {
                  expireIn: RELAY_KEEP_MS,
                },
              );
            }
            op.set(HEAD, stamp);
            return op.commit();
          });
          for (const q of batch) q.done.resolve();
        } catch (error) {
          for (const q of batch) q.done.reject(error);
        }
      }
    } finally {
      this.#writing = false;
    }
  }

  #schedule(ms: number): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#polling = this.#poll().catch((error) => {
        if (!this.#closed) {
          log.warn("reading other processes' messages from Deno KV failed; retrying", { error });
        }
      }).finally(() => {
        this.#polling = null;
        const quiet = Date.now() - this.#lastActivity > RELAY_QUIET_MS;
        this.#schedule(quiet ? RELAY_IDLE_MS : RELAY_POLL_MS);
      });
    }, ms);
    // Node's timers have unref(): an idle relay must not keep a dropped runtime's process alive.
    (this.#timer as unknown as { unref?: () => void }).unref?.();
  }

  async #poll(): Promise<void> {
    const kv = this.#kv;
    if (this.#closed || kv === undefined) return;
    const head = await kv.get(HEAD);
    const now = Date.now();
    const wide = this.#owed && now - this.#wideAt >= STRAGGLER_EVERY_MS;
    if (head.versionstamp === this.#head && !wide) return;
    this.#head = head.versionstamp;
    // Every narrow listing owes a wide one, which finds what landed behind it.
    this.#owed = !wide;
    if (wide) this.#wideAt = now;
    const from = stampOf(Math.max(0, this.#cursor - (wide ? STRAGGLER_MS : LOOKBACK_MS)));
    for await (
      const entry of kv.list({ prefix: [...MESSAGES], start: [...MESSAGES, from] }, {
        batchSize: 200,
      })
    ) {
      if (this.#closed) return;
      const [, , stamp, origin, n] = entry.key as [boolean, string, string, string, string];
      const at = Number(stamp);
      if (at > this.#cursor) this.#cursor = at;
      // Published before this relay started: not ours to see.
      if (origin === this.#origin || at < this.#since) continue;
      const id = `${origin}:${n}`;
      if (this.#seen.has(id)) continue;
      this.#seen.set(id, at);
      const value = entry.value as Stored;
      const text = value.t ?? (value.m ? await readChunks(kv, value.m) : undefined);
      this.#lastActivity = Date.now();
      if (text !== undefined) this.#deliver(value.c, text);
    }
    // Ids older than the lookback can no longer be listed again.
    const oldest = this.#cursor - STRAGGLER_MS;
    for (const [id, at] of this.#seen) {
      if (at >= oldest) break;
      this.#seen.delete(id);
    }
  }
}
