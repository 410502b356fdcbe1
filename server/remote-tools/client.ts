/**
 * The runtime's side of the wire to one tool server: the four endpoints,
 * with the bearer secret, the execution scope, a timeout, no redirects, and
 * bounded bodies, and every registered secret redacted from what it answers
 * (before the model, the events or the store see it). Every failure becomes a `RemoteFailure` that keeps the
 * status and the server's own `error` text for the log (never for the user).
 *
 * @module
 */
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

async function readBounded(res: Response, max: number): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw new ShapeError(`the answer is over ${max} bytes`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) (all.set(c, at), at += c.byteLength);
  return new TextDecoder().decode(all);
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
  method: "GET" | "POST",
  path: string,
  payload: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const abort = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const endpoint = path.split("?")[0];
  let res: Response;
  try {
    res = await fetch(`${integration.base_url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${integration.secret}`,
        accept: "application/json",
        ...(payload === null ? {} : { "content-type": "application/json" }),
      },
      body: payload === null ? undefined : JSON.stringify(payload),
      redirect: "manual",
      signal: abort,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw timeout.aborted
      ? new RemoteFailure("timeout", `${method} ${endpoint} took over ${timeoutMs} ms`)
      : new RemoteFailure("network", `${method} ${endpoint} could not connect`);
  }
  try {
    if (res.status >= 300 && res.status < 400 || res.type === "opaqueredirect") {
      await res.body?.cancel();
      throw new RemoteFailure("redirect", `${method} ${endpoint} answered a redirect`, res.status);
    }
    const text = await readBounded(res, BOUNDS.bodyBytes);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!res.ok) {
      const said = (body as { error?: unknown })?.error;
      throw new RemoteFailure(
        "status",
        `${method} ${endpoint} answered ${res.status}`,
        res.status,
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
