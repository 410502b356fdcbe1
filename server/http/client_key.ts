/**
 * Who a request's body is counted against (`readJson`'s per-client cap): the
 * principal at the address the request came from.
 *
 * @module
 */
import { clientAddress } from "../runtime/client_address.ts";
import type { Principal } from "./principal.ts";

/**
 * The client key of a request in a route behind the access guard.
 *
 * @example
 * ```ts
 * const body = await readJson(c.req.raw, options.limits, clientKey(c));
 * ```
 */
export function clientKey(c: { env: unknown; get(key: "principal"): Principal }): string {
  return `${c.get("principal")?.id ?? ""}@${clientAddress(c.env) ?? ""}`;
}
