/**
 * The runtime's side of the wire to one tool server: the four endpoints,
 * connected at the address the address check saw (never resolved again),
 * with the bearer secret, the execution scope, a timeout, no redirects, and
 * bounded bodies, and every registered secret redacted from what it answers
 * (before the model, the events or the store see it). Every failure becomes a `RemoteFailure` that keeps the
 * status and the server's own `error` text for the log (never for the user).
 *
 * @module
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Integration } from "./integrations.ts";
import { redactValue } from "../log.ts";
import { BOUNDS, plainText, ShapeError } from "./shapes.ts";

/** Who a call acts for (the contract's execution scope). */
export interface ExecutionScope {
  workspaceId: string;
  externalUserId: string;
  permissions: string[];
  requestId: string;
}

/** Why a request to a tool server failed. */
export class RemoteFailure extends Error {
  override name = "RemoteFailure";
  /** `status` (non-2xx), `timeout`, `network`, `redirect`, or `shape` (not the contract's JSON). */
  readonly reason: "status" | "timeout" | "network" | "redirect" | "shape";
  readonly status: number | null;
  /** The server's `error` text, clipped: for the log only. */
  readonly hostError: string | null;
  constructor(
    reason: RemoteFailure["reason"],
    message: string,
    status: number | null = null,
    hostError: string | null = null,
  ) {
    super(message);
    this.reason = reason;
    this.status = status;
    this.hostError = hostError;
  }
}

/**
 * The scope as the GET endpoints take it: `workspaceId`, `externalUserId`, repeatable `permissions`, `requestId`.
 *
 * @example
 * ```ts
 * scopeQuery({ workspaceId: "ws", externalUserId: "u", permissions: ["a", "b"], requestId: "r" });
 * // "workspaceId=ws&externalUserId=u&permissions=a&permissions=b&requestId=r"
 * ```
 */
export function scopeQuery(scope: ExecutionScope): string {
  const q = new URLSearchParams({
    workspaceId: scope.workspaceId,
    externalUserId: scope.externalUserId,
  });
  for (const p of scope.permissions) q.append("permissions", p);
  q.set("requestId", scope.requestId);
  return q.toString();
}

/** What a tool server answered: the status and, for anything but a redirect, the body's text. */
interface Answered {
  status: number;
  text: string;
}

/**
 * One HTTP(S) request to `url`, connected to `address` (the one the address check saw) whatever
 * the name resolves to now: node:http's `lookup` answers with it, so there is no second resolution.
 * The Host header and TLS (server name and certificate) still use the URL's name. Redirects are not
 * followed; a body over `max` bytes is cut off.
 */
function pinnedRequest(
  url: URL,
  address: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  max: number,
  signal: AbortSignal,
): Promise<Answered> {
  const family = isIP(address);
  const lookup: LookupFunction = (_host, options, done) => // deno-lint-ignore no-explicit-any -- node's callback takes either form, by `all`
  (options?.all ? (done as any)(null, [{ address, family }]) : done(null, address, family));
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<Answered>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    // No pooled agent: a kept-alive socket is keyed by name, and could be one made to another address.
    const options = { method: init.method, headers: init.headers, lookup, agent: false };
    const req = send(url, options, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        res.destroy();
        return resolve({ status, text: "" });
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      res.on("data", (chunk: Uint8Array) => {
        size += chunk.byteLength;
        if (size > max) {
          res.destroy();
          reject(new ShapeError(`the answer is over ${max} bytes`));
        } else chunks.push(chunk);
      });
      res.on("end", () => {
        const all = new Uint8Array(size);
        let at = 0;
        for (const c of chunks) (all.set(c, at), at += c.byteLength);
        resolve({ status, text: new TextDecoder().decode(all) });
      });
      res.on("error", reject);
      res.on("close", () => {
        if (!res.complete) reject(new Error("the connection closed before the answer ended"));
      });
    });
    // Rejected here too: not every runtime's node:http reports a destroyed request as an error.
    const abort = () => (reject(signal.reason), req.destroy());
    signal.addEventListener("abort", abort, { once: true });
    req.on("close", () => signal.removeEventListener("abort", abort));
    req.on("error", reject);
    req.end(init.body);
  });
}

/**
 * Calls one endpoint of a tool server and returns its JSON body (2xx only).
 *
 * @example
 * ```ts
 * const body = await callServer(integration, "GET", `/tools?${scopeQuery(scope)}`, null, 10_000);
 * ```
 */
export async function callServer(
  integration: Integration,
  address: string,
  method: "GET" | "POST",
  path: string,
  payload: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const abort = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const endpoint = path.split("?")[0];
  let answered: Answered;
  try {
    answered = await pinnedRequest(
      new URL(`${integration.base_url}${path}`),
      address,
      {
        method,
        headers: {
          authorization: `Bearer ${integration.secret}`,
          accept: "application/json",
          ...(payload === null ? {} : { "content-type": "application/json" }),
        },
        body: payload === null ? undefined : JSON.stringify(payload),
      },
      BOUNDS.bodyBytes,
      abort,
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    if (error instanceof ShapeError) {
      throw new RemoteFailure("shape", `${method} ${endpoint}: ${error.message}`);
    }
    throw timeout.aborted
      ? new RemoteFailure("timeout", `${method} ${endpoint} took over ${timeoutMs} ms`)
      : new RemoteFailure("network", `${method} ${endpoint} could not connect`);
  }
  const { status, text } = answered;
  try {
    if (status >= 300 && status < 400) {
      throw new RemoteFailure("redirect", `${method} ${endpoint} answered a redirect`, status);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (status < 200 || status > 299) {
      const said = (body as { error?: unknown })?.error;
      throw new RemoteFailure(
        "status",
        `${method} ${endpoint} answered ${status}`,
        status,
        typeof said === "string" ? plainText(said, 500) : null,
      );
    }
    if (body === undefined) {
      throw new RemoteFailure("shape", `${method} ${endpoint} answered something other than JSON`);
    }
    // A server that echoes its secret (or any registered one) gets it into no answer, event or store.
    return redactValue(body);
  } catch (error) {
    if (error instanceof RemoteFailure) throw error;
    if (signal?.aborted) throw error;
    if (timeout.aborted) {
      throw new RemoteFailure("timeout", `${method} ${endpoint} took over ${timeoutMs} ms`);
    }
    throw new RemoteFailure("shape", `${method} ${endpoint}: ${(error as Error).message}`);
  }
}
