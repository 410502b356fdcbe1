/**
 * A fake Zentinelle for tests, on loopback, following the agent host
 * contract to the letter: `POST /api/zentinelle/v1/evaluate` and
 * `GET /api/zentinelle/v1/approvals/requests/{id}` with `X-Zentinelle-Key`,
 * ask → an approval request, approved → a single-use token bound to the
 * exact context, and its failure answers on demand: no answer in time, 503
 * with the structured deny body, a garbage body, `allowed` without
 * `decision`, and (closed) a refused connection.
 *
 * @module
 */
import { Hono } from "hono";
import { canonicalJson } from "../token.ts";
import { serveLoopback } from "../../testing/loopback.ts";

/** How the fake answers /evaluate. */
export type FakeMode = "normal" | "timeout" | "unavailable" | "garbage" | "no_decision";

interface FakeRequest {
  id: string;
  key: string;
  binding: string;
  status: "pending" | "approved" | "denied" | "expired";
  token?: string;
  used?: boolean;
  reason?: string;
}

/** A running fake. */
export interface FakeZentinelle {
  url: string;
  key: string;
  mode: FakeMode;
  /** The decision per tool name (default allow). */
  decisions: Record<string, "allow" | "deny" | "ask">;
  /** Every evaluation body received, in order. */
  received: Record<string, unknown>[];
  /** Approval requests opened, by id. */
  requests: Map<string, FakeRequest>;
  approve(id: string): void;
  deny(id: string, reason: string): void;
  expire(id: string): void;
  close(): Promise<void>;
}

const binding = (context: Record<string, unknown>) => {
  const { approval_token: _a, request_id: _r, trace_id: _t, ...rest } = context;
  return canonicalJson(rest);
};

/**
 * Starts a fake Zentinelle on 127.0.0.1 (a free port).
 *
 * @example
 * ```ts
 * const z = await fakeZentinelle();
 * z.decisions.Bash = "ask";
 * await z.close();
 * ```
 */
export async function fakeZentinelle(key = "sk_agent_fake_0123456789"): Promise<FakeZentinelle> {
  const app = new Hono();
  const expiry = () => new Date(Date.now() + 300_000).toISOString();
  const state: Omit<FakeZentinelle, "url" | "close"> = {
    key,
    mode: "normal",
    decisions: {},
    received: [],
    requests: new Map(),
    approve(id) {
      const r = state.requests.get(id)!;
      r.status = "approved";
      r.token = `tok_${crypto.randomUUID()}`;
    },
    deny(id, reason) {
      Object.assign(state.requests.get(id)!, { status: "denied", reason });
    },
    expire(id) {
      Object.assign(state.requests.get(id)!, {
        status: "expired",
        reason: "No approval arrived before the request expired",
      });
    },
  };
  const unauthorized = { error: "Authentication credentials were not provided or are invalid." };
  app.post("/api/zentinelle/v1/evaluate", async (c) => {
    const presented = c.req.header("x-zentinelle-key");
    if (presented !== state.key) return c.json(unauthorized, 401);
    const body = await c.req.json();
    state.received.push(body);
    if (state.mode === "timeout") return new Promise<Response>(() => {});
    if (state.mode === "unavailable") {
      return c.json({
        decision: "deny",
        allowed: false,
        reason: "Policy evaluation unavailable",
        policies_evaluated: [],
      }, 503);
    }
    if (state.mode === "garbage") return c.body("<html>upstream error</html>", 200);
    if (state.mode === "no_decision") return c.json({ allowed: true, reason: null }, 200);
    const ctx = body?.context ?? {};
    const missing: Record<string, string[]> = {};
    for (const f of ["harness", "session_id", "tool_name"]) {
      if (typeof ctx[f] !== "string" || !ctx[f]) missing[f] = ["This field is required."];
    }
    if (Object.keys(missing).length) {
      return c.json({ error: "Invalid agent host tool_call context", context: missing }, 400);
    }
    const shape = (decision: "allow" | "deny" | "ask", reason: string | null, extra = {}) => ({
      contract_version: "1",
      action: "tool_call",
      resource: { type: "tool", id: ctx.tool_name },
      decision,
      allowed: decision === "allow",
      reason,
      policies_evaluated: [],
      warnings: [],
      output_filter_required: false,
      ...extra,
    });
    const wanted = state.decisions[ctx.tool_name] ?? "allow";
    if (wanted === "deny") {
      return c.json(shape("deny", `Tool '${ctx.tool_name}' is explicitly denied`));
    }
    if (wanted === "allow") return c.json(shape("allow", null));
    if (typeof ctx.approval_token === "string") {
      const r = [...state.requests.values()].find((q) => q.token === ctx.approval_token);
      if (!r || r.used || r.key !== presented || r.binding !== binding(ctx)) {
        return c.json(shape("deny", "Approval token is invalid, used, or for another call"));
      }
      r.used = true;
      return c.json(shape("allow", null));
    }
    const id = crypto.randomUUID();
    state.requests.set(id, { id, key: presented, binding: binding(ctx), status: "pending" });
    return c.json(
      shape(
        "ask",
        `Tool '${ctx.tool_name}' requires approval. Request approval before proceeding.`,
        {
          approval: {
            request_id: id,
            status: "pending",
            expires_at: expiry(),
            timeout_seconds: 300,
          },
        },
      ),
    );
  });
  app.get("/api/zentinelle/v1/approvals/requests/:id", (c) => {
    const presented = c.req.header("x-zentinelle-key");
    if (presented !== state.key) return c.json(unauthorized, 401);
    const r = state.requests.get(c.req.param("id"));
    if (!r || r.key !== presented) return c.json({ error: "Not found." }, 404);
    return c.json({
      request_id: r.id,
      status: r.status,
      expires_at: expiry(),
      ...(r.status === "approved"
        ? { approval_token: r.token, approval_expires_at: expiry() }
        : {}),
      ...(r.reason ? { reason: r.reason } : {}),
    });
  });
  const server = await serveLoopback(app.fetch);
  return Object.assign(state, {
    url: server.url,
    close: () => server.close(),
  }) as FakeZentinelle;
}

/**
 * A loopback URL where nothing listens (a server started, then closed): connection refused.
 *
 * @example
 * ```ts
 * const url = await refusedUrl();
 * ```
 */
export async function refusedUrl(): Promise<string> {
  const z = await fakeZentinelle();
  await z.close();
  return z.url;
}
