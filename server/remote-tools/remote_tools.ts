/**
 * The runtime's use of registered tool servers during turns: discovery
 * (tools and context of every integration of the workspace, all requests in
 * parallel), preview and execute. The address of a server is checked again
 * before each use, so a name that now resolves to a private address is
 * refused; a 401 marks the integration's secret as rejected.
 *
 * A tool named like one of the page's actions is refused at discovery: the
 * page's action keeps its name, and the log says which integration's tool
 * was refused for which action. A tool server cannot take over what a click
 * on the page would do.
 *
 * @module
 */
import type { RemoteToolsOptions } from "../config.ts";
import type { Logger } from "../log.ts";
import { resolveBaseUrl } from "./address.ts";
import { callServer, type ExecutionScope, RemoteFailure, scopeQuery } from "./client.ts";
import type { Integration, Integrations } from "./integrations.ts";
import {
  parseContext,
  parseOutput,
  parsePreview,
  parseTools,
  type RemoteToolSpec,
} from "./shapes.ts";

/** A tool offered by an integration in this turn. */
export interface DiscoveredTool extends RemoteToolSpec {
  integrationId: string;
}

/** What one turn learnt from the workspace's tool servers. */
export interface Discovery {
  tools: DiscoveredTool[];
  /** Each integration's context (untrusted data for the prompt). */
  contexts: { integrationId: string; context: Record<string, unknown> }[];
}

/** The call a preview or execute is about. */
export interface RemoteCall {
  integrationId: string;
  tool: string;
  callId: string;
  arguments: Record<string, unknown>;
}

/**
 * Tool servers as turns use them.
 *
 * @example
 * ```ts
 * const remote = new RemoteTools(new Integrations(store), options.remoteTools, logger);
 * const found = await remote.discover(scope, true);
 * ```
 */
export class RemoteTools {
  readonly integrations: Integrations;
  #options: RemoteToolsOptions;
  #logger: Logger;

  constructor(integrations: Integrations, options: RemoteToolsOptions, logger: Logger) {
    this.integrations = integrations;
    this.#options = options;
    this.#logger = logger;
  }

  /**
   * Tools (filtered by each allowlist, none named like one of `pageActions`) and, when asked,
   * contexts of every integration of the workspace.
   */
  async discover(
    scope: ExecutionScope,
    withContext: boolean,
    pageActions: readonly string[] = [],
  ): Promise<Discovery> {
    const all = await this.integrations.list(scope.workspaceId);
    const found: Discovery = { tools: [], contexts: [] };
    if (!all.length) return found;
    const query = scopeQuery(scope);
    const results = await Promise.all(all.map(async (i) => {
      const reachable = this.#reachable(i);
      const [tools, context] = await Promise.allSettled([
        reachable.then((address) => this.#get(i, address, `/tools?${query}`)),
        withContext
          ? reachable.then((address) => this.#get(i, address, `/context?${query}`))
          : null,
      ]);
      return { i, tools, context };
    }));
    const names = new Set<string>();
    const actions = new Set(pageActions);
    for (const { i, tools, context } of results) {
      if (tools.status === "fulfilled") {
        try {
          const { tools: specs, skipped } = parseTools(tools.value);
          if (skipped.length) {
            this.#logger.warn("remote tools skipped", { integration: i.id, skipped });
          }
          for (const spec of specs) {
            if (i.allowed_tools.length && !i.allowed_tools.includes(spec.name)) continue;
            if (actions.has(spec.name)) {
              this.#logger.warn(
                `remote tool ${spec.name} of integration ${i.id} has the name of the page action ${spec.name}: the tool is refused, the page action keeps its name`,
                { integration: i.id, tool: spec.name, page_action: spec.name },
              );
              continue;
            }
            if (names.has(spec.name)) {
              this.#logger.warn("remote tool name taken by another integration", {
                integration: i.id,
                tool: spec.name,
              });
              continue;
            }
            names.add(spec.name);
            found.tools.push({ ...spec, integrationId: i.id });
          }
        } catch (error) {
          await this.#failed(i, "GET /tools", error);
        }
      } else await this.#failed(i, "GET /tools", tools.reason);
      if (!withContext) continue;
      if (context.status === "fulfilled") {
        try {
          found.contexts.push({ integrationId: i.id, context: parseContext(context.value) });
        } catch (error) {
          await this.#failed(i, "GET /context", error);
        }
      } else await this.#failed(i, "GET /context", context.reason);
    }
    return found;
  }

  /** The preview text of a call; throws `RemoteFailure`. */
  async preview(call: RemoteCall, scope: ExecutionScope, signal?: AbortSignal): Promise<string> {
    return await this.#post(call, "/tools/preview", scope, parsePreview, signal);
  }

  /** Runs a call and returns its output; throws `RemoteFailure`. */
  async execute(call: RemoteCall, scope: ExecutionScope, signal?: AbortSignal): Promise<unknown> {
    return await this.#post(call, "/tools/execute", scope, parseOutput, signal);
  }

  async #post<T>(
    call: RemoteCall,
    path: string,
    scope: ExecutionScope,
    parse: (body: unknown) => T,
    signal?: AbortSignal,
  ): Promise<T> {
    const integration = await this.integrations.get(scope.workspaceId, call.integrationId);
    if (!integration) {
      throw new RemoteFailure("network", `the integration ${call.integrationId} was removed`);
    }
    try {
      const address = await this.#reachable(integration);
      const body = await callServer(
        integration,
        address,
        "POST",
        path,
        {
          tool: call.tool,
          callId: call.callId,
          arguments: call.arguments,
          execution: scope,
        },
        this.#options.timeoutMs,
        signal,
      );
      return parse(body);
    } catch (error) {
      await this.#failed(integration, `POST ${path}`, error);
      throw error instanceof RemoteFailure || signal?.aborted
        ? error
        : new RemoteFailure("shape", (error as Error).message);
    }
  }

  #get(i: Integration, address: string, path: string): Promise<unknown> {
    return callServer(i, address, "GET", path, null, this.#options.timeoutMs);
  }

  /** Checks the integration's address again (names move) and returns the address to connect to. */
  async #reachable(i: Integration): Promise<string> {
    try {
      const { allowedHosts, resolve } = this.#options;
      return (await resolveBaseUrl(i.base_url, allowedHosts, resolve)).address;
    } catch (error) {
      throw new RemoteFailure("network", (error as Error).message);
    }
  }

  /** Logs a failure with the status and the server's own error text; a 401 marks the secret rejected. */
  async #failed(i: Integration, endpoint: string, error: unknown): Promise<void> {
    const f = error instanceof RemoteFailure ? error : null;
    this.#logger.warn("remote tool server failed", {
      integration: i.id,
      endpoint,
      reason: f?.reason ?? "shape",
      status: f?.status ?? null,
      host_error: f?.hostError ?? null,
      detail: (error as Error)?.message ?? String(error),
    });
    if (f?.status === 401) await this.integrations.markRejected(i.workspace_id, i.id);
  }
}
