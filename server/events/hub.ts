/**
 * The one event stream of every session. Every transport (Socket.IO, SSE,
 * AG-UI) subscribes here, so none can drift from another. Each event gets the
 * session's next sequence number and is kept in a bounded log in the store,
 * so a client that reconnects can resume where it left off.
 *
 * With a store shared by several processes (one that declares
 * `capabilities.shared`: Redis, Postgres, a Deno KV file), events also
 * travel through the store's publish/subscribe, so a client attached to one
 * process sees the turns another process runs. Only the process holding a
 * session's lease publishes its events, and it takes the next sequence number
 * from the shared log when it takes the lease (`resync`). While no other
 * process can write the store (`Store.alone()`: a Deno KV file this process
 * holds alone) nobody is there to read them, so none goes through the store:
 * another process's store opens on the file only once this one has yielded it,
 * and its clients read what came before from the log.
 *
 * On a durable store an event reaches no client before it is in the log:
 * events are written in batches (those published while a write runs go out
 * together in one commit), and each batch is delivered, here and to other
 * processes, once its commit returns. So whatever a client received, a replay
 * after a crash holds too; delivery lags by one commit. A write that fails is
 * delivered all the same (a store refusing writes loses replay, never the
 * live stream). The memory store dies with its process, so it delivers at once.
 *
 * A number reaches a client only once it is safe after a crash: the hub
 * reserves numbers in blocks of {@linkcode SEQ_BLOCK} with one durable write
 * (`["event_seq_reserved", id]`) before handing any of them out, and a process
 * that (re)loads a session continues after the highest reservation. A crash
 * leaves a gap in the numbers, never a number used twice. A store that is not
 * `capabilities.durable` (memory) dies with its process, so it reserves nothing.
 *
 * Every number logged under reservations is at most the session's reservation
 * (or its kept `event_seq`), so loading a session needs no look at its log.
 * A store may still hold logs written before reservations existed: the first
 * hub on a durable store writes `["event_log", "reserved"]` only when the
 * store holds no event at all, and without that marker each session's log is
 * read as before.
 *
 * Deleting a session keeps its last number for a week, so a session
 * re-created under the same id continues it: on a durable store as the
 * session's reservation (so loading a session reads one key), on memory as
 * `["event_seq", id]`. Earlier versions kept it as `["event_seq", id]` on
 * every store; the first hub writes `["event_log", "kept_in_reservation"]`
 * only when the store holds no such key, and without that marker both keys
 * are read.
 *
 * @module
 */
import type { ServerEvent, ServerEvents, Unsequenced } from "../../protocol/mod.ts";
import { BoundedMap } from "../bounded_map.ts";
import type { LeaseClosing } from "../kv/lease.ts";
import type { Mutation, Store } from "../kv/store.ts";
import type { EventStamp } from "./stamp.ts";

/**
 * One published event: the Socket.IO event name and its payload (with `seq`), typed by the
 * protocol's schemas (`SERVER_EVENT_SCHEMAS`: narrowing on `event` types the payload), and the
 * owner and generation it was published under (`stamp.ts`; never sent to clients).
 */
export type SessionEvent = ServerEvent & { stamp?: EventStamp };

/** Receives a session's events in order. */
export type EventListener = (event: SessionEvent) => void;

/** An event to publish: a name and its payload without `seq`, paired by the protocol's types. */
export type Publication = {
  [E in keyof ServerEvents]: { event: E; payload: Unsequenced<E> };
}[keyof ServerEvents];

/** The store channel events cross processes on. */
export const EVENTS_CHANNEL = "tether:events";

interface Wire {
  origin: string;
  session: string;
  event?: SessionEvent;
  /** The session was deleted: its followers in every process are closed. */
  forgotten?: true;
}

const pad = (seq: number) => seq.toString().padStart(12, "0");

/**
 * Sessions whose numbering a hub keeps in memory (idle ones; a session something waits on is
 * always kept). Past this the older half of them is dropped, and a dropped session is loaded
 * again when it next publishes, so memory stays bounded however many sessions a process serves.
 */
export const KEPT_SESSIONS = 10_000;

/** Events read per page when looking back for a running turn's start (`turnStart`). */
const TURN_START_PAGE = 200;

/** Event numbers reserved per durable write: one store commit per this many events. */
export const SEQ_BLOCK = 64;

