/**
 * The operator inbox of the embedded engine: `GET /api/approvals` lists the
 * pending requests (reason and time left), `POST /api/approvals/{id}/decision`
 * approves or denies one (409 once decided or expired). Only a principal with
 * the `admin` or `operator` role may use them, so a session's own client,
 * which has neither, cannot approve its own calls.
 *
 * @module
 */
import { Hono } from "hono";
import { TetherError } from "../http/errors.ts";
import type { Principal } from "../http/principal.ts";
import { ApprovalConflict } from "./approvals.ts";
import type { PolicyRuntime } from "./setup.ts";

type Env = { Variables: { principal: Principal; engine: { policy: PolicyRuntime | null } } };

function operatorOnly(principal: Principal): void {
  if (!principal.roles.includes("admin") && !principal.roles.includes("operator")) {
    throw new TetherError(
      403,
      "forbidden",
      "Only an admin or operator may see or decide approvals; sign in with the admin token.",
    );
  }
}

function localEngine(policy: PolicyRuntime | null) {
  if (!policy?.local) {
    throw new TetherError(
      404,
      "not_found",
      "Approvals are decided in Zentinelle here (POLICY__BACKEND is zentinelle), not in Tether.",
    );
  }
  return policy.local;
}

/**
 * The routes, to mount at `/api/approvals` behind the runtime's access checks.
 *
 * @example
 * ```ts
 * app.route("/api/approvals", approvalRoutes());
 * ```
 */
export function approvalRoutes(): Hono<Env> {
  const app = new Hono<Env>();
  app.get("/", async (c) => {
    operatorOnly(c.get("principal"));
    const engine = localEngine(c.get("engine").policy);
    const now = engine.approvals.now();
    const requests = (await engine.approvals.pending()).map((r) => ({
      request_id: r.request_id,
      agent_id: r.agent_id,
      user_id: r.user_id,
      action: r.action,
      context: r.context,
      reason: r.reason,
      created_at: new Date(r.created_at).toISOString(),
      expires_at: new Date(r.expires_at).toISOString(),
      seconds_left: Math.max(0, Math.ceil((r.expires_at - now) / 1000)),
    }));
    return c.json({ requests });
  });

  app.post("/:id/decision", async (c) => {
    const principal = c.get("principal");
    operatorOnly(principal);
    const engine = localEngine(c.get("engine").policy);
    let body: Record<string, unknown>;
    try {
      body = await c.req.json();
    } catch {
      throw new TetherError(
        400,
        "validation",
        'Send JSON: {"decision": "approve" | "deny", "reason"?}.',
      );
    }
    const decision = body?.decision;
    if (decision !== "approve" && decision !== "deny") {
      throw new TetherError(422, "validation", 'decision must be "approve" or "deny".', {
        issues: [{ path: "decision", message: 'use "approve" or "deny"' }],
      });
    }
    const reason = body.reason ?? "";
    if (typeof reason !== "string" || reason.length > 1_000) {
      throw new TetherError(
        422,
        "validation",
        "reason must be a string of at most 1,000 characters.",
        {
          issues: [{ path: "reason", message: "at most 1,000 characters" }],
        },
      );
    }
    try {
      return c.json(
        await engine.approvals.decide(c.req.param("id"), decision, principal.id, reason),
      );
    } catch (error) {
      if (!(error instanceof ApprovalConflict)) throw error;
      throw new TetherError(
        error.status,
        error.status === 404 ? "not_found" : "conflict",
        error.message,
      );
    }
  });
  return app;
}
