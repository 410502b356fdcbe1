/**
 * What a turn takes from discovery: who it acts for (the execution scope,
 * from the principal and the configuration, never from a message body) and
 * the contexts as an untrusted-data block of the user message. The remote
 * kind (`server/turn/kinds/remote.ts`) offers the discovered tools.
 *
 * @module
 */
import type { RemoteToolsOptions } from "../config.ts";
import type { Principal } from "../http/principal.ts";
import { newId } from "../session/create.ts";
import type { SessionRecord } from "../session/records.ts";
import { fence } from "../turn/prompt.ts";
import type { ExecutionScope } from "./client.ts";
import type { Discovery } from "./remote_tools.ts";

/** The scope a session's remote calls act for. */
export type SessionScope = NonNullable<SessionRecord["scope"]>;

/**
 * The scope of a caller: its workspace (from the gateway or `authenticate`,
 * else `REMOTE_TOOLS__WORKSPACE`), its id as the external user, its permissions.
 *
 * @example
 * ```ts
 * sessionScope({ id: "local", roles: [] }, { workspace: "default", allowedHosts: [], timeoutMs: 10_000 });
 * // { workspace_id: "default", external_user_id: "local", permissions: [] }
 * ```
 */
export function sessionScope(principal: Principal, options: RemoteToolsOptions): SessionScope {
  return {
    workspace_id: principal.workspace ?? options.workspace,
    external_user_id: principal.id,
    permissions: principal.permissions ?? [],
  };
}

/**
 * The contract's execution scope of one run, with a fresh request id.
 *
 * @example
 * ```ts
 * executionScope({ workspace_id: "w", external_user_id: "u", permissions: [] }).requestId; // "req_…"
 * ```
 */
export function executionScope(scope: SessionScope): ExecutionScope {
  return {
    workspaceId: scope.workspace_id,
    externalUserId: scope.external_user_id,
    permissions: scope.permissions,
    requestId: newId("req"),
  };
}

/**
 * The contexts as one `<remote_context>` block of untrusted JSON (null when there are none).
 *
 * @example
 * ```ts
 * renderRemoteContext({ tools: [], contexts: [{ integrationId: "int_1", context: { project: "Apollo" } }] });
 * // '<remote_context>\n{"project":"Apollo"}\n</remote_context>'
 * ```
 */
export function renderRemoteContext(discovery: Discovery | null): string | null {
  const contexts = (discovery?.contexts ?? []).filter((c) => Object.keys(c.context).length);
  if (!contexts.length) return null;
  // Data, not instructions: fenced JSON the model may read, which cannot close the block.
  const body = contexts.map((c) => fence(JSON.stringify(c.context))).join("\n");
  return `<remote_context>\n${body}\n</remote_context>`;
}