const reservedKey = (sessionId: string) => ["event_seq_reserved", sessionId];
/** Present when every logged number in the store is covered by a reservation. */
const MARKER = ["event_log", "reserved"];
/** Present when a deleted session's last number is kept as its reservation, never as `event_seq`. */
const KEPT_MARKER = ["event_log", "kept_in_reservation"];
/** How long the last number of a deleted session is kept. */
const KEEP_MS = 7 * 24 * 3600_000;

/**
 * Publishes, logs and fans out session events.
 *
 * @example
 * ```ts
 * const hub = new EventHub(store, 1000);
 * const stop = hub.subscribe("s1", (e) => console.log(e.event, e.payload.seq));
 * await hub.publish("s1", "assistant:status", { type: "agent_status", status: "started" });
 * stop();
 * ```
 */
export class EventHub {
  #store: Store;
  #logSize: number;
  #origin = crypto.randomUUID();
  #shared: boolean;
  #listeners = new Map<string, Set<EventListener>>();
  #closers = new Map<string, Set<() => void>>();
  #seq: BoundedMap<string, Promise<number>>;
  // The highest number this process reserved durably, per session.
  #reserved = new Map<string, number>();
  // The last number this process handed out, per session (survives `resync`).
  #used = new Map<string, number>();
  #durable: boolean;
  #pending = new Map<string, SessionEvent[]>();
  #writes = new Map<string, Promise<void>>();
  #sends = new Map<string, Promise<void>>();
  #unsubscribe: (() => Promise<void>) | null = null;
  #covered: Promise<boolean> | null = null;
  /** Numberings not settled yet, per session: such a session is never dropped. */
  #busy = new Map<string, number>();
  #kept: Promise<boolean> | null = null;
  /** The last number delivered to this process's listeners, per session that has listeners. */
  #delivered = new Map<string, number>();
  /**
   * Per session with listeners but no live delivery yet: the lowest number a follower went
   * live at, having everything up to it from the log (`following()`).
   */
  #followed = new Map<string, number>();

