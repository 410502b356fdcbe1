/**
 * The Socket.IO transport: the `/assistant` namespace of
 * docs/runtime-wire.md on a node:http server (`@hono/node-server` on Node,
 * and the same node:http server on Deno through its Node compatibility).
 *
 * Connections are checked once, in the namespace middleware: an Origin
 * outside `access.corsOrigins` and a caller `authenticate()` refuses get a
 * `connect_error` whose `data` is a transport error (`forbidden`).
 *
 * @module
 */
import type { Server as HttpServer } from "node:http";
import { Server, type ServerOptions, type Socket } from "socket.io";
import { ASSISTANT_NAMESPACE } from "../../protocol/mod.ts";
import type { TetherApp } from "../app.ts";
import type { AccessOptions } from "../config.ts";
import { authenticate, originAllowed } from "../http/access.ts";
import { TetherError } from "../http/errors.ts";
import type { Principal } from "../http/principal.ts";
import { RoomFanout } from "./_room_fanout.ts";
import type { AssistantServer } from "./_socket_types.ts";
import { serveSocket } from "./_socket_handlers.ts";
import { transportError } from "./transport_error.ts";

/**
 * A Socket.IO server attached to the runtime.
 *
 * @example
 * ```ts
 * const attached: AttachedSocketIo = await attachSocketIo(app, server);
 * await attached.close();
 * ```
 */
export interface AttachedSocketIo {
  io: Server;
  /** Disconnects every client and stops the engine.io server (the HTTP server stays open). */
  close(): Promise<void>;
}

/**
 * Resolves the principal of a handshake with the runtime's access rules (Origin first), or throws.
 *
 * @example
 * ```ts
 * nsp.use(async (socket, next) => { socket.data.principal = await socketPrincipal(access, socket.handshake); next(); });
 * ```
 */
export async function socketPrincipal(
  access: AccessOptions,
  handshake: Socket["handshake"],
): Promise<Principal> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(handshake.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const origin = headers.get("origin");
  if (!originAllowed(origin, access.corsOrigins)) {
    throw new TetherError(
      403,
      "forbidden",
      `Origin ${origin} may not connect here; add it to ACCESS__CORS_ORIGINS.`,
    );
  }
  const url = new URL(handshake.url, `http://${headers.get("host") ?? "localhost"}`);
  const token = typeof handshake.auth?.token === "string" ? handshake.auth.token : undefined;
  return await authenticate(access, { headers, token, request: new Request(url, { headers }) });
}

/**
 * Attaches the `/assistant` namespace to a node:http server.
 *
 * @example
 * ```ts
 * const started = await startNode({ port: 0, socketIo: false });
 * const { io, close } = await attachSocketIo(started.app, started.server);
 * ```
 */
export async function attachSocketIo(
  app: TetherApp,
  server: HttpServer,
  options: Partial<ServerOptions> = {},
): Promise<AttachedSocketIo> {
  const engine = await app.engine();
  const { access, limits } = engine.options;
  const io: AssistantServer = new Server(server, {
    // Attachments travel inside messages; the HTTP body limit applies here too.
    maxHttpBufferSize: limits.maxBodyBytes,
    cors: {
      origin: (origin, done) => done(null, originAllowed(origin, access.corsOrigins)),
      credentials: true,
    },
    ...options,
  });
  const nsp = io.of(ASSISTANT_NAMESPACE);
  const fanout = new RoomFanout(nsp, engine.hub);
  nsp.use(async (socket, next) => {
    try {
      socket.data.principal = await socketPrincipal(access, socket.handshake);
      next();
    } catch (error) {
      const payload = transportError(error, undefined, engine.options.logger);
      next(Object.assign(new Error(payload.message), { data: payload }));
    }
  });
  nsp.on("connection", (socket) => serveSocket(socket, engine, fanout));
  return {
    io,
    close() {
      fanout.close();
      io.of("/").disconnectSockets(true);
      nsp.disconnectSockets(true);
      io.engine.close();
      return Promise.resolve();
    },
  };
}
