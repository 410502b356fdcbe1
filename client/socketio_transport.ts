/**
 * The Socket.IO transport: one socket on the runtime's `/assistant`
 * namespace. It reconnects by itself; on every (re)connect it joins its
 * session again with `after` = the last sequence number seen, so the runtime
 * replays exactly what was missed. `connect()` resolves once the runtime
 * acknowledged the first join, so from then on the page has every event of the
 * session, a turn another client starts included.
 *
 * The transport's code and socket.io-client itself (about 13 KB gzip) are
 * imported when the transport first connects (`_socketio.ts`), so pages on
 * the default SSE transport never download them.
 *
 * @module
 */
import type { ManagerOptions, SocketOptions } from "socket.io-client";
import { TetherError } from "./errors.ts";
import { headersOf } from "./_http.ts";
import type { Transport, TransportFactory } from "./transport.ts";

/**
 * Options of `socketIoTransport()`.
 *
 * @example
 * ```ts
 * socketIoTransport({ auth: { token }, path: "/assistant/socket.io/" });
 * ```
 */
export interface SocketIoTransportOptions {
  /** The Socket.IO path. Default `/socket.io/`. */
  path?: string;
  /** The namespace. Default `/assistant`. */
  namespace?: string;
  /** `auth` of the handshake, e.g. `{ token }` when the runtime requires a bearer token. */
  auth?: Record<string, unknown>;
  /** How long a message may wait for the runtime to accept or refuse it, in ms. Default 30 s. */
  acceptTimeout?: number;
  /** Anything else socket.io-client takes. */
  socket?: Partial<ManagerOptions & SocketOptions>;
}

/**
 * The Socket.IO transport: live events to every tab attached to the session,
 * automatic reconnects that resume the stream where it stopped.
 *
 * @example
 * ```ts
 * const host = createHost({ runtimeUrl: "http://127.0.0.1:7100", transport: socketIoTransport() });
 * ```
 */
export function socketIoTransport(options: SocketIoTransportOptions = {}): TransportFactory {
  return (link) => {
    let loaded: Promise<Transport> | undefined;
    let closed = false;
    const real = () =>
      loaded ??= import("./_socketio.ts").then((m) =>
        new m.SocketIoTransport(link, options, { TetherError, headersOf })
      );
    return {
      name: "socket.io",
      connect: () => closed ? Promise.resolve() : real().then((t) => t.connect()),
      send: (body) => real().then((t) => t.send(body)),
      cancel: () => loaded?.then((t) => t.cancel()) ?? Promise.resolve(),
      close() {
        closed = true;
        loaded?.then((t) => t.close());
      },
    };
  };
}
