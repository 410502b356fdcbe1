/**
 * The host kit: a tool server for the remote tools contract in a few lines.
 * `remoteToolsHost({ secret, tools })` is a Hono app with the four
 * endpoints: the bearer secret checked in constant time, the execution scope
 * parsed and handed to each tool, arguments validated against each tool's
 * schema, and failures in the contract's error format.
 *
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { type JsonSchema, validateJsonSchema, type Verb } from "../../protocol/mod.ts";
import type { ExecutionScope } from "./client.ts";
import { readText } from "../http/body.ts";
import type { TetherError } from "../http/errors.ts";
import { re2Matcher } from "../tools/re2_matcher.ts";

/** A failure a tool reports with its status (400, 403, 404, ...): the message goes to the runtime's log. */
export class HostError extends Error {
  override name = "HostError";
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** One tool of a host. */
export interface HostTool {
  name: string;
  description: string;
  verb: Verb;
  /** A JSON schema of type object. */
  inputSchema: Record<string, unknown>;
  /** What executing would do, in one line, without doing it (default: the tool's description). */
  preview?(args: Record<string, unknown>, scope: ExecutionScope): string | Promise<string>;
  /** Performs the tool; the return value is the `output` (may carry `display` cards). */
  execute(args: Record<string, unknown>, scope: ExecutionScope): unknown | Promise<unknown>;
}

/** What `remoteToolsHost` needs. */
export interface HostOptions {
  /** The shared secret given at registration. */
  secret: string;
  tools: HostTool[];
  /** Grounding context for a scope (default `{}`). */
  context?(scope: ExecutionScope): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Largest request body in bytes (default 1 MB). */
  maxBodyBytes?: number;
}

async function sameSecret(a: string, b: string): Promise<boolean> {
  // Comparing digests keeps the time independent of where the strings differ and of their lengths.
  const digest = async (s: string) =>
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s)));
  const [x, y] = await Promise.all([digest(a), digest(b)]);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

function scopeFromQuery(c: Context): ExecutionScope {
  const workspaceId = c.req.query("workspaceId");
  const externalUserId = c.req.query("externalUserId");
  if (!workspaceId || !externalUserId) {
    throw new HostError(400, "workspaceId and externalUserId are required in the query string");
  }
  return {
    workspaceId,
    externalUserId,
    permissions: c.req.queries("permissions") ?? [],
    requestId: c.req.query("requestId") ?? "",
  };
}

function scopeFromBody(value: unknown): ExecutionScope {
  const e = value as Record<string, unknown> | null;
  const ok = !!e && typeof e === "object" && typeof e.workspaceId === "string" &&
    typeof e.externalUserId === "string" &&
    (e.permissions === undefined ||
      (Array.isArray(e.permissions) && e.permissions.every((p) => typeof p === "string")));
  if (!ok) throw new HostError(400, "execution must carry workspaceId and externalUserId");
  return {
    workspaceId: e!.workspaceId as string,
    externalUserId: e!.externalUserId as string,
    permissions: (e!.permissions as string[] | undefined) ?? [],
    requestId: typeof e!.requestId === "string" ? e!.requestId : "",
  };
}

/**
 * A tool server for the remote tools contract.
 *
 * @example
 * ```ts
 * const host = remoteToolsHost({
 *   secret: Deno.env.get("TOOLS_SECRET")!,
 *   tools: [{
 *     name: "find_task", description: "Find tasks by title.", verb: "get",
 *     inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
 *     execute: ({ q }, scope) => ({ results: search(scope.workspaceId, String(q)) }),
 *   }],
 * });
 * Deno.serve(host.fetch);
 * ```
 */
export function remoteToolsHost(options: HostOptions): Hono {
  const app = new Hono();
  const byName = new Map(options.tools.map((t) => [t.name, t]));
  const maxBody = options.maxBodyBytes ?? 1_000_000;

  app.onError((error, c) => {
    if (error instanceof HostError) return c.json({ error: error.message }, error.status as 400);
    return c.json({ error: "the tool failed on this server" }, 500);
  });
  app.notFound((c) => c.json({ error: `no endpoint ${c.req.method} ${c.req.path}` }, 404));

  app.use("*", async (c, next) => {
    const bearer = c.req.header("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1] ?? "";
    if (!(await sameSecret(bearer, options.secret))) {
      return c.json({ error: "the bearer secret does not match" }, 401);
    }
    await next();
  });

  app.get("/tools", (c) => {
    scopeFromQuery(c);
    return c.json({
      tools: options.tools.map(({ name, description, verb, inputSchema }) => ({
        name,
        description,
        verb,
        inputSchema,
      })),
    });
  });

  app.get("/context", async (c) => c.json(await (options.context?.(scopeFromQuery(c)) ?? {})));

  const call = async (c: Context) => {
    let text: string;
    try {
      // Read up to the cap and no further, whatever the body declares (or does not).
      text = await readText(c.req.raw, maxBody);
    } catch (error) {
      const status = (error as TetherError).status ?? 400;
      throw new HostError(
        status,
        status === 413 ? `the body is over ${maxBody} bytes` : (error as Error).message,
      );
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text);
    } catch {
      throw new HostError(400, "the body is not JSON");
    }
    if (typeof body !== "object" || body === null) {
      throw new HostError(400, "the body must be an object");
    }
    const tool = byName.get(String(body.tool));
    if (!tool) throw new HostError(404, `unknown tool ${String(body.tool).slice(0, 64)}`);
    const args = body.arguments ?? {};
    // Patterns run on RE2 (linear in the text), as the runtime's own checks do: the arguments
    // come from a model, and a backtracking engine could be kept busy for minutes by one.
    const issues = validateJsonSchema(tool.inputSchema as JsonSchema, args, {
      matcher: re2Matcher,
    });
    if (issues.length) {
      throw new HostError(
        400,
        `invalid arguments: ${
          issues.slice(0, 5).map((i) => `${i.path || "(arguments)"}: ${i.message}`).join("; ")
        }`,
      );
    }
    return { tool, args: args as Record<string, unknown>, scope: scopeFromBody(body.execution) };
  };

  app.post("/tools/preview", async (c) => {
    const { tool, args, scope } = await call(c);
    const preview = tool.preview ? await tool.preview(args, scope) : tool.description;
    return c.json({ preview });
  });

  app.post("/tools/execute", async (c) => {
    const { tool, args, scope } = await call(c);
    return c.json({ output: (await tool.execute(args, scope)) ?? null });
  });

  return app;
}
