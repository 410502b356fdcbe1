/**
 * Resuming a session's stream without a gap or a repeat: subscribe first and
 * buffer, replay the log, deliver the buffer past what the replay covered,
 * then switch to live delivery in the same synchronous step. Because the hub
 * calls its listeners synchronously inside `publish`, no event can slip in
 * between the last buffered event and the switch.
 *
 * @module
 */
import type { EventHub, SessionEvent } from "./hub.ts";

/** Whether the first buffered event after `last` leaves a hole after `last`. */
function hasGap(buffer: SessionEvent[], last: number): boolean {
  const next = buffer.find((e) => e.payload.seq > last);
  return next !== undefined && next.payload.seq > last + 1;
}

/**
 * Where a resumed stream goes: `deliver` during catch-up, then `live()` hands over.
 *
 * @example
 * ```ts
 * const target: CatchUpTarget = { deliver: (e) => send(e), live: () => socket.join("session:s1") };
 * ```
 */
export interface CatchUpTarget {
  /** Receives each missed event in order (seq strictly increasing). */
  deliver(event: SessionEvent): void;
  /** Called synchronously right after the last missed event; from here on, live delivery takes over. */
  live(lastSeq: number): void;
}

/**
 * Delivers every logged and buffered event after `after`, then calls `target.live`.
 * Resolves with the last sequence number delivered (or `after` when nothing was missed).
 *
 * @example
 * ```ts
 * await catchUp(engine.hub, "s1", 12, {
 *   deliver: (e) => socket.emit(e.event, e.payload),
 *   live: () => socket.join("session:s1"),
 * });
 * ```
 */
export async function catchUp(
  hub: EventHub,
  sessionId: string,
  after: number,
  target: CatchUpTarget,
): Promise<number> {
  const buffer: SessionEvent[] = [];
  const stop = hub.subscribe(sessionId, (event) => buffer.push(event));
  try {
    let last = after;
    const send = (event: SessionEvent) => {
      if (event.payload.seq <= last) return;
      last = event.payload.seq;
      target.deliver(event);
    };
    for (const event of await hub.replay(sessionId, after)) send(event);
    // Another process may still be writing events published before we subscribed:
    // a hole before the first buffered event is filled from the log once it lands.
    for (let wait = 5; wait <= 320 && hasGap(buffer, last); wait *= 2) {
      await new Promise((r) => setTimeout(r, wait));
      for (const event of await hub.replay(sessionId, last)) send(event);
    }
    // From here to `live()` there is no await: the hub cannot publish in between.
    for (const event of buffer) send(event);
    target.live(last);
    // Once live: a takeover by this process hands over from here what reached nobody here.
    hub.following(sessionId, last);
    return last;
  } finally {
    stop();
  }
}

/**
 * Follows a session from `after` (replay, then live) and returns the function that stops it.
 * With `after` undefined it follows live events only. `closed` runs if the
 * session is deleted while followed (see `EventHub.subscribe`).
 *
 * @example
 * ```ts
 * const stop = await follow(engine.hub, "s1", 0, (e) => console.log(e.event, e.payload.seq));
 * stop();
 * ```
 */
export async function follow(
  hub: EventHub,
  sessionId: string,
  after: number | undefined,
  listener: (event: SessionEvent) => void,
  closed?: () => void,
): Promise<() => void> {
  if (after === undefined) return hub.subscribe(sessionId, listener, closed);
  let stop: () => void = () => {};
  await catchUp(hub, sessionId, after, {
    deliver: listener,
    live: (lastSeq) => {
      stop = hub.subscribe(sessionId, (event) => {
        if (event.payload.seq > lastSeq) listener(event);
      }, closed);
    },
  });
  return stop;
}
