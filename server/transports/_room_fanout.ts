/**
 * Fans a session's hub events out to the Socket.IO clients attached to it.
 *
 * One hub subscription per session and process broadcasts each event once to
 * the session's room (encoded once, however many clients). A client resuming
 * with `after` is kept out of the room while it catches up from the log, and
 * joins the room in the same synchronous step as its last missed event, so it
 * gets every event exactly once. Broadcasts are process-local (`nsp.local`):
 * events cross processes through the hub, never twice through an adapter.
 *
 * @module
 */
import {
  type AssistantNamespace as Namespace,
  type AssistantSocket as Socket,
  sendEvent,
} from "./_socket_types.ts";
import { catchUp } from "../events/follow.ts";
import type { EventHub } from "../events/hub.ts";

/**
 * The Socket.IO room of a session.
 *
 * @example
 * ```ts
 * io.of("/assistant").in(sessionRoom("s1")).fetchSockets();
 * ```
 */
export const sessionRoom = (sessionId: string): string => `session:${sessionId}`;

interface Fanout {
  stop: () => void;
  members: Set<string>;
}

/**
 * Attaches sockets to sessions and keeps one hub subscription per attached session.
 *
 * @example
 * ```ts
 * const fanout = new RoomFanout(io.of("/assistant"), engine.hub);
 * await fanout.attach(socket, "s1", 12); // replays 13.., then live
 * ```
 */
export class RoomFanout {
  #nsp: Namespace;
  #hub: EventHub;
  #sessions = new Map<string, Fanout>();
  #generation = new WeakMap<Socket, Map<string, number>>();
  #counter = 0;

  constructor(nsp: Namespace, hub: EventHub) {
    this.#nsp = nsp;
    this.#hub = hub;
  }

  /** Whether a socket is attached to a session (live or catching up). */
  has(socket: Socket, sessionId: string): boolean {
    return this.#generation.get(socket)?.has(sessionId) ?? false;
  }

  /** Attaches a socket; with `after`, replays the missed events first. Resolves with the last seq replayed. */
  async attach(socket: Socket, sessionId: string, after?: number): Promise<number | undefined> {
    this.detach(socket, sessionId);
    const generation = ++this.#counter;
    let mine = this.#generation.get(socket);
    if (!mine) this.#generation.set(socket, mine = new Map());
    mine.set(sessionId, generation);
    this.#fanout(sessionId).members.add(socket.id);
    const current = () => socket.connected && mine.get(sessionId) === generation;
    if (after === undefined) {
      socket.join(sessionRoom(sessionId));
      return undefined;
    }
    return await catchUp(this.#hub, sessionId, after, {
      deliver: (event) => {
        if (current()) sendEvent(socket, event);
      },
      live: () => {
        if (current()) socket.join(sessionRoom(sessionId));
      },
    });
  }

  /** Detaches a socket from one session. */
  detach(socket: Socket, sessionId: string): void {
    this.#generation.get(socket)?.delete(sessionId);
    socket.leave(sessionRoom(sessionId));
    const fanout = this.#sessions.get(sessionId);
    if (!fanout) return;
    fanout.members.delete(socket.id);
    if (fanout.members.size === 0) {
      fanout.stop();
      this.#sessions.delete(sessionId);
    }
  }

  /** Detaches a socket from every session (on disconnect). */
  detachAll(socket: Socket): void {
    for (const sessionId of [...(this.#generation.get(socket)?.keys() ?? [])]) {
      this.detach(socket, sessionId);
    }
  }

  /** Stops every subscription. */
  close(): void {
    for (const fanout of this.#sessions.values()) fanout.stop();
    this.#sessions.clear();
  }

  #fanout(sessionId: string): Fanout {
    let fanout = this.#sessions.get(sessionId);
    if (!fanout) {
      const room = sessionRoom(sessionId);
      const stop = this.#hub.subscribe(
        sessionId,
        (event) => sendEvent(this.#nsp.local.to(room), event),
      );
      this.#sessions.set(sessionId, fanout = { stop, members: new Set() });
    }
    return fanout;
  }
}
