/**
 * Fans a session's hub events out to the Socket.IO clients attached to it.
 *
 * One hub subscription per session and process broadcasts each event once to
 * the session's room (encoded once, however many clients). A client resuming
 * with `after` is kept out of the room while it catches up from the log, and
 * joins the room in the same synchronous step as its last missed event, so it
 * gets every event exactly once: each member's last number is kept, and a
 * broadcast leaves out the members that have its event already (a channel
 * that lags, such as Deno KV's, can bring an event after a resume read it
 * from the log). Broadcasts are process-local (`nsp.local`):
 * events cross processes through the hub, never twice through an adapter.
 *
 * Each event is checked against every member before it is broadcast (the
 * owner and generation it was published under, `events/stamp.ts`): a member
 * it is not for leaves the room first and gets nothing of it. Deleting the
 * session empties its room in every process.
 *
 * @module
 */
import {
  type AssistantNamespace as Namespace,
  type AssistantSocket as Socket,
  sendEvent,
} from "./_socket_types.ts";
import { catchUp } from "../events/follow.ts";
import type { EventHub, SessionEvent } from "../events/hub.ts";
import type { Viewer } from "../events/stamp.ts";

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
  /** `last`: the highest number the socket has (0 for one that joined live, and Infinity while it catches up). */
  members: Map<string, { socket: Socket; see: Viewer; last: number }>;
}

/**
 * Attaches sockets to sessions and keeps one hub subscription per attached session.
 *
 * @example
 * ```ts
 * const fanout = new RoomFanout(io.of("/assistant"), engine.hub);
 * await fanout.attach(socket, "s1", viewer(principal, generation), 12); // replays 13.., then live
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

  /**
   * Attaches a socket that receives the events `see` accepts; with `after`, replays the missed
   * events first. Resolves with the last seq replayed.
   */
  async attach(
    socket: Socket,
    sessionId: string,
    see: Viewer,
    after?: number,
  ): Promise<number | undefined> {
    this.detach(socket, sessionId);
    const generation = ++this.#counter;
    let mine = this.#generation.get(socket);
    if (!mine) this.#generation.set(socket, mine = new Map());
    mine.set(sessionId, generation);
    // Catching up, a member is outside the room and counts as having everything until it is live.
    const member = { socket, see, last: after === undefined ? 0 : Infinity };
    this.#fanout(sessionId).members.set(socket.id, member);
    const current = () => socket.connected && mine.get(sessionId) === generation;
    if (after === undefined) {
      socket.join(sessionRoom(sessionId));
      return undefined;
    }
    let refused = false;
    const last = await catchUp(this.#hub, sessionId, after, {
      deliver: (event) => {
        if (!current() || refused) return;
        if (see(event)) sendEvent(socket, event);
        else refused = true;
      },
      live: (lastSeq) => {
        member.last = lastSeq;
        if (current() && !refused) socket.join(sessionRoom(sessionId));
      },
    });
    if (refused && current()) this.detach(socket, sessionId);
    return last;
  }

  /** Detaches a socket from one session. */
  detach(socket: Socket, sessionId: string): void {
    this.#generation.get(socket)?.delete(sessionId);
    socket.leave(sessionRoom(sessionId));
    const fanout = this.#sessions.get(sessionId);
    if (!fanout) return;
    if (fanout.members.get(socket.id)?.socket !== socket) return;
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
      const members: Fanout["members"] = new Map();
      const stop = this.#hub.subscribe(
        sessionId,
        (event) => this.#broadcast(sessionId, members, event),
        () => this.#closed(sessionId, members),
      );
      this.#sessions.set(sessionId, fanout = { stop, members });
    }
    return fanout;
  }

  /**
   * Sends an event to the members it is for and that lack it; any member it is not for leaves
   * the room first.
   */
  #broadcast(sessionId: string, members: Fanout["members"], event: SessionEvent): void {
    const refused: string[] = [];
    const had: string[] = [];
    const seq = event.payload.seq;
    for (const [id, member] of members) {
      if (!member.see(event)) refused.push(id);
      else if (member.last >= seq) had.push(id);
      else member.last = seq;
    }
    for (const id of refused) this.detach(members.get(id)!.socket, sessionId);
    sendEvent(this.#nsp.local.to(sessionRoom(sessionId)).except([...refused, ...had]), event);
  }

  /** The session was deleted: every member leaves its room. */
  #closed(sessionId: string, members: Fanout["members"]): void {
    if (this.#sessions.get(sessionId)?.members !== members) return;
    this.#sessions.delete(sessionId);
    for (const { socket } of [...members.values()]) {
      this.#generation.get(socket)?.delete(sessionId);
      socket.leave(sessionRoom(sessionId));
    }
    members.clear();
  }
}
