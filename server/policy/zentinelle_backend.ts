/**
 * Zentinelle as the policy backend, over HTTP: `POST /api/zentinelle/v1/evaluate`
 * and `GET /api/zentinelle/v1/approvals/requests/{id}` with `X-Zentinelle-Key`.
 * Anything but a readable 200 throws, so the gate denies: a timeout, a
 * refused connection, a 4xx, a 5xx (503 carries "Policy evaluation
 * unavailable"), a body that is not JSON. The reason Zentinelle gives is
 * kept: DRF's `{"detail": ...}` (401, 403, 404), `error`, a deny's `reason`,
 * or the first field of a 400's field list. A redirect is never followed (it
 * would send the key elsewhere and trust whatever answers there): it fails,
 * so the call is denied.
 *
 * Before the gate trusts it, the backend checks that the service is a
 * release Tether can work with (`probe()`, see `zentinelle_version.ts`).
 *
 * @module
 */
import { type PolicyBackend, PolicyUnavailable, type ProbeResult } from "./backend.ts";
import type { EvaluateBody } from "./contract.ts";
import { reasonOf, type ZentinelleReply } from "./_zentinelle_reply.ts";
import { probeZentinelle } from "./zentinelle_version.ts";

export { reasonOf, type ZentinelleReply };

/** Where Zentinelle is and how to reach it. */
export interface ZentinelleOptions {
  /** Base URL, e.g. `https://zentinelle.example.com` (the `/api/zentinelle/v1/...` paths are added). */
  url: string;
  /** The agent host's key (`sk_agent_...`); sent as `X-Zentinelle-Key`, never logged. */
  key: string;
  /** How long one request may take before the call is denied (ms). */
  timeoutMs: number;
  /** The harness slug the version probe names. Default `tether`. */
  harness?: string;
  /** The fetch to use (tests, proxies); default the global one. */
  fetch?: typeof fetch;
}

const MAX_ANSWER_CHARS = 1_048_576;

/**
 * A backend that asks a Zentinelle server.
 *
 * @example
 * ```ts
 * const backend = zentinelleBackend({ url: "http://127.0.0.1:8080", key: "sk_agent_x", timeoutMs: 5_000 });
 * ```
 */
export function zentinelleBackend(options: ZentinelleOptions): PolicyBackend & {
  /** One request, answered with the status and body whatever they are (the probe reads refusals). */
  send(path: string, init: RequestInit, signal?: AbortSignal): Promise<ZentinelleReply>;
} {
  const base = options.url.replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;
  const send = async (
    path: string,
    init: RequestInit,
    signal?: AbortSignal,
  ): Promise<ZentinelleReply> => {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    let res: Response;
    try {
      res = await doFetch(`${base}/api/zentinelle/v1${path}`, {
        ...init,
        headers: { "content-type": "application/json", "x-zentinelle-key": options.key },
        // A redirect would carry the key to another address and trust its answer: it fails instead.
        redirect: "error",
        signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      });
    } catch (error) {
      const said = `${(error as Error).message} ${String((error as Error).cause ?? "")}`;
      throw new PolicyUnavailable(
        timeout.aborted
          ? `Zentinelle did not answer within ${options.timeoutMs} ms`
          : /redirect/i.test(said)
          ? "Zentinelle answered with a redirect, which is refused: the key goes only to the configured URL"
          : `Zentinelle could not be reached (${(error as Error).message})`,
      );
    }
    let text: string;
    try {
      text = await res.text();
    } catch {
      throw new PolicyUnavailable(
        timeout.aborted
          ? `Zentinelle did not finish its answer within ${options.timeoutMs} ms`
          : "Zentinelle's answer could not be read",
      );
    }
    let body: unknown = undefined;
    if (text.length <= MAX_ANSWER_CHARS) {
      try {
        body = JSON.parse(text);
      } catch { /* judged by the caller */ }
    }
    return { status: res.status, body };
  };
  const request = async (path: string, init: RequestInit, signal?: AbortSignal) => {
    const { status, body } = await send(path, init, signal);
    if (status !== 200) {
      const said = reasonOf(body);
      throw new PolicyUnavailable(
        `Zentinelle answered ${status}${said ? ` (${said.slice(0, 200)})` : ""}`,
      );
    }
    if (body === undefined) throw new PolicyUnavailable("Zentinelle's answer is not readable JSON");
    return body;
  };
  const backend = {
    name: "zentinelle",
    send,
    evaluate: (body: EvaluateBody, signal?: AbortSignal) =>
      request("/evaluate", { method: "POST", body: JSON.stringify(body) }, signal),
    approval: (requestId: string, signal?: AbortSignal) =>
      request(`/approvals/requests/${encodeURIComponent(requestId)}`, { method: "GET" }, signal),
    probe: (signal?: AbortSignal): Promise<ProbeResult> =>
      probeZentinelle(backend, options.harness ?? "tether", signal),
  };
  return backend;
}
