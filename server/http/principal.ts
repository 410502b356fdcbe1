/**
 * Who is calling: the principal a request or a socket acts for. Identity
 * never comes from a message body; see `access.ts` for how it is decided.
 *
 * @module
 */

/** The caller a request acts for. `admin` in `roles` administers every session. */
export interface Principal {
  id: string;
  roles: string[];
  /** The workspace the caller acts in (remote tools' `workspaceId`); from the gateway or `authenticate`. */
  workspace?: string;
  /** Permissions handed to remote tool servers (`permissions` of the execution scope). */
  permissions?: string[];
}

/**
 * A host-supplied authenticate function: returns the principal of a request,
 * or null to refuse it (401). Used with `access.mode: "custom"`.
 *
 * @example
 * ```ts
 * const authenticate: Authenticate = (req) =>
 *   req.headers.get("x-user") ? { id: req.headers.get("x-user")!, roles: [] } : null;
 * ```
 */
export type Authenticate = (request: Request) => Principal | null | Promise<Principal | null>;

/**
 * Whether a principal may touch a session owned by `ownerId`.
 *
 * @example
 * ```ts
 * mayAccess({ id: "ann", roles: [] }, "ann"); // true
 * ```
 */
export function mayAccess(principal: Principal, ownerId: string): boolean {
  return principal.id === ownerId || principal.roles.includes("admin");
}
