/**
 * The one event stream of every session. Every transport (Socket.IO, SSE,
 * AG-UI) subscribes here, so none can drift from another. Each event gets the
 * session's next sequence number and is kept in a bounded log in the store,
 * so a client that reconnects can resume where it left off.
 *
 * @module
 */
import type { Store } from "../kv/store.ts";

/** One published event: the Socket.IO event name and its payload (with `type` and `seq`). */
export interface SessionEvent {
  event: string;
  payload: Record<string, unknown> & { type: string; seq: number };
}

/** Receives a session's events in order. */
export type EventListener = (event: SessionEvent) => void;

const pad = (seq: number) => seq.toString().padStart(12, "0");

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
  #listeners = new Map<string, Set<EventListener>>();
  #seq = new Map<string, Promise<number>>();
  #writes = new Map<string, Promise<void>>();

  constructor(store: Store, logSize: number) {
    this.#store = store;
    this.#logSize = logSize;
  }

  /** Publishes an event: numbers it, delivers it to local subscribers, appends it to the log. */
  async publish(sessionId: string, event: string, payload: Record<string, unknown>): Promise<SessionEvent> {
    const seq = await this.#next(sessionId);
    const full = { event, payload: { ...payload, seq } as SessionEvent["payload"] };
    for (const listener of this.#listeners.get(sessionId) ?? []) {
      try {
        listener(full);
      } catch {
        // A failing subscriber must not break the turn or the other subscribers.
      }
    }
    this.#append(sessionId, full);
    return full;
  }

  /** Subscribes to a session's live events; returns the unsubscribe function. */
  subscribe(sessionId: string, listener: EventListener): () => void {
    let set = this.#listeners.get(sessionId);
    if (!set) this.#listeners.set(sessionId, set = new Set());
    set.add(listener);
    return () => {
      set!.delete(listener);
      if (!set!.size) this.#listeners.delete(sessionId);
    };
  }

  /** The logged events after `after`, in order (waits for pending log writes first). */
  async replay(sessionId: string, after: number): Promise<SessionEvent[]> {
    await this.#writes.get(sessionId);
    const entries = await this.#store.list<SessionEvent>(["event", sessionId], { after: pad(after) });
    return entries.map((e) => e.value);
  }

  /** The last sequence number used in a session (0 when none). */
  lastSeq(sessionId: string): Promise<number> {
    return this.#seq.get(sessionId) ?? this.#loadSeq(sessionId);
  }

  /** Waits until every logged event of a session is written. */
  async flush(sessionId: string): Promise<void> {
    await this.#writes.get(sessionId);
  }

  /** Forgets a session's counters and log. */
  async forget(sessionId: string): Promise<void> {
    await this.#writes.get(sessionId);
    this.#seq.delete(sessionId);
    const entries = await this.#store.list(["event", sessionId]);
    await Promise.all(entries.map((e) => this.#store.delete(e.key)));
  }

  #next(sessionId: string): Promise<number> {
    const next = (this.#seq.get(sessionId) ?? this.#loadSeq(sessionId)).then((n) => n + 1);
    this.#seq.set(sessionId, next);
    return next;
  }

  async #loadSeq(sessionId: string): Promise<number> {
    const last = await this.#store.list<SessionEvent>(["event", sessionId], { reverse: true, limit: 1 });
    return last[0]?.value.payload.seq ?? 0;
  }

  #append(sessionId: string, event: SessionEvent): void {
    const seq = event.payload.seq;
    const previous = this.#writes.get(sessionId) ?? Promise.resolve();
    const write = previous.then(async () => {
      await this.#store.set(["event", sessionId, pad(seq)], event);
      const old = seq - this.#logSize;
      if (old > 0 && seq % 50 === 0) {
        const stale = await this.#store.list(["event", sessionId], { limit: 50 });
        await Promise.all(stale.filter((e) => e.key[2] <= pad(old)).map((e) => this.#store.delete(e.key)));
      }
    }).catch(() => {
      // The log is best effort: a lost entry only shortens what a reconnect can replay.
    });
    this.#writes.set(sessionId, write);
    write.then(() => {
      if (this.#writes.get(sessionId) === write) this.#writes.delete(sessionId);
    });
  }
}
