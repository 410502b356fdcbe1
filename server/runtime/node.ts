/**
 * The Node entry: serves the runtime with @hono/node-server.
 *
 * @module
 */
import { serve } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { readFileSync } from "node:fs";
import process from "node:process";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createRuntime, type TetherApp } from "../app.ts";
import type { RuntimeOptions } from "../config.ts";
import { optionsFromEnv } from "../env.ts";
import { type AttachedSocketIo, attachSocketIo } from "../transports/socketio.ts";

/** Options of `startNode()`. */
export interface StartOptions extends Partial<RuntimeOptions> {
  /** Port (default: PORT or 7100; 0 picks a free one). */
  port?: number;
  /** Interface (default 127.0.0.1). */
  hostname?: string;
  /** Environment to read `SECTION__KEY` options from (default: the process environment). */
  env?: Record<string, string | undefined>;
  /** Called with the app and the HTTP server before listening (transports attach here). */
  attach?: (app: TetherApp, server: Server) => void | Promise<void>;
  /** Serve the Socket.IO namespace `/assistant` on the same port (default true). */
  socketIo?: boolean;
  /** A folder of files (the demo) served at `/` for every path outside the runtime's own routes (see `runtimeSegments`). */
  staticRoot?: string;
}

/** A running runtime. */
export interface Started {
  url: string;
  port: number;
  app: TetherApp;
  server: Server;
  /** The Socket.IO server, unless `socketIo: false`. */
  io?: AttachedSocketIo["io"];
  close(): Promise<void>;
}

/**
 * Starts the runtime on Node.
 *
 * @example
 * ```ts
 * const { url, close } = await startNode({ port: 0, env: { STORE__URL: "memory:" } });
 * ```
 */
export async function startNode(options: StartOptions = {}): Promise<Started> {
  const env = options.env ?? (process.env as Record<string, string | undefined>);
  const {
    port: wanted,
    hostname = "127.0.0.1",
    attach,
    env: _e,
    socketIo = true,
    staticRoot,
    ...rest
  } = options;
  const app = createRuntime({
    ...optionsFromEnv(env, (p) => readFileSync(p, "utf8")),
    ...rest,
    env,
  });
  await app.engine();
  const port = wanted ?? Number(env.PORT ?? 7100);
  const server = await new Promise<Server>((resolve) => {
    const fetch = staticRoot ? withStaticFiles(app, staticRoot) : app.fetch;
    const s = serve({ fetch, port, hostname }, () => resolve(s as Server)) as Server;
  });
  const sio = socketIo ? await attachSocketIo(app, server) : null;
  await attach?.(app, server);
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${actual}`,
    port: actual,
    app,
    server,
    io: sio?.io,
    async close() {
      await sio?.close();
      // Open event streams would keep close() waiting forever: end them too.
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections?.();
      });
      await app.close();
    },
  };
}

/**
 * The first path segments the runtime answers, read from the app's own route list (and
 * Socket.IO's path): wherever files are served beside it, every route stays reachable.
 *
 * @example
 * ```ts
 * runtimeSegments(createRuntime()); // Set { "api", "health", "v1", "socket.io", ... }
 * ```
 */
export function runtimeSegments(app: TetherApp): Set<string> {
  const segments = new Set(["socket.io"]);
  for (const route of app.routes) {
    const first = route.path.split("/")[1] ?? "";
    // Middleware on every path (`*`, `/*`) and parameters name no segment of their own.
    if (first !== "" && !/[*:{(]/.test(first)) segments.add(first);
  }
  return segments;
}

/** The runtime's fetch, with the files under `root` answering every path the runtime does not own. */
function withStaticFiles(app: TetherApp, root: string): TetherApp["fetch"] {
  // Node file serving stays here, so the Hono app itself keeps to Request and Response.
  const files = new Hono().use("*", serveStatic({ root }));
  const owned = runtimeSegments(app);
  return (request, ...rest) =>
    owned.has(new URL(request.url).pathname.split("/")[1] ?? "")
      ? app.fetch(request, ...rest)
      : files.fetch(request, ...rest);
}
