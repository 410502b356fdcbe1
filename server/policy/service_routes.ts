/**
 * Tether as a local policy service: the contract's own routes,
 * `POST /api/zentinelle/v1/evaluate` and
 * `GET /api/zentinelle/v1/approvals/requests/{request_id}`, answered by the
 * embedded engine for other agent hosts, authenticated by `X-Zentinelle-Key`
 * against `POLICY__AGENT_KEYS`.
 *
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { checkEvaluateBody } from "./context.ts";
import { fullAnswer } from "./contract.ts";
import type { PolicyRuntime } from "./setup.ts";
import { sameText } from "./token.ts";

const MAX_BODY_CHARS = 1_048_576;

/** The agent id a key belongs to, comparing every key in constant time. */
function agentFor(keys: Record<string, string>, presented: string | undefined): string | null {
  let found: string | null = null;
  for (const [key, agent] of Object.entries(keys)) {
    if (sameText(key, presented ?? "") && presented) found = agent;
  }
  return found;
}

/**
 * The routes, to mount at `/api/zentinelle/v1` ahead of the runtime's own access checks.
 *
 * @example
 * ```ts
 * app.route("/api/zentinelle/v1", policyServiceRoutes(async () => (await engine()).policy!));
 * ```
 */
export function policyServiceRoutes(policy: () => Promise<PolicyRuntime | null>): Hono {
  const app = new Hono();
  const caller = async (c: Context) => {
    const p = await policy();
    if (!p?.local) {
      return {
        refusal: c.json({
          error: "Tether's policy service is off here (POLICY__BACKEND is not local).",
        }, 404),
      };
    }
    const agent = agentFor(p.options.agentKeys, c.req.header("x-zentinelle-key"));
    if (!agent) {
      return {
        refusal: c.json({
          error: "X-Zentinelle-Key is missing or unknown; use a key listed in POLICY__AGENT_KEYS.",
        }, 401),
      };
    }
    return { engine: p.local, agent };
  };

  app.post("/evaluate", async (c) => {
    const who = await caller(c);
    if (who.refusal) return who.refusal;
    const text = await c.req.text();
    if (text.length > MAX_BODY_CHARS) {
      return c.json({ error: `The request is larger than ${MAX_BODY_CHARS} characters.` }, 413);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      return c.json({ error: "The request body is not JSON." }, 400);
    }
    const body = checkEvaluateBody(raw);
    if ("error" in body) return c.json(body, 400);
    if (body.agent_id !== undefined && body.agent_id !== who.agent) {
      return c.json({ error: "agent_id does not match the key.", agent_id: [who.agent] }, 403);
    }
    const answer = await who.engine.evaluate(body, who.agent);
    return c.json(fullAnswer(body, who.agent, answer));
  });

  app.get("/approvals/requests/:id", async (c) => {
    const who = await caller(c);
    if (who.refusal) return who.refusal;
    const status = await who.engine.approval(c.req.param("id"), who.agent);
    // Another key's request and an unknown one look the same: 404.
    if (!status) return c.json({ error: "There is no such approval request for this key." }, 404);
    return c.json(status);
  });
  return app;
}
