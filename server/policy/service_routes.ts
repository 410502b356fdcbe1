/**
 * Tether as a local policy service: Zentinelle's agent-facing routes,
 * `POST /api/zentinelle/v1/evaluate` and
 * `GET /api/zentinelle/v1/approvals/requests/{request_id}`, answered by the
 * embedded engine for other agent hosts, authenticated by `X-Zentinelle-Key`
 * against `POLICY__AGENT_KEYS`. They accept what Zentinelle accepts and
 * answer what it answers: its validation and its bodies (DRF's
 * `{"detail": ...}` for 401, field lists for 400, `Agent ID mismatch` for
 * 403), its full evaluate answer with `enforcement`, and a structured 503
 * deny when evaluation fails. (The operator routes beside them are in
 * `approval_routes.ts`, behind the runtime's own access checks.)
 *
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { checkEvaluateBody } from "./context.ts";
import { fullAnswer, type Subject, supplyContext, unavailableAnswer } from "./contract.ts";
import { normalizeContext } from "./evaluation_context.ts";
import type { PolicyRuntime } from "./setup.ts";
import { sameText } from "./token.ts";
import { readText } from "../http/body.ts";
import type { TetherError } from "../http/errors.ts";

const MAX_BODY_BYTES = 1_048_576;

/** An answer: the status and the JSON body. */
export interface ServiceAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** The agent id a key belongs to, comparing every key in constant time. */
function agentFor(keys: Record<string, string>, presented: string): string | null {
  let found: string | null = null;
  for (const [key, agent] of Object.entries(keys)) {
    if (sameText(key, presented)) found = agent;
  }
  return found;
}

const endpoints = new Map<string, string>();

/** A stable endpoint id per agent (Zentinelle's `subject.endpoint_id`), from a digest of its id. */
async function endpointId(agentId: string): Promise<string> {
  const known = endpoints.get(agentId);
  if (known) return known;
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`tether-endpoint:${agentId}`)),
  );
  const hex = [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${
    hex.slice(20, 32)
  }`;
  if (endpoints.size > 1_000) endpoints.clear();
  endpoints.set(agentId, id);
  return id;
}

/**
 * Who a key is, or the 401 Zentinelle gives: no key, a key not shaped like
 * an agent key, or an unknown one.
 *
 * @example
 * ```ts
 * const who = authenticateKey(policy.options.agentKeys, c.req.header("x-zentinelle-key"));
 * ```
 */
export function authenticateKey(
  keys: Record<string, string>,
  presented: string | undefined,
): { agent: string } | ServiceAnswer {
  if (!presented) {
    return { status: 401, body: { detail: "Authentication credentials were not provided." } };
  }
  if (!presented.startsWith("sk_agent_")) {
    return { status: 401, body: { detail: "Invalid API key format" } };
  }
  const agent = agentFor(keys, presented);
  return agent ? { agent } : { status: 401, body: { detail: "Invalid API key" } };
}

/**
 * Answers one evaluation request from an agent (already authenticated), as
 * `POST /api/zentinelle/v1/evaluate` does: the tests call it in process.
 *
 * @example
 * ```ts
 * const { status, body } = await evaluateRequest(policy, "agent-a", { action: "tool_call", context });
 * ```
 */
export async function evaluateRequest(
  policy: PolicyRuntime,
  agent: string,
  raw: unknown,
): Promise<ServiceAnswer> {
  const engine = policy.local!;
  const checked = checkEvaluateBody(raw, agent);
  if (!checked.ok) return checked.refusal;
  const traceId = crypto.randomUUID();
  const supplied = supplyContext(checked.body.action, checked.body.context, traceId);
  const subject: Subject = {
    agentId: agent,
    endpointId: await endpointId(agent),
    userId: checked.body.user_id,
  };
  const body = { ...checked.body, context: supplied as typeof checked.body.context };
  try {
    const core = await engine.evaluate(body, agent, { traceId });
    const normalized = normalizeContext(supplied);
    const evaluated = {
      ...(normalized.ok ? normalized.context : supplied),
      taxonomy: { supported: [], unsupported: [] },
    };
    return {
      status: 200,
      body: fullAnswer(subject, body.action, supplied, evaluated, core, traceId),
    };
  } catch (error) {
    // An outage is never an implicit allow, nor an unstructured 500.
    policy.logger?.error("policy evaluation unavailable", { trace_id: traceId, error });
    return { status: 503, body: unavailableAnswer(subject, body.action, supplied, traceId) };
  }
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
  const send = (c: Context, answer: ServiceAnswer) => {
    if (answer.status === 401) c.header("www-authenticate", "X-Zentinelle-Key");
    return c.json(answer.body, answer.status as 200);
  };
  const caller = async (c: Context) => {
    const p = await policy();
    if (!p?.local) {
      // Tether serves these routes only with its own engine; with Zentinelle behind it there is nothing here.
      return { refusal: { status: 404, body: { detail: "Not found." } } };
    }
    const who = authenticateKey(p.options.agentKeys, c.req.header("x-zentinelle-key"));
    if ("status" in who) return { refusal: who };
    return { policy: p, agent: who.agent };
  };

  app.post("/evaluate", async (c) => {
    const who = await caller(c);
    if (who.refusal) return send(c, who.refusal);
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/json\b/i.test(type.trim())) {
      return send(c, {
        status: 415,
        body: { detail: `Unsupported media type "${type}" in request.` },
      });
    }
    let text: string;
    try {
      // Read under a byte cap and the runtime's share of body reads, never whole first.
      text = await readText(c.req.raw, MAX_BODY_BYTES);
    } catch (error) {
      const status = (error as TetherError).status ?? 400;
      return send(c, {
        status,
        body: {
          detail: status === 413
            ? `The request is larger than ${MAX_BODY_BYTES} bytes.`
            : (error as Error).message,
        },
      });
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      return send(c, {
        status: 400,
        body: { detail: `JSON parse error - ${(error as Error).message}` },
      });
    }
    return send(c, await evaluateRequest(who.policy!, who.agent!, raw));
  });

  app.get("/approvals/requests/:id", async (c) => {
    const who = await caller(c);
    if (who.refusal) return send(c, who.refusal);
    const status = await who.policy!.local!.approval(c.req.param("id"), who.agent!);
    // Another key's request and an unknown one look the same: 404.
    if (!status) return send(c, { status: 404, body: { error: "Approval request not found" } });
    return c.json(status);
  });
  return app;
}
