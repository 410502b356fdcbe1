/**
 * The Deno entry. With Socket.IO (the default) it serves the runtime through
 * Deno's node:http, exactly as on Node, because the socket.io server attaches
 * to a node:http server; with `socketIo: false` it uses Deno.serve (fetch
 * handlers only: HTTP, streaming HTTP and AG-UI still work).
 *
 * @module
 */
import { createRuntime, type TetherApp } from "../app.ts";
import type { RuntimeOptions } from "../config.ts";
import { optionsFromEnv } from "../env.ts";
import { startNode } from "./node.ts";
import { log } from "../log.ts";

declare const Deno: {
  env: { toObject(): Record<string, string> };
  readTextFileSync(path: string): string;
  serve(
    options: { port: number; hostname: string; onListen?: (addr: { port: number }) => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): { finished: Promise<void>; shutdown(): Promise<void>; addr: { port: number } };
  mainModule: string;
};

/** A running runtime on Deno. */
export interface StartedDeno {
  url: string;
  port: number;
  app: TetherApp;
  close(): Promise<void>;
}

/**
 * Starts the runtime on Deno.
 *
 * @example
 * ```ts
 * const { url, close } = await startDeno({ port: 0, env: { STORE__URL: "memory:" } });
 * ```
 */
export async function startDeno(
  options: Partial<RuntimeOptions> & {
    port?: number;
    hostname?: string;
    env?: Record<string, string | undefined>;
    /** Serve Socket.IO on the same port (default true); false serves with Deno.serve instead. */
    socketIo?: boolean;
  } = {},
): Promise<StartedDeno> {
  const env = options.env ?? Deno.env.toObject();
  if (options.socketIo !== false) {
    const { url, port, app, close } = await startNode({ ...options, env });
    return { url, port, app, close };
  }
  const { port: wanted, hostname = "127.0.0.1", env: _e, socketIo: _s, ...rest } = options;
  const app = createRuntime({
    ...optionsFromEnv(env, (p) => Deno.readTextFileSync(p)),
    ...rest,
    env,
  });
  await app.engine();
  const server = Deno.serve({
    port: wanted ?? Number(env.PORT ?? 7100),
    hostname,
    onListen: () => {},
  }, app.fetch);
  const port = server.addr.port;
  return {
    url: `http://${hostname}:${port}`,
    port,
    app,
    async close() {
      await server.shutdown();
      await app.close();
    },
  };
}

if (import.meta.main) {
  const { url } = await startDeno();
  log.info("tether: listening", { url });
}
