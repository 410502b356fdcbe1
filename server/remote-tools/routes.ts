/**
 * Registering tool servers: `POST /v1/integrations/{provider}/connect`
 * (admin only), `GET` of the same path (a workspace's integrations, never
 * their secrets), `DELETE` of it (admin only). The base URL is checked
 * before anything is stored; the secret is stored and never returned.
 *
 * @module
 */
import { Hono } from "hono";
import type { RuntimeEnv } from "../app.ts";
import type { RuntimeOptions } from "../config.ts";
import { readJson } from "../http/body.ts";
import { clientKey } from "../http/client_key.ts";
import { TetherError, validationError } from "../http/errors.ts";
import type { Principal } from "../http/principal.ts";
import { checkBaseUrl } from "./address.ts";
import { integrationView, PROVIDERS } from "./integrations.ts";
import { BOUNDS } from "./shapes.ts";

const WORKSPACE = /^[A-Za-z0-9._:-]{1,64}$/;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const FIELDS = new Set(["workspace_id", "base_url", "secret", "allowed_tools"]);

function requireAdmin(principal: Principal, what: string): void {
  if (!principal.roles.includes("admin")) {
    throw new TetherError(
      403,
      "forbidden",
      `${what} needs the admin role; in trusted_local mode send Authorization: Bearer <ACCESS__ADMIN_TOKEN>.`,
    );
  }
}

function provider(name: string): (typeof PROVIDERS)[number] {
  if (!(PROVIDERS as readonly string[]).includes(name)) {
    throw new TetherError(
      404,
      "not_found",
      `Unknown provider ${name}; use one of ${PROVIDERS.join(", ")}.`,
    );
  }
  return name as (typeof PROVIDERS)[number];
}

function workspaceParam(value: string | undefined): string {
  if (!value || !WORKSPACE.test(value)) {
    throw validationError("workspace_id must be 1..64 letters, digits, '.', '_', ':' or '-'.", [{
      path: "workspace_id",
      message: "1..64 of [A-Za-z0-9._:-]",
    }]);
  }
  return value;
}

/** The checked body of a connect request. */
function connectBody(raw: unknown) {
  const issues: { path: string; message: string }[] = [];
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw validationError("The body must be a JSON object with workspace_id, base_url and secret.");
  }
  const body = raw as Record<string, unknown>;
  for (const key of Object.keys(body)) {
    if (!FIELDS.has(key)) issues.push({ path: key, message: "unknown field; remove it" });
  }
  const { workspace_id, base_url, secret, allowed_tools = [] } = body;
  if (typeof workspace_id !== "string" || !WORKSPACE.test(workspace_id)) {
    issues.push({ path: "workspace_id", message: "1..64 of [A-Za-z0-9._:-]" });
  }
  if (typeof base_url !== "string" || base_url.length > 2_048) {
    issues.push({ path: "base_url", message: "an http(s) URL of at most 2,048 characters" });
  }
  if (typeof secret !== "string" || secret.length < 16 || secret.length > 1_024) {
    issues.push({ path: "secret", message: "a string of 16..1,024 characters" });
  }
  if (
    !Array.isArray(allowed_tools) || allowed_tools.length > BOUNDS.tools ||
    !allowed_tools.every((t) => typeof t === "string" && TOOL_NAME.test(t))
  ) {
    issues.push({ path: "allowed_tools", message: `at most ${BOUNDS.tools} tool names` });
  }
  if (issues.length) {
    throw validationError(
      `The connect request is invalid: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}.`,
      issues,
    );
  }
  return {
    workspace_id: workspace_id as string,
    base_url: base_url as string,
    secret: secret as string,
    allowed_tools: [...new Set(allowed_tools as string[])],
  };
}

/**
 * The integration routes, mounted at `/v1/integrations` behind the runtime's access rules.
 *
 * @example
 * ```ts
 * app.route("/v1/integrations", integrationRoutes(options));
 * ```
 */
export function integrationRoutes(options: RuntimeOptions): Hono<RuntimeEnv> {
  const routes = new Hono<RuntimeEnv>();

  routes.post("/:provider/connect", async (c) => {
    requireAdmin(c.get("principal"), "Registering a tool server");
    const name = provider(c.req.param("provider"));
    const body = connectBody(await readJson(c.req.raw, options.limits, clientKey(c)));
    let base: string;
    try {
      const { allowedHosts, resolve } = options.remoteTools;
      base = await checkBaseUrl(body.base_url, allowedHosts, resolve);
    } catch (error) {
      throw validationError((error as Error).message, [{ path: "base_url", message: "refused" }]);
    }
    const stored = await c.get("engine").remote.integrations.add({
      ...body,
      provider: name,
      base_url: base,
    });
    options.logger.info("tool server registered", {
      integration: stored.id,
      workspace_id: stored.workspace_id,
      base_url: stored.base_url,
    });
    return c.json({ integration: integrationView(stored) }, 201);
  });

  routes.get("/:provider/connect", async (c) => {
    const name = provider(c.req.param("provider"));
    const workspace = workspaceParam(c.req.query("workspace_id"));
    const principal = c.get("principal");
    const own = (principal.workspace ?? options.remoteTools.workspace) === workspace;
    if (!own) requireAdmin(principal, "Listing another workspace's tool servers");
    const all = await c.get("engine").remote.integrations.list(workspace);
    return c.json({
      workspace_id: workspace,
      integrations: all.filter((i) => i.provider === name).map(integrationView),
    });
  });

  routes.delete("/:provider/connect", async (c) => {
    requireAdmin(c.get("principal"), "Removing a tool server");
    provider(c.req.param("provider"));
    const workspace = workspaceParam(c.req.query("workspace_id"));
    const id = c.req.query("id") ?? "";
    const removed = await c.get("engine").remote.integrations.remove(workspace, id);
    if (!removed) {
      throw new TetherError(404, "not_found", `Workspace ${workspace} has no integration ${id}.`);
    }
    return c.json({ deleted: true, id, workspace_id: workspace });
  });

  return routes;
}
