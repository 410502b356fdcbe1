/**
 * The address a request came from, read from what the server hands the app
 * beside the request: @hono/node-server's `{incoming}` (Node, and Deno
 * through node:http), or Deno's serve-handler info (`remoteAddr`, Deno.serve
 * and `deno serve`). Undefined when the server says nothing (an app driven by
 * `app.fetch` alone, as in tests).
 *
 * @module
 */

/** What the servers pass beside the request, as far as the address goes. */
interface ServerBindings {
  incoming?: { socket?: { remoteAddress?: string } };
  remoteAddr?: { hostname?: string };
}

/**
 * The client's address, or undefined.
 *
 * @example
 * ```ts
 * clientAddress({ remoteAddr: { hostname: "203.0.113.7", port: 5123 } }); // "203.0.113.7"
 * ```
 */
export function clientAddress(bindings: unknown): string | undefined {
  if (!bindings || typeof bindings !== "object") return undefined;
  const b = bindings as ServerBindings;
  return b.incoming?.socket?.remoteAddress ?? b.remoteAddr?.hostname ?? undefined;
}
