/**
 * The transport interface: how a host reaches the runtime. Two
 * implementations, `sseTransport()` (fetch streaming) and
 * `socketIoTransport()` (socket.io-client), deliver the same events to the
 * host, so nothing above this interface knows which one is in use.
 *
 * @module
 */
import type { HeadersSource } from "./_http.ts";

/**
 * The connection state a transport reports.
 *
 * @example
 * ```ts
 * host.state.subscribe((s) => (badge.textContent = s.connection));
 * ```
 */
export type ConnectionState = "idle" | "connecting" | "open" | "reconnecting" | "closed";

/**
 * What the host gives a transport: where to go, and where to put what arrives.
 *
 * @example
 * ```ts
 * const myTransport: TransportFactory = (link) => ({ connect: async () => link.state("open"), send, cancel, close });
 * ```
 */
export interface TransportLink {
  /** The runtime's base URL. */
  readonly runtimeUrl: string;
  /** The session this transport serves. */
  readonly sessionId: string;
  /** Headers for every request (a bearer token, say). */
  readonly headers?: HeadersSource;
  /** The highest event sequence number the host has seen (0 when none). */
  lastSeq(): number;
  /** Delivers one runtime event (the host drops repeats by `seq`). */
  event(name: string, payload: Record<string, unknown>): void;
  /** Reports the connection state; `open` after `reconnecting` makes the host re-check its pending calls. */
  state(state: ConnectionState): void;
}

/**
 * A connection to the runtime for one session.
 *
 * @example
 * ```ts
 * const transport: Transport = sseTransport()(link);
 * await transport.connect();
 * await transport.send({ id: "m1", session_id: link.sessionId, content: "hello" });
 * ```
 */
export interface Transport {
  /** What to call it on screen (`sse`, `socket.io`); the inspector shows it. */
  readonly name?: string;
  /** Opens the connection (joins the session on Socket.IO); resolves when ready. */
  connect(): Promise<void>;
  /**
   * Sends a message body. Resolves once the runtime accepted it (events then
   * flow to the link); rejects with a TetherError when it was refused (422,
   * 409, 403) or could not be delivered (`network`).
   */
  send(body: Record<string, unknown>): Promise<void>;
  /** Asks the runtime to cancel the session's live turn. */
  cancel(): Promise<void>;
  /**
   * Called once the session exists (found on connect, or created by a
   * message): a transport that follows every turn of the session, whoever
   * started it, starts now, and resolves once it listens. Optional;
   * Socket.IO gets them from its room anyway. `fromStart`: the session was
   * created after this page asked (another tab's first message), so its
   * events are read from the first one.
   */
  follow?(fromStart?: boolean): Promise<void> | void;
  /** Closes the connection for good. */
  close(): void;
}

/**
 * Makes a transport for a link; `createHost({ transport })` takes one of these.
 *
 * @example
 * ```ts
 * createHost({ runtimeUrl, transport: socketIoTransport() });
 * ```
 */
export type TransportFactory = (link: TransportLink) => Transport;
