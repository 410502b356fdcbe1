/**
 * The Socket.IO server's types: the protocol's event maps (payloads
 * inferred from `SERVER_EVENT_SCHEMAS`) and what a socket carries once
 * authenticated.
 *
 * @module
 */
import type { Namespace, Server, Socket } from "socket.io";
import type { ClientToServerEvents, ServerToClientEvents } from "../../protocol/mod.ts";
import type { SessionEvent } from "../events/hub.ts";
import type { Principal } from "../http/principal.ts";

/** What an authenticated socket carries. */
export interface SocketData {
  principal: Principal;
}

/** The Socket.IO server, typed by the protocol's events. */
export type AssistantServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<never, never>,
  SocketData
>;

/** The `/assistant` namespace. */
export type AssistantNamespace = Namespace<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<never, never>,
  SocketData
>;

/** One client's socket on `/assistant`. */
export type AssistantSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<never, never>,
  SocketData
>;

/** Anything Socket.IO can emit on: a socket, a room of the namespace. */
interface Emitter {
  emit: AssistantSocket["emit"];
}

/**
 * Sends one hub event with the name and payload the hub paired
 * (`SessionEvent`): TypeScript cannot carry that pairing through a union
 * into Socket.IO's overloads, so it is restated here, once.
 *
 * @example
 * ```ts
 * hub.subscribe(sid, (event) => sendEvent(socket, event));
 * ```
 */
export function sendEvent(target: Emitter, event: SessionEvent): void {
  (target.emit as (name: string, payload: unknown) => boolean)(event.event, event.payload);
}
