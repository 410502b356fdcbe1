// deno-lint-ignore-file no-explicit-any -- JSON of the wire, read in tests
/**
 * A tool server written by hand from the remote tools contract (no kit), for
 * the cross-folder tests: it records every request and can misbehave on
 * demand (a status, a delay, a body that is not the contract's).
 *
 * @module
 */
import { type Loopback, serveLoopback } from "../server/testing/loopback.ts";

/** One request the server received. */
export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  auth: string | null;
  body: any;
}

/** How the server answers; change fields between requests. */
export interface Behaviour {
  tools: unknown[];
  context: unknown;
  preview: (body: any) => string;
  output: (body: any) => unknown;
  /** Answer every request with this status and `{error}` instead. */
  failWith?: { status: number; error: string; endpoint?: string };
  /** Wait this long before answering execute. */
  executeDelayMs?: number;
  /** Answer execute with this raw text instead (when it returns a string). */
  rawExecute?: (body: any) => string | undefined;
}

/** The contract's own example tools, one per verb. */
export const CONTRACT_TOOLS = [
  {
    name: "find_task",
    description: "Find tasks by title",
    verb: "get",
    inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  },
  {
    name: "create_task",
    description: "Create a task in the current project",
    verb: "create",
    inputSchema: {
      type: "object",
      properties: { title: { type: "string" } },
      required: ["title"],
    },
  },
  {
    name: "rename_task",
    description: "Rename a task",
    verb: "update",
    inputSchema: {
      type: "object",
      properties: { id: { type: "string" }, title: { type: "string" } },
      required: ["id", "title"],
    },
  },
  {
    name: "delete_task",
    description: "Delete a task",
    verb: "delete",
    inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  },
];

/** A hand-written host server, its requests and its behaviour. */
export interface HandHost extends Loopback {
  seen: Seen[];
  behaviour: Behaviour;
  /** Requests to one endpoint, like "POST /tools/execute". */
  to(endpoint: string): Seen[];
}

/**
 * Starts the hand-written host on loopback.
 *
 * @example
 * ```ts
 * const host = await handHost("s3cret-s3cret-s3cret");
 * ```
 */
export async function handHost(secret: string): Promise<HandHost> {
  const seen: Seen[] = [];
  const behaviour: Behaviour = {
    tools: CONTRACT_TOOLS,
    context: { project: "Apollo", selection: ["task_1"] },
    preview: (b) => `Would ${b.tool} with ${JSON.stringify(b.arguments)}`,
    output: (b) => ({ ok: true, tool: b.tool, arguments: b.arguments }),
  };
  const json = (value: unknown, status = 200) =>
    new Response(JSON.stringify(value), {
      status,
      headers: { "content-type": "application/json" },
    });
  const server = await serveLoopback(async (req) => {
    const url = new URL(req.url);
    const body = req.method === "POST" ? await req.json().catch(() => null) : null;
    const entry = {
      method: req.method,
      path: url.pathname,
      query: url.searchParams,
      auth: req.headers.get("authorization"),
      body,
    };
    seen.push(entry);
    if (entry.auth !== `Bearer ${secret}`) return json({ error: "bad secret" }, 401);
    const endpoint = `${req.method} ${url.pathname}`;
    const fail = behaviour.failWith;
    if (fail && (!fail.endpoint || fail.endpoint === endpoint)) {
      return json({ error: fail.error }, fail.status);
    }
    switch (endpoint) {
      case "GET /tools":
        return json({ tools: behaviour.tools });
      case "GET /context":
        return json(behaviour.context);
      case "POST /tools/preview":
        return json({ preview: behaviour.preview(body) });
      case "POST /tools/execute":
        if (behaviour.executeDelayMs) {
          await new Promise((r) => setTimeout(r, behaviour.executeDelayMs));
        }
        {
          const raw = behaviour.rawExecute?.(body);
          if (raw !== undefined) return new Response(raw);
        }
        return json({ output: behaviour.output(body) });
    }
    return json({ error: "no such endpoint" }, 404);
  });
  return {
    ...server,
    seen,
    behaviour,
    to: (endpoint) => seen.filter((s) => `${s.method} ${s.path}` === endpoint),
  };
}
