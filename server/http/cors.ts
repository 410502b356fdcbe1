/**
 * CORS for the allowed Origins: a host page served from another origin in
 * `ACCESS__CORS_ORIGINS` (by default any localhost port, as in a Vite dev
 * setup) may call the API and read its answers, including event streams.
 * Preflight requests are answered here, before authentication, since a
 * browser sends them without credentials. Refusing state changes from other
 * Origins stays the access middleware's job.
 *
 * @module
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { AccessOptions } from "../config.ts";
import { originAllowed } from "./access.ts";

/**
 * The CORS middleware for the runtime's API routes.
 *
 * @example
 * ```ts
 * app.use("/api/*", corsFor(options.access));
 * ```
 */
export function corsFor(access: AccessOptions): MiddlewareHandler {
  const preflight = cors({
    origin: (origin) => (origin && originAllowed(origin, access.corsOrigins) ? origin : null),
    allowMethods: ["GET", "POST", "PATCH", "DELETE", "OPTIONS"],
    // Never the principal headers: only a gateway may set those, never a page.
    allowHeaders: ["content-type", "authorization", "last-event-id"],
    exposeHeaders: ["content-type"],
    credentials: true,
    maxAge: 600,
  });
  return async (c, next) => {
    if (c.req.method === "OPTIONS") return await preflight(c, next);
    await next();
    // Set on the final response: headers set before the handler runs make Hono copy its
    // response into a full WHATWG Response, off @hono/node-server's fast path. Reading
    // `c.res.headers` builds a Headers object too, so a response is only touched when it
    // has something to say: to an Origin, or `Vary` on what a cache may keep (GET, HEAD).
    const origin = c.req.header("origin");
    const cacheable = c.req.method === "GET" || c.req.method === "HEAD";
    if (!origin && !cacheable) return;
    const headers = c.res.headers;
    if (origin && originAllowed(origin, access.corsOrigins)) {
      headers.set("Access-Control-Allow-Origin", origin);
      headers.set("Access-Control-Allow-Credentials", "true");
      headers.set("Access-Control-Expose-Headers", "content-type");
    }
    headers.append("Vary", "Origin");
  };
}
