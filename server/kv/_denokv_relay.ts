/**
 * Publish/subscribe across the processes and isolates sharing one Deno KV
 * database (private to `server/kv/`): two `deno serve` processes on one
 * file, the isolates of `deno serve --parallel`, Deno Deploy's isolates on
 * the project's KV, Node processes on one file.
 *
 * Deno KV's `watch()` does not see another process's writes to a local file,
 * and its queues hand each message to one listener, not to all; so messages
 * travel through the database itself. Each relay (one per database in a
 * process) is an origin with its own numbering: a commit writes the
 * messages queued for it packed into as few entries as fit
 * `[false, "o", origin, n]` (a boolean first part, which no string key of
 * ours reaches; `n` counts the origin's entries up from 0), together with the
 * origin's head `[false, "h", origin]`, which holds the last entry's number.
 * Every key written costs SQLite its own work, so under load one entry
 * carries the events of many turns. One relay writes one commit at a time,
 * so once a head says `n`, every entry up to `n` is in the database.
 *
 * Every {@linkcode RELAY_POLL_MS} ms (every {@linkcode RELAY_IDLE_MS} ms once
 * nothing moved for a while) a relay lists the heads, one small entry per
 * process, and for each other origin whose head moved it lists that origin's
 * entries after the last one it delivered: it reads each entry once, and
 * never its own. While its store holds the file alone (`_denokv_sole.ts`),
 * no other process commits, so after one read within the hold (for what
 * others committed before it) a relay reads nothing until the hold ends.
 * Messages one process publishes keep their order; those queued while a
 * commit runs go out together in the next.
 *
 * @module
 */

import {
  fromJsonBytes,
  INLINE_BYTES,
  jsonBytes,
  type Kv,
  type KvLimits,
  type Manifest,
  readChunks,
  utf8Length,
  writeChunks,
} from "./_denokv.ts";
import type { KvWriter } from "./_denokv_writer.ts";
import { log } from "../log.ts";

/** How often the heads are read while messages move. */
export const RELAY_POLL_MS = 40;
/** How often they are read once nothing moved for {@linkcode RELAY_QUIET_MS}. */
export const RELAY_IDLE_MS = 250;
/** After this long without a message, reads slow to {@linkcode RELAY_IDLE_MS}. */
export const RELAY_QUIET_MS = 5_000;
/** Messages expire after this long: a reader that fell further behind catches up from the event log. */
export const RELAY_KEEP_MS = 60_000;
/** An origin whose head was not listed for this long is forgotten (its messages expired before). */
const FORGET_MS = 2 * RELAY_KEEP_MS;
/** Messages per commit, and their inline bytes in all (within Deno KV's 800 KiB a commit). */
const PER_COMMIT = 256;
const COMMIT_BYTES = 300_000;

const RELAY = false;
const HEADS = [RELAY, "h"] as const;
const MESSAGES = [RELAY, "o"] as const;

/** One message: its channel, and its JSON text or the chunks holding it. */
interface Item {
  c: string;
  t?: string;
  m?: Manifest;
}

/**
 * One entry: the messages it packs (`l`, in publish order) and when it was committed (the
 * publisher's clock, epoch ms). An entry written before messages were packed is one `Item`.
 */
type Stored = { l: Item[]; a: number } | (Item & { a: number });

/** An origin's head: the last message number it committed, and when. */
interface Head {
  n: number;
  a: number;
}

/** What this relay knows of another origin. */
interface Known {
  /** The last message number delivered (or passed over). */
  n: number;
  /** When its head was last listed. */
  listedAt: number;
}

interface Queued {
  channel: string;
  text: string;
  /** Bytes its item takes in an entry's JSON (`itemBytes()`). */
  bytes: number;
  done: { resolve(): void; reject(error: unknown): void };
}

/**
 * Bytes the item of a message takes in an entry's JSON, with the comma before it. A message whose
 * item takes more than `INLINE_BYTES` (the store's own line for a value kept inline) is written as
 * chunks; below it, messages share an entry up to that many bytes in all (Deno KV holds at most
 * 64 KiB a value). Bytes, not characters: a character of Chinese or Japanese text takes three.
 */
function itemBytes(channel: string, text: string): number {
  return utf8Length(JSON.stringify(channel)) + utf8Length(JSON.stringify(text)) + 12;
}

