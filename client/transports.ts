/**
 * The transports a host can be made with, by name: the table anything that
 * picks a transport from a string reads (the `transport` attribute of
 * `<tether-chat>`). A new transport is its file plus one line in
 * {@linkcode TRANSPORTS}, or one `registerTransport()` call from outside.
 *
 * @module
 */
import { socketIoTransport } from "./socketio_transport.ts";
import { sseTransport } from "./sse_transport.ts";
import type { TransportFactory } from "./transport.ts";

/** Makes a transport factory with a transport's defaults for a host made from a name. */
export type NamedTransport = () => TransportFactory;

/**
 * The built-in transports by name; `sse` follows every turn of the session, whoever started it.
 *
 * @example
 * ```ts
 * createHost({ runtimeUrl, transport: TRANSPORTS["socket.io"]() });
 * ```
 */
export const TRANSPORTS = {
  sse: (): TransportFactory => sseTransport({ follow: true }),
  "socket.io": (): TransportFactory => socketIoTransport(),
} satisfies Record<string, NamedTransport>;

/** The name of a built-in transport. */
export type TransportName = keyof typeof TRANSPORTS;

/** Every transport by name: the built-in ones and those registered. */
const named = new Map<string, NamedTransport>(Object.entries(TRANSPORTS));

/**
 * Adds a transport to the table under `name`; refuses a name already taken.
 *
 * @example
 * ```ts
 * registerTransport("long-poll", () => myLongPollTransport());
 * ```
 */
export function registerTransport(name: string, make: NamedTransport): void {
  if (named.has(name)) {
    throw new Error(`Transport "${name}" is already registered; pick another name.`);
  }
  named.set(name, make);
}

/**
 * The transport factory `name` stands for (`sse` when empty); throws naming the known ones
 * when the name is unknown.
 *
 * @example
 * ```ts
 * createHost({ runtimeUrl, transport: transportNamed("socket.io") });
 * ```
 */
export function transportNamed(name: string | undefined): TransportFactory {
  const wanted = name || "sse";
  const make = named.get(wanted);
  if (make === undefined) {
    const known = [...named.keys()].join(", ");
    throw new Error(`Transport "${wanted}" is unknown; use one of ${known}.`);
  }
  return make();
}
