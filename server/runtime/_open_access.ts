/**
 * The Deploy entry's start check: on a public platform, `trusted_local`
 * without `ACCESS__TOKEN` would let anyone on the internet read, write and
 * delete every session, so the entry refuses to start unless access is
 * configured (a token, or a gateway in `header` mode).
 *
 * @module
 */
import type { AccessOptions } from "../config.ts";

/**
 * Why this access configuration may not serve a public platform, or null when it may.
 *
 * @example
 * ```ts
 * openAccessProblem({}); // "tether: refusing to start: …" (trusted_local, no token)
 * openAccessProblem({ token: "long-random-secret" }); // null
 * ```
 */
export function openAccessProblem(access: Partial<AccessOptions> = {}): string | null {
  if (access.mode === "header") return null;
  if (access.mode === "custom" || access.authenticate) {
    return access.authenticate ? null : NO_AUTHENTICATE;
  }
  return access.token ? null : NO_TOKEN;
}

const NO_TOKEN = "tether: refusing to start: the Deploy entry serves a public address, and " +
  "ACCESS__MODE=trusted_local without ACCESS__TOKEN would let anyone read, write and delete " +
  "every session. Set ACCESS__TOKEN to a long random secret (clients send " +
  "`Authorization: Bearer <token>`), or ACCESS__MODE=header behind a gateway that authenticates.";

const NO_AUTHENTICATE = 'tether: refusing to start: ACCESS__MODE is "custom" but no ' +
  "authenticate function was given; set ACCESS__TOKEN or ACCESS__MODE=header instead.";