/**
 * Carries one process's messages to the others sharing the database, and theirs to `deliver`.
 *
 * @example
 * ```ts
 * const relay = new KvRelay(kv, new KvWriter(kv, limits), limits, (c, text) => bus.publishText(c, text));
 * await relay.publish("tether:events", JSON.stringify({ n: 1 }));
 * await relay.close();
 * ```
 */
export class KvRelay {
  #handles: { kv: Kv; writer: KvWriter; alone?: () => number | null }[] = [];
  #limits: KvLimits;
  #deliver: (channel: string, text: string) => void;
  #origin = crypto.randomUUID();
  /** The number the next message published gets. */
  #next = 0;
  #queue: Queued[] = [];
  #writing = false;
  /** Messages committed before this relay started are not delivered. */
  #since = Date.now();
  #origins = new Map<string, Known>();
  #lastActivity = 0;
  /** The holds (`#heldAs()`) during which the heads were last read, or null. */
  #readDuring: string | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #polling: Promise<void> | null = null;
  #closed = false;

  /**
   * `deliver` receives every message another process published, with its channel. `writer` is
   * the write queue of `kv`'s store: the relay's commits join its groups.
   */
  constructor(
    kv: Kv,
    writer: KvWriter,
    limits: KvLimits,
    deliver: (channel: string, text: string) => void,
  ) {
    this.#handles.push({ kv, writer });
    this.#limits = limits;
    this.#deliver = deliver;
    this.#schedule(0);
  }

  /** Another handle on the same database (and its store's write queue), used once the first one closes. */
  add(kv: Kv, writer: KvWriter): void {
    this.#handles.push({ kv, writer });
  }

  /**
   * Tells the relay how to know that `kv`'s store holds the database alone now
   * (`_denokv_sole.ts`): `alone` answers the number of the hold, or null when it is not held.
   * While every handle's store holds it, nobody else is there to read a message, so none is
   * written, and nobody else commits one, so none is read past the first read in the hold.
   */
  alone(kv: Kv, alone: () => number | null): void {
    const handle = this.#handles.find((h) => h.kv === kv);
    if (handle) handle.alone = alone;
  }

  /** Stops using a handle that is about to close; false when none is left. */
  drop(kv: Kv): boolean {
    this.#handles = this.#handles.filter((h) => h.kv !== kv);
    return this.#handles.length > 0;
  }

