/**
 * The Socket.IO transport itself (private to `client/`): `socketIoTransport()`
 * loads this module with socket.io-client, in one chunk, on the first connect,
 * so pages on the default SSE transport download neither.
 *
 * @module
 */
import { io } from "socket.io-client";
import type { Socket } from "socket.io-client";
import type { TetherError } from "./errors.ts";
import type { headersOf } from "./_http.ts";
import type { Transport, TransportLink } from "./transport.ts";
import type { SocketIoTransportOptions } from "./socketio_transport.ts";

interface Waiter {
  resolve(): void;
  reject(error: TetherError): void;
}

const STATUS: Record<string, [number, string]> = {
  validation: [422, "validation"],
  forbidden: [403, "forbidden"],
  session: [409, "session_error"],
  internal: [500, "internal"],
};

/**
 * What the transport takes from the SDK's entry, handed to it rather than imported: an import
 * of a module the entry has too would make esbuild split such modules into a chunk of their
 * own, one more file on every page's first download.
 */
export interface EntryKit {
  TetherError: typeof TetherError;
  headersOf: typeof headersOf;
}

/** The TetherError of an `assistant:error` payload that refuses a message. */
const refusal = (
  { TetherError }: EntryKit,
  payload: Record<string, unknown>,
): TetherError => {
  const [status, type] = payload.error_type === "session_error"
    ? STATUS.session
    : STATUS[payload.type as string] ?? [500, String(payload.error_type ?? payload.type)];
  return new TetherError(status, type, String(payload.message), (payload.issues as []) ?? []);
};

/**
 * One socket on the runtime's namespace, joined to the link's session.
 *
 * @example
 * ```ts
 * const transport = new SocketIoTransport(link, {}, { TetherError, headersOf });
 * await transport.connect();
 * ```
 */
export class SocketIoTransport implements Transport {
  readonly name = "socket.io";
  #link: TransportLink;
  #options: SocketIoTransportOptions;
  #socket?: Socket;
  #waiters: Waiter[] = [];
  #closed = false;
  #kit: EntryKit;

  constructor(link: TransportLink, options: SocketIoTransportOptions, kit: EntryKit) {
    this.#link = link;
    this.#options = options;
    this.#kit = kit;
  }

  #connecting?: Promise<void>;
  /** Ends `connect()`'s wait for the first join (and its timer). */
  #stopWaiting?: () => void;

  connect(): Promise<void> {
    return this.#connecting ??= this.#open();
  }

  #open(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const link = this.#link;
    const url = new URL(this.#options.namespace ?? "/assistant", link.runtimeUrl).href;
    const socket = this.#socket = io(url, {
      path: this.#options.path ?? "/socket.io/",
      transports: ["websocket", "polling"],
      auth: this.#options.auth,
      extraHeaders: this.#kit.headersOf(link.headers),
      reconnectionDelayMax: 5_000,
      ...this.#options.socket,
    });
    link.state("connecting");
    socket.on("connect", () => {
      const after = link.lastSeq();
      // Acknowledged once the runtime follows the session for this socket (or refused it).
      socket.emit("assistant_join_session", {
        session_id: link.sessionId,
        ...(after ? { after } : {}),
      }, () => this.#stopWaiting?.());
      link.state("open");
    });
    socket.on("disconnect", () => {
      if (this.#closed) return link.state("closed");
      link.state("reconnecting");
      // A server that shut down (a restart) disconnects us on purpose, and socket.io then waits for us to reconnect.
      if (!socket.active) setTimeout(() => this.#closed || socket.connect(), 1_000);
    });
    socket.io.on("reconnect_attempt", () => link.state("reconnecting"));
    socket.onAny((name: string, payload: Record<string, unknown>) => {
      if (!name.startsWith("assistant:") || !payload || typeof payload !== "object") return;
      if (name === "assistant:status" && payload.status === "started") {
        this.#waiters.shift()?.resolve();
      } // An error before the turn started refuses the oldest message still waiting.
      else if (name === "assistant:error" && this.#waiters.length) {
        this.#waiters.shift()!.reject(refusal(this.#kit, payload));
      }
      link.event(name, payload);
    });
    // Connected once the first join is acknowledged: from then on the socket has every event.
    return new Promise((resolve) => {
      // A runtime that is not up yet: socket.io keeps trying; messages wait in its buffer.
      const wait = setTimeout(resolve, this.#options.acceptTimeout ?? 30_000);
      // The wait ends with the join or the close, so no timer outlives either.
      this.#stopWaiting = () => (clearTimeout(wait), resolve());
    });
  }

  async send(body: Record<string, unknown>): Promise<void> {
    await this.connect();
    if (body.message_type === "steering") return this.#steer(body);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const index = this.#waiters.indexOf(waiter);
        if (index >= 0) this.#waiters.splice(index, 1);
        reject(
          new this.#kit.TetherError(
            0,
            "network",
            "The runtime did not answer the message in time; it may or may not have received it.",
          ),
        );
      }, this.#options.acceptTimeout ?? 30_000);
      const waiter: Waiter = {
        resolve: () => (clearTimeout(timer), resolve()),
        reject: (error) => (clearTimeout(timer), reject(error)),
      };
      this.#waiters.push(waiter);
      this.#socket!.emit("assistant_message", body);
    });
  }

  /** Steering delivered to a live turn starts no turn of its own: the acknowledgement settles it. */
  #steer(body: Record<string, unknown>): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new this.#kit.TetherError(
              0,
              "network",
              "The runtime did not answer the steering message in time.",
            ),
          ),
        this.#options.acceptTimeout ?? 30_000,
      );
      this.#socket!.emit("assistant_message", body, (answer: Record<string, unknown>) => {
        clearTimeout(timer);
        if (answer?.ok) resolve();
        else reject(refusal(this.#kit, (answer?.error ?? {}) as Record<string, unknown>));
      });
    });
  }

  cancel(): Promise<void> {
    this.#socket?.emit("assistant_cancel", { session_id: this.#link.sessionId });
    return Promise.resolve();
  }

  close(): void {
    this.#closed = true;
    this.#stopWaiting?.();
    this.#socket?.disconnect();
    for (const waiter of this.#waiters.splice(0)) {
      waiter.reject(new this.#kit.TetherError(0, "network", "The transport was closed."));
    }
  }
}