  /**
   * `shared`: the store is shared with other processes, so events are published through it too.
   * `keep`: how many sessions' numbering is kept in memory (see {@linkcode KEPT_SESSIONS}).
   */
  constructor(store: Store, logSize: number, shared = false, keep = KEPT_SESSIONS) {
    this.#store = store;
    this.#logSize = logSize;
    this.#shared = shared;
    this.#durable = store.capabilities.durable;
    this.#seq = new BoundedMap(keep, {
      pinned: (id) =>
        this.#busy.has(id) || this.#listeners.has(id) || this.#pending.has(id) ||
        this.#writes.has(id) || this.#sends.has(id),
      dropped: (id) => {
        this.#reserved.delete(id);
        this.#used.delete(id);
      },
    });
  }

  /** How many sessions' numbering this hub keeps in memory now. */
  get keptSessions(): number {
    return this.#seq.size;
  }

  /** Starts receiving other processes' events (shared stores only). */
  async start(): Promise<void> {
    if (!this.#shared || this.#unsubscribe) return;
    this.#unsubscribe = await this.#store.subscribe(EVENTS_CHANNEL, (message) => {
      const wire = message as Wire;
      if (!wire || wire.origin === this.#origin) return;
      if (wire.forgotten) return this.#close(wire.session);
      if (!wire.event) return;
      // Another process's event only ever raises the numbering: one that arrives late (a store
      // whose messages travel by polling, such as Deno KV's) after this process took the session
      // over and numbered past it must not set the next number back to a used one.
      const seq = wire.event.payload.seq;
      const known = this.#seq.get(wire.session);
      this.#keepSeq(
        wire.session,
        known ? known.then((n) => Math.max(n, seq), () => seq) : Promise.resolve(seq),
      );
      this.#deliver(wire.session, wire.event);
    });
  }

  /** Stops receiving other processes' events and waits for every log write. */
  async stop(): Promise<void> {
    await Promise.all([...this.#writes.values(), ...this.#sends.values()]);
    await this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  /**
   * Publishes an event: numbers it, delivers it to local subscribers, appends it to the log.
   * `stamp` names the session's owner and generation (see `stamp.ts`).
   */
  async publish<E extends keyof ServerEvents>(
    sessionId: string,
    event: E,
    payload: Unsequenced<E>,
    stamp?: EventStamp,
  ): Promise<SessionEvent> {
    const [full] = await this.publishAll(sessionId, [{ event, payload } as Publication], stamp);
    return full;
  }

  /**
   * Publishes events that belong together (a turn's answer and its end) under consecutive
   * numbers, in one batch of the log: on a durable store one commit holds all of them and they
   * are delivered together once it returns, so a crash never leaves a client, or a replay, with
   * the first and not the rest.
   */
  async publishAll(
    sessionId: string,
    events: readonly Publication[],
    stamp?: EventStamp,
  ): Promise<SessionEvent[]> {
    const last = await this.#next(sessionId, events.length);
    const first = last - events.length + 1;
    // The one place a payload gets its number; TypeScript cannot pair a generic name with its
    // member of the union, so the pairing the signature checked is restated here.
    const fulls = events.map(({ event, payload }, i) =>
      ({
        event,
        payload: { ...payload, seq: first + i },
        ...(stamp ? { stamp } : {}),
      }) as unknown as SessionEvent
    );
    for (const full of fulls) {
      // Durable stores deliver once the event's batch is logged (see the module doc).
      if (!this.#durable) this.#send(sessionId, full);
      // Queued in the same task: they join one batch (see `#append`).
      this.#append(sessionId, full);
    }
    return fulls;
  }

  /** Delivers an event to local subscribers and, on a shared store, to other processes. */
  #send(sessionId: string, full: SessionEvent): void {
    this.#deliver(sessionId, full);
    // A store no other process writes now (`Store.alone()`) has nobody to carry the event to.
    if (!this.#shared || this.#store.alone() !== null) return;
    const wire: Wire = { origin: this.#origin, session: sessionId, event: full };
    // One publish at a time per session: a pooled store (Postgres) would otherwise reorder them.
    const sent = (this.#sends.get(sessionId) ?? Promise.resolve())
      .then(() => this.#store.publish(EVENTS_CHANNEL, wire))
      .catch(() => {
        // Other processes' clients can still resume from the log.
      });
    this.#sends.set(sessionId, sent);
    sent.then(() => {
      if (this.#sends.get(sessionId) === sent) this.#sends.delete(sessionId);
    });
  }

  /**
   * Subscribes to a session's live events; returns the unsubscribe function. `closed` runs
   * once if the session is deleted (in any process sharing the store) while subscribed.
   */
  subscribe(sessionId: string, listener: EventListener, closed?: () => void): () => void {
    let set = this.#listeners.get(sessionId);
    if (!set) this.#listeners.set(sessionId, set = new Set());
    set.add(listener);
    let closers = this.#closers.get(sessionId);
    if (closed) {
      if (!closers) this.#closers.set(sessionId, closers = new Set());
      closers.add(closed);
    }
    return () => {
      set!.delete(listener);
      if (!set!.size && this.#listeners.get(sessionId) === set) {
        this.#listeners.delete(sessionId);
        this.#delivered.delete(sessionId);
        this.#followed.delete(sessionId);
      }
      if (!closed || !closers) return;
      closers.delete(closed);
      if (!closers.size && this.#closers.get(sessionId) === closers) {
        this.#closers.delete(sessionId);
      }
    };
  }

  /** The logged events after `after`, in order (waits for this process's log writes first). */
  async replay(sessionId: string, after: number): Promise<SessionEvent[]> {
    await this.flush(sessionId);
    const entries = await this.#store.list<SessionEvent>(["event", sessionId], {
      after: pad(after),
    });
    return entries.map((e) => e.value);
  }

  /**
   * The number just before the latest turn's `started` event, when no `completed` follows it
   * (the turn has not ended); undefined when the log's latest status is `completed`, or the log
   * is empty. A follower that arrives during a turn starts there, so it sees the turn whole.
   * The log is read backwards a page at a time, at most its whole window (a long answer is one
   * event per piece of text). A turn longer than the window has lost its `started` event to the
   * trim: the follower then starts just before the oldest event kept, all of them the turn's.
   */
  async turnStart(sessionId: string): Promise<number | undefined> {
    await this.flush(sessionId);
    let before: string | undefined;
    let oldest: number | undefined;
    for (let read = 0; read < this.#logSize; read += TURN_START_PAGE) {
      const page = await this.#store.list<SessionEvent>(["event", sessionId], {
        reverse: true,
        limit: TURN_START_PAGE,
        ...(before === undefined ? {} : { after: before }),
      });
      for (const { value } of page) {
        if (value.event === "assistant:status") {
          return value.payload.status === "started" ? value.payload.seq - 1 : undefined;
        }
        oldest = value.payload.seq;
      }
      if (page.length < TURN_START_PAGE) break;
      before = page[page.length - 1].key[2];
    }
    return oldest === undefined ? undefined : oldest - 1;
  }

  /** The last sequence number used in a session (0 when none). */
  lastSeq(sessionId: string): Promise<number> {
    return this.#seq.get(sessionId) ?? this.#loadSeq(sessionId);
  }

  /**
   * The write that hands the unused rest of this process's block back, for the commit that
   * releases the session's lease to carry (so the next holder continues without a gap; a crash
   * still leaves one, never a reuse); null when there is nothing to hand back.
   */
  release(sessionId: string): LeaseClosing | null {
    const used = this.#used.get(sessionId);
    const mine = this.#reserved.get(sessionId);
    if (!this.#durable || used === undefined || mine === undefined || mine <= used) return null;
    return {
      // Only the next holder reads it (`Mutation.forOthers`): a store alone on its database may
      // keep it in memory, and after a crash there the next load continues after the whole
      // block, a gap and never a reuse.
      mutations: [{ key: reservedKey(sessionId), value: used, forOthers: true }],
      committed: (ok) => {
        if (ok && this.#reserved.get(sessionId) === mine) this.#reserved.set(sessionId, used);
      },
    };
  }

  /** Forgets the cached sequence number, so the next event continues from the shared log. */
  resync(sessionId: string): void {
    this.#seq.delete(sessionId);
  }

  /**
   * Called when this process takes a session over (its lease): delivers to this process's
   * listeners the events another process logged that have not reached them through the store
   * yet (a store whose messages travel by polling, such as Deno KV's, lags a little), so they
   * come before this process's own. Later copies of them are dropped as repeats.
   */
  async catchUp(sessionId: string): Promise<void> {
    const last = this.#delivered.get(sessionId) ?? this.#followed.get(sessionId);
    if (!this.#shared || last === undefined) return;
    for (const event of await this.replay(sessionId, last)) this.#deliver(sessionId, event);
  }

  /**
   * A follower goes live having every event up to `seq` (from the log). While no live event has
   * reached this process's listeners, {@linkcode catchUp} starts after the lowest such number.
   * (Without it, a follower that came from the log and met no live event before this process
   * took the session over was handed none of the events the other process logged meanwhile.)
   * It is not taken as delivered: another listener may lack what this follower read, so the
   * late copies still reach everyone, and each follower drops what it has.
   */
  following(sessionId: string, seq: number): void {
    if (!this.#listeners.has(sessionId) || this.#delivered.has(sessionId)) return;
    const known = this.#followed.get(sessionId);
    if (known === undefined || seq < known) this.#followed.set(sessionId, seq);
  }

  /** Waits until every logged event of a session is written. */
  async flush(sessionId: string): Promise<void> {
    while (this.#writes.has(sessionId) || this.#sends.has(sessionId)) {
      await Promise.all([this.#writes.get(sessionId), this.#sends.get(sessionId)]);
    }
  }

  /**
   * Forgets a session's log. The last sequence number is kept for a week, so
   * a session re-created under the same id continues the numbering and
   * clients still attached do not drop its events as repeats.
   */
  async forget(sessionId: string): Promise<void> {
    await this.flush(sessionId);
    this.#close(sessionId);
    if (this.#shared) {
      const wire: Wire = { origin: this.#origin, session: sessionId, forgotten: true };
      // Best effort: a follower elsewhere that misses it still refuses the next owner's events.
      await this.#store.publish(EVENTS_CHANNEL, wire).catch(() => {});
    }
    // Numbers reserved but never used count too: a client may hold none of them, but a crash
    // before this point could have.
    const last = Math.max(await this.lastSeq(sessionId), this.#reserved.get(sessionId) ?? 0);
    this.#seq.delete(sessionId);
    this.#reserved.delete(sessionId);
    this.#used.delete(sessionId);
    // A durable store keeps the number as the session's reservation (one key to read at load).
    const kept = this.#durable ? reservedKey(sessionId) : ["event_seq", sessionId];
    await this.#store.set(kept, last, { expireIn: KEEP_MS });
    const entries = await this.#store.list(["event", sessionId]);
    await Promise.all(entries.map((e) => this.#store.delete(e.key)));
  }

  /** Closes a deleted session's followers: each `closed` callback runs once, then none is kept. */
  #close(sessionId: string): void {
    const closers = this.#closers.get(sessionId);
    this.#closers.delete(sessionId);
    this.#listeners.delete(sessionId);
    this.#delivered.delete(sessionId);
    this.#followed.delete(sessionId);
    for (const closed of closers ?? []) {
      try {
        closed();
      } catch {
        // One failing follower must not keep the others open.
      }
    }
  }

  #deliver(sessionId: string, event: SessionEvent): void {
    const listeners = this.#listeners.get(sessionId);
    if (listeners === undefined) return;
    // Numbers only grow: one at or below the last delivered is a repeat (see `catchUp`).
    if (event.payload.seq <= (this.#delivered.get(sessionId) ?? 0)) return;
    this.#delivered.set(sessionId, event.payload.seq);
    this.#followed.delete(sessionId);
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A failing subscriber must not break the turn or the other subscribers.
      }
    }
  }

  /**
   * Loads a session's numbering now, before its first event, so a turn about to start need not
   * wait for that on the way to the event (durable stores only). The turn's first commit
   * carries the next block of numbers when one is due (`reservation()`).
   */
  prepare(sessionId: string): void {
    if (!this.#durable || this.#seq.has(sessionId)) return;
    const ready = this.#loadSeq(sessionId);
    this.#keepSeq(sessionId, ready);
    // A failure reaches the first event that waits for it; the next load starts afresh.
    ready.catch(() => {
      if (this.#seq.get(sessionId) === ready) this.#seq.delete(sessionId);
    });
  }

  /**
   * The write that reserves a session's next block, for the first commit of a turn to carry
   * (one write and no round trip of its own), and what to call once that commit succeeded; null
   * on a memory store, or when the block reserved already has room for a turn's events (half a
   * block). Until the commit succeeded the block counts as not reserved, so an event numbered
   * before it reserves it itself.
   */
  async reservation(sessionId: string): Promise<{ mutation: Mutation; committed(): void } | null> {
    if (!this.#durable) return null;
    // Loaded once for the commit and the events after it alike.
    this.prepare(sessionId);
    const n = await this.#seq.get(sessionId)!;
    const reserved = this.#reserved.get(sessionId) ?? 0;
    if (reserved >= n + SEQ_BLOCK / 2) return null;
    const limit = Math.max(n + SEQ_BLOCK, reserved);
    return {
      mutation: { key: reservedKey(sessionId), value: limit },
      committed: () => {
        if (limit > (this.#reserved.get(sessionId) ?? 0)) this.#reserved.set(sessionId, limit);
      },
    };
  }

  /** Makes `seq` durable before any client sees it: a restart continues after the whole block. */
  async #reserve(sessionId: string, seq: number): Promise<void> {
    if (!this.#durable || seq <= (this.#reserved.get(sessionId) ?? 0)) return;
    const limit = seq + SEQ_BLOCK - 1;
    await this.#store.set(reservedKey(sessionId), limit);
    this.#reserved.set(sessionId, limit);
  }

  /**
   * Records a session's numbering as its most recent. Past `keep` sessions the least recently
   * used ones that nothing waits on (no numbering in progress, no listener, no log write or
   * publish pending) are dropped, a generation at a time (`BoundedMap`). A dropped session is
   * loaded again from the store at its next event (on a durable store after its reservation,
   * so its numbers may jump, never repeat).
   */
  #keepSeq(sessionId: string, seq: Promise<number>): void {
    this.#seq.set(sessionId, seq);
    this.#busy.set(sessionId, (this.#busy.get(sessionId) ?? 0) + 1);
    const settled = () => {
      const left = this.#busy.get(sessionId)! - 1;
      if (left) this.#busy.set(sessionId, left);
      else this.#busy.delete(sessionId);
    };
    seq.then(settled, settled);
  }

  /** Hands out the session's next `count` numbers; resolves with the last of them. */
  #next(sessionId: string, count = 1): Promise<number> {
    const next = (this.#seq.get(sessionId) ?? this.#loadSeq(sessionId)).then(async (n) => {
      const seq = n + count;
      await this.#reserve(sessionId, seq);
      this.#used.set(sessionId, seq);
      return seq;
    });
    this.#keepSeq(sessionId, next);
    return next;
  }

  /** Whether no `["event_seq", id]` of an earlier version can be in the store (see the module doc). */
  async #keptInReservations(): Promise<boolean> {
    if (await this.#store.get(KEPT_MARKER)) return true;
    if ((await this.#store.list(["event_seq"], { limit: 1 })).length) return false;
    await this.#store.set(KEPT_MARKER, true);
    return true;
  }

  /** Whether every logged number is covered by a reservation (see the module doc). */
  async #logCovered(): Promise<boolean> {
    if (await this.#store.get(MARKER)) return true;
    if ((await this.#store.list(["event"], { limit: 1 })).length) return false;
    // Nothing is logged yet, so every number logged from now on is reserved first.
    await this.#store.set(MARKER, true);
    return true;
  }

  async #loadSeq(sessionId: string): Promise<number> {
    const covered = this.#durable &&
      await (this.#covered ??= this.#logCovered().catch(() => (this.#covered = null, false)));
    const keptInReservation = this.#durable &&
      await (this.#kept ??= this.#keptInReservations().catch(() => (this.#kept = null, false)));
    const [last, kept, reserved] = await Promise.all([
      covered
        ? []
        : this.#store.list<SessionEvent>(["event", sessionId], { reverse: true, limit: 1 }),
      keptInReservation ? null : this.#store.get<number>(["event_seq", sessionId]),
      this.#durable ? this.#store.get<number>(reservedKey(sessionId)) : null,
    ]);
    const logged = Math.max(last[0]?.value.payload.seq ?? 0, kept?.value ?? 0);
    const mine = this.#reserved.get(sessionId);
    const used = this.#used.get(sessionId);
    // Our own block, untouched by any other process since: keep numbering inside it.
    if (mine !== undefined && used !== undefined && reserved?.value === mine) {
      return Math.max(logged, used);
    }
    this.#reserved.delete(sessionId);
    return Math.max(logged, reserved?.value ?? 0);
  }

  /** Queues an event for the log; events queued while a write runs go out together in one commit. */
  #append(sessionId: string, event: SessionEvent): void {
    let queue = this.#pending.get(sessionId);
    if (queue) {
      queue.push(event);
      return;
    }
    this.#pending.set(sessionId, queue = [event]);
    const previous = this.#writes.get(sessionId) ?? Promise.resolve();
    const write = previous.then(() => this.#write(sessionId)).catch(() => {
      // The log is best effort: a lost entry only shortens what a reconnect can replay.
    });
    this.#writes.set(sessionId, write);
    write.then(() => {
      if (this.#writes.get(sessionId) === write) this.#writes.delete(sessionId);
    });
  }

  async #write(sessionId: string): Promise<void> {
    const batch = this.#pending.get(sessionId) ?? [];
    this.#pending.delete(sessionId);
    const first = batch[0]?.payload.seq ?? 0;
    const last = batch.at(-1)?.payload.seq ?? 0;
    // The numbers this batch pushes out of the log's window go in its own commit: the entries
    // of (first - 1 - size, last - size] before the batch, found by number, so trimming reads
    // nothing. The batch's own events already out of the window are not written at all (written
    // in one of its later commits, they would outlive the delete of the first).
    const oldest = last - this.#logSize;
    const stale: Mutation[] = [];
    for (let n = Math.max(1, first - this.#logSize); n <= Math.min(oldest, first - 1); n++) {
      stale.push({ key: ["event", sessionId, pad(n)] });
    }
    const kept = oldest >= first ? batch.filter((e) => e.payload.seq > oldest) : batch;
    try {
      for (let i = 0; i < kept.length; i += 100) {
        const mutations: Mutation[] = kept.slice(i, i + 100).map((e) => ({
          key: ["event", sessionId, pad(e.payload.seq)],
          value: e,
          // No number is handed out twice (see the module doc), so no log key is written twice.
          fresh: true,
        }));
        await this.#store.atomic([], i === 0 ? mutations.concat(stale) : mutations);
      }
    } finally {
      // Logged (or refused by the store, see the module doc): now clients may have them.
      if (this.#durable) { for (const e of batch) this.#send(sessionId, e); }
    }
    // Entries older than the window that no batch's range reached (a process that stopped
    // before trimming, a log from before this rule) are swept now and then: one look at the
    // oldest entry every 50 numbers.
    if (oldest > 0 && Math.floor(last / 50) !== Math.floor((first - 1) / 50)) {
      const [head] = await this.#store.list<SessionEvent>(["event", sessionId], { limit: 1 });
      if (head && head.key[2] <= pad(oldest)) {
        const old = await this.#store.list(["event", sessionId], { limit: 100 });
        await Promise.all(
          old.filter((e) => e.key[2] <= pad(oldest)).map((e) => this.#store.delete(e.key)),
        );
      }
    }
  }
}