  /** Commits a message for the other processes; resolves once it is in the database. */
  publish(channel: string, text: string): Promise<void> {
    this.#lastActivity = Date.now();
    if (this.#handles.length && this.#handles.every((h) => (h.alone?.() ?? null) !== null)) {
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({
        channel,
        text,
        bytes: itemBytes(channel, text),
        done: { resolve, reject },
      });
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
    return this.#handles[0]?.kv;
  }

  /** The holds of every handle's store, while each holds the database alone; else null. */
  #heldAs(): string | null {
    if (!this.#handles.length) return null;
    const holds = this.#handles.map((h) => h.alone?.() ?? null);
    return holds.every((n) => n !== null) ? holds.join(",") : null;
  }

  async #write(): Promise<void> {
    this.#writing = true;
    try {
      while (this.#queue.length) {
        let bytes = 0;
        let count = 0;
        while (count < Math.min(PER_COMMIT, this.#queue.length)) {
          const size = this.#queue[count].bytes;
          const inline = size > INLINE_BYTES ? 0 : size;
          if (count > 0 && bytes + inline > COMMIT_BYTES) break;
          bytes += inline;
          count++;
        }
        const batch = this.#queue.splice(0, count);
        try {
          const stored = await this.#pack(batch);
          // Numbered before the commit: a commit that failed after all leaves a gap, never a reuse.
          const first = this.#next;
          this.#next += stored.length;
          // Through the store's write queue: under load the relay's keys ride in the commits of
          // the turns' own writes instead of paying a commit (a sync to disk) of their own.
          const a = Date.now();
          const head: Head = { n: first + stored.length - 1, a };
          await this.#handles[0].writer.raw([
            ...stored.map((l, i) => ({
              key: [...MESSAGES, this.#origin, first + i],
              value: jsonBytes({ l, a } satisfies Stored),
              expireIn: RELAY_KEEP_MS,
            })),
            { key: [...HEADS, this.#origin], value: jsonBytes(head), expireIn: RELAY_KEEP_MS },
          ]);
          for (const q of batch) q.done.resolve();
        } catch (error) {
          for (const q of batch) q.done.reject(error);
        }
      }
    } finally {
      this.#writing = false;
    }
  }

  /** The messages of one commit as entries: small ones together, a large one as chunks alone. */
  async #pack(batch: Queued[]): Promise<Item[][]> {
    const entries: Item[][] = [];
    let open: Item[] | null = null;
    let bytes = 0;
    for (const q of batch) {
      if (q.bytes > INLINE_BYTES) {
        const m = await writeChunks(this.#kv, this.#limits, q.text, RELAY_KEEP_MS);
        entries.push([{ c: q.channel, m }]);
        open = null;
        continue;
      }
      if (open === null || bytes + q.bytes > INLINE_BYTES) {
        entries.push(open = []);
        bytes = 0;
      }
      open.push({ c: q.channel, t: q.text });
      bytes += q.bytes;
    }
    return entries;
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
    // Held alone since the last read began: what others committed came before that read.
    const held = this.#heldAs();
    if (held !== null && held === this.#readDuring) return;
    this.#readDuring = null;
    const now = Date.now();
    const moved: [string, Known][] = [];
    const heads = new Map<string, number>();
    for await (const entry of kv.list({ prefix: [...HEADS] }, { batchSize: 100 })) {
      const origin = entry.key[2];
      const head = fromJsonBytes<Head>(entry.value);
      if (origin === this.#origin || typeof origin !== "string" || typeof head?.n !== "number") {
        continue;
      }
      heads.set(origin, head.n);
      let known = this.#origins.get(origin);
      if (known === undefined) {
        // First seen: what it committed before this relay started is not ours to see.
        known = { n: head.a < this.#since ? head.n : -1, listedAt: now };
        this.#origins.set(origin, known);
        if (known.n === -1) moved.push([origin, known]);
      } else {
        known.listedAt = now;
        if (head.n > known.n) moved.push([origin, known]);
      }
    }
    for (const [origin, known] of moved) {
      if (this.#closed) return;
      await (known.n === -1
        ? this.#catchUp(kv, origin, known, heads.get(origin)!)
        : this.#read(kv, origin, known));
    }
    for (const [origin, known] of this.#origins) {
      if (now - known.listedAt > FORGET_MS) this.#origins.delete(origin);
    }
    this.#readDuring = held;
  }

  /** Delivers an origin's messages after the last one delivered, in order. */
  async #read(kv: Kv, origin: string, known: Known): Promise<void> {
    const prefix = [...MESSAGES, origin];
    for await (
      const entry of kv.list({ prefix, start: [...prefix, known.n + 1] }, { batchSize: 200 })
    ) {
      if (this.#closed) return;
      known.n = Math.max(known.n, entry.key[3] as number);
      // Listed after its head moved past what this relay had seen: committed since it started.
      await this.#hand(kv, fromJsonBytes<Stored>(entry.value));
    }
  }

  /**
   * An origin seen for the first time that committed since this relay started: its messages
   * from then on, found walking back from its newest (it may have written many before).
   */
  async #catchUp(kv: Kv, origin: string, known: Known, head: number): Promise<void> {
    const found: Stored[] = [];
    for await (
      const entry of kv.list({ prefix: [...MESSAGES, origin] }, { reverse: true, batchSize: 200 })
    ) {
      const value = fromJsonBytes<Stored>(entry.value);
      if (!value || !(value.a >= this.#since)) break;
      known.n = Math.max(known.n, entry.key[3] as number);
      found.push(value);
    }
    known.n = Math.max(known.n, head);
    for (const value of found.reverse()) {
      if (this.#closed) return;
      await this.#hand(kv, value);
    }
  }

  async #hand(kv: Kv, value: Stored | null): Promise<void> {
    // Deno KV removes expired keys only eventually; an expired message is for the event log.
    if (!value || typeof value.a !== "number" || value.a + RELAY_KEEP_MS < Date.now()) return;
    this.#lastActivity = Date.now();
    for (const item of "l" in value ? (Array.isArray(value.l) ? value.l : []) : [value]) {
      if (typeof item?.c !== "string") continue;
      const text = item.t ?? (item.m ? await readChunks(kv, item.m) : undefined);
      if (typeof text === "string") this.#deliver(item.c, text);
    }
  }
}
