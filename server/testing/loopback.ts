/**
 * A real HTTP server on 127.0.0.1 and an ephemeral port for tests and
 * benchmarks (tool servers the runtime calls over the network).
 *
 * @module
 */
import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";

/** A running loopback server. */
export interface Loopback {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves a fetch handler on 127.0.0.1, port 0.
 *
 * @example
 * ```ts
 * const server = await serveLoopback(remoteToolsHost({ secret, tools }).fetch);
 * await server.close();
 * ```
 */
export function serveLoopback(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<Loopback> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) => {
      // A test that fails before closing it must not keep the process alive.
      (server as unknown as { unref?: () => void }).unref?.();
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}
