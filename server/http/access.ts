/**
 * Access rules: who the caller is (trusted local, a gateway header, or a
 * host-supplied authenticate function) and whether its Origin may change
 * state. Every refusal fails closed.
 *
 * @module
 */
import type { AccessOptions } from "../config.ts";
import { TetherError } from "./errors.ts";
import type { Principal } from "./principal.ts";

/** The principal of trusted local use. */
export const LOCAL_PRINCIPAL: Principal = { id: "local", roles: [] };

/** The local principal when it presents `ACCESS__ADMIN_TOKEN`. */
export const LOCAL_ADMIN: Principal = { id: "local", roles: ["admin"] };

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*");
  return new RegExp(`^${escaped}$`, "i");
}

/**
 * Whether an Origin is allowed (absent Origin: a non-browser client, allowed).
 *
 * @example
 * ```ts
 * originAllowed("http://localhost:5173", ["http://localhost:*"]); // true
 * ```
 */
export function originAllowed(origin: string | null | undefined, allowed: string[]): boolean {
  if (!origin) return true;
  return allowed.some((pattern) => pattern === "*" || globToRegExp(pattern).test(origin));
}

/** Compares secrets without leaking their length or content through timing. */
function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/** What identifies a caller: the request's headers, or a socket's handshake. */
export interface Credentials {
  headers: Headers;
  /** A token given out of band (Socket.IO `auth.token`). */
  token?: string;
  request?: Request;
}

/**
 * Resolves the principal of a caller, or throws 401.
 *
 * @example
 * ```ts
 * const principal = await authenticate(access, { headers: req.headers, request: req });
 * ```
 */
export async function authenticate(
  access: AccessOptions,
  credentials: Credentials,
): Promise<Principal> {
  const { headers } = credentials;
  // A host-supplied function decides even when the mode was left at its default: failing open would be worse.
  if (access.mode === "custom" || access.authenticate) {
    if (!access.authenticate || !credentials.request) {
      throw new TetherError(
        401,
        "unauthorized",
        'access.mode is "custom" but no authenticate function was given; pass access.authenticate to createRuntime().',
      );
    }
    const authenticate = access.authenticate;
    const request = credentials.request;
    // The function may be sync or async, and may throw: every failure refuses.
    const principal = await Promise.resolve().then(() => authenticate(request)).catch(() => null);
    if (!principal?.id) {
      throw new TetherError(
        401,
        "unauthorized",
        "The host's authenticate function refused this caller.",
      );
    }
    return {
      id: principal.id,
      roles: principal.roles ?? [],
      ...(principal.workspace ? { workspace: principal.workspace } : {}),
      ...(principal.permissions ? { permissions: principal.permissions } : {}),
    };
  }
  if (access.mode === "header") {
    const id = headers.get(access.principalHeader)?.trim();
    if (!id) {
      throw new TetherError(
        401,
        "unauthorized",
        `The ${access.principalHeader} header is missing; requests must come through the gateway.`,
      );
    }
    const roles = (headers.get(access.rolesHeader) ?? "").split(",").map((r) => r.trim()).filter(
      Boolean,
    );
    const workspace = headers.get(access.workspaceHeader ?? "x-tether-workspace")?.trim();
    return { id, roles, ...(workspace ? { workspace } : {}) };
  }
  const bearer = headers.get("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1] ??
    credentials.token;
  // The admin token makes the local principal an admin (operator routes, approvals); without it, no role.
  if (access.adminToken && bearer && sameSecret(bearer, access.adminToken)) return LOCAL_ADMIN;
  if (access.token && (!bearer || !sameSecret(bearer, access.token))) {
    throw new TetherError(
      401,
      "unauthorized",
      "A valid bearer token is required (Authorization: Bearer <ACCESS__TOKEN>).",
    );
  }
  return LOCAL_PRINCIPAL;
}
