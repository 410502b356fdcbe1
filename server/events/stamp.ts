/**
 * Whose an event is: every event the engine publishes carries the owner and
 * the generation of the session it belongs to (server-side only, never on the
 * wire), and every follower checks each event it is about to deliver against
 * the principal it serves and the generation it attached to. A session
 * deleted and re-created under the same id by someone else is a new
 * generation with a new owner, so a follower of the old one receives nothing
 * of the new one, whichever process publishes it and even when the deletion
 * notice never reached the follower's process.
 *
 * @module
 */
import { mayAccess, type Principal } from "../http/principal.ts";
import type { SessionRecord } from "../session/records.ts";
import type { SessionEvent } from "./hub.ts";

/**
 * The owner and generation an event is published under.
 *
 * @example
 * ```ts
 * const stamp: EventStamp = { owner: "ann", generation: "5d0c…" };
 * ```
 */
export interface EventStamp {
  owner: string;
  generation: string;
}

/**
 * The generation of a session record: made when the session was created
 * (records from before generations existed use their creation time).
 *
 * @example
 * ```ts
 * generationOf(record); // "5d0c…"
 * ```
 */
export const generationOf = (record: Pick<SessionRecord, "generation" | "created_at">): string =>
  record.generation ?? record.created_at;

/**
 * The stamp of a session's events.
 *
 * @example
 * ```ts
 * const emit = sessionEmitter(hub, "s1", stampOf(record));
 * ```
 */
export const stampOf = (record: SessionRecord): EventStamp => ({
  owner: record.owner_id,
  generation: generationOf(record),
});

/**
 * Decides, event by event, whether a follower may receive it.
 *
 * @example
 * ```ts
 * const may = viewer(principal, generationOf(record));
 * if (may(event)) send(event); else close();
 * ```
 */
export type Viewer = (event: SessionEvent) => boolean;

/**
 * A viewer for `principal`. With `generation` it accepts only that
 * generation's events; without one (a follower admitted before the session
 * existed) it takes the generation of the first event it accepts. An event
 * without a stamp is refused: every event the engine publishes has one.
 *
 * @example
 * ```ts
 * const may = viewer({ id: "ann", roles: [] });
 * ```
 */
export function viewer(principal: Principal, generation?: string): Viewer {
  let expected = generation;
  return (event) => {
    const stamp = event.stamp;
    if (!stamp || !mayAccess(principal, stamp.owner)) return false;
    expected ??= stamp.generation;
    return stamp.generation === expected;
  };
}
