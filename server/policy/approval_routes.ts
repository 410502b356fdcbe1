/**
 * The operator inbox of the embedded engine, at two addresses with one
 * logic behind them:
 *
 * - Tether's own, `GET /api/approvals` and `POST /api/approvals/{id}/decision`,
 *   answering in Tether's error shape and adding `seconds_left`;
 * - Zentinelle's, `GET /api/zentinelle/v1/approvals/requests` and
 *   `POST /api/zentinelle/v1/approvals/requests/{id}/decision`, answering
 *   exactly as Zentinelle does (its bodies, its 400, 401, 403, 404 and 409),
 *   so an operator tool written for Zentinelle works against Tether.
 *
 * Only a principal with the `admin` or `operator` role may use them, so a
 * session's own client, which has neither, cannot approve its own calls. An
 * operator sees and decides only the calls of its own workspace's sessions
 * (another's are unknown to it: 404); requests opened by external agents
 * through the policy service belong to no workspace and only an `admin`
 * decides them. Nobody decides a call they made themselves, unless
 * `POLICY__SELF_APPROVAL=allow` (the default under `trusted_local`, where
 * every caller is the one local principal and the admin token is what sets
 * the operator apart). Tether's own inbox says who asked (`requested_by`).
 * What an entry shows of the call follows the capture mode
 * (`POLICY__CONTENT_CAPTURE`, `full` by default): the input whole, or
 * `input_withheld`, and then an approve is refused (409) and a deny taken.
 *
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { TetherError } from "../http/errors.ts";
import { readText } from "../http/body.ts";
import type { Principal } from "../http/principal.ts";
import { ApprovalConflict, type ApprovalRecord } from "./approvals.ts";
import type { LocalPolicyEngine } from "./local_engine.ts";
import type { PolicyRuntime } from "./setup.ts";

/** A decision is a word and a reason: its body is read up to this many bytes. */
const DECISION_MAX_BYTES = 65_536;

/** What the routes read of the engine: the policy, its default workspace and access mode, and the sessions (to withdraw a stale hold). */
interface EngineView {
  policy: PolicyRuntime | null;
  options: { remoteTools: { workspace: string }; access: { mode: string } };
  repo: { load(id: string): Promise<{ record: { pending_action: HeldView | null } } | null> };
}
interface HeldView {
  tool_call_id: string;
  queued: { call_id: string }[];
}
type Env = { Variables: { principal: Principal; engine: EngineView } };

/** Which address the routes answer at, and so in whose words. */
export type InboxDialect = "tether" | "zentinelle";

const isOperator = (p: Principal) => p.roles.includes("admin") || p.roles.includes("operator");
const iso = (ms: number) => new Date(ms).toISOString();

/** Whether a principal may see and decide a request: admins all, operators their workspace's. */
function inScope(p: Principal, r: ApprovalRecord, defaultWorkspace: string): boolean {
  if (p.roles.includes("admin")) return true;
  const by = r.opened_by;
  if (by?.kind !== "session") return false;
  return (by.workspace ?? defaultWorkspace) === (p.workspace ?? defaultWorkspace);
}

/** Whether a principal deciding `r` would approve its own call, and that is not allowed here. */
function selfApproval(c: Context<Env>, r: ApprovalRecord): boolean {
  const by = r.opened_by;
  if (by?.kind !== "session" || by.principal !== c.get("principal").id) return false;
  const engine = c.get("engine");
  const allowed = engine.policy?.options.selfApproval ??
    engine.options.access.mode === "trusted_local";
  return !allowed;
}

/** The refusals of one dialect. */
interface Refuse {
  self(): never;
  role(c: Context<Env>): never;
  off(): never;
  body(issues: Record<string, string[]>, message: string): never;
  conflict(error: ApprovalConflict): never;
}

/** A refusal already shaped as Zentinelle answers it. */
class ZentinelleRefusal extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;
  constructor(status: number, body: Record<string, unknown>) {
    super(JSON.stringify(body));
    this.status = status;
    this.body = body;
  }
}

const SELF = "You asked for this call yourself, so another operator must decide it " +
  "(POLICY__SELF_APPROVAL=allow lets a principal approve its own calls).";

const TETHER: Refuse = {
  self() {
    throw new TetherError(403, "forbidden", SELF);
  },
  role() {
    throw new TetherError(
      403,
      "forbidden",
      "Only an admin or operator may see or decide approvals; sign in with the admin token.",
    );
  },
  off() {
    throw new TetherError(
      404,
      "not_found",
      "Approvals are decided in Zentinelle here (POLICY__BACKEND is zentinelle), not in Tether.",
    );
  },
  body(issues, message) {
    throw new TetherError(422, "validation", message, {
      issues: Object.entries(issues).map(([path, m]) => ({ path, message: m[0] })),
    });
  },
  conflict(error) {
    throw new TetherError(
      error.status,
      error.status === 404 ? "not_found" : "conflict",
      error.message,
    );
  },
};

const ZENTINELLE: Refuse = {
  self() {
    throw new ZentinelleRefusal(403, { detail: SELF });
  },
  role(c) {
    // A workload key is no portal credential: Zentinelle answers 401, a viewer 403.
    if (c.req.header("x-zentinelle-key")) {
      throw new ZentinelleRefusal(401, {
        detail: "Authentication credentials were not provided.",
      });
    }
    throw new ZentinelleRefusal(403, {
      detail: "You do not have permission to perform this action.",
    });
  },
  off() {
    throw new ZentinelleRefusal(404, { detail: "Not found." });
  },
  body(issues) {
    throw new ZentinelleRefusal(400, issues);
  },
  conflict(error) {
    throw new ZentinelleRefusal(
      error.status,
      error.status === 404
        ? { error: "Approval request not found" }
        : { error: `Approval request is ${error.current ?? "decided"}, not pending` },
    );
  },
};

/**
 * The requests whose call this runtime still holds. A request the runtime's own gate opened
 * (its harness, a session of this runtime) whose session no longer waits on that call is left
 * out; requests other agent hosts opened through the contract's routes are kept.
 */
async function stillHeld(c: Context<Env>, requests: ApprovalRecord[]): Promise<ApprovalRecord[]> {
  const engine = c.get("engine");
  const harness = engine.policy?.gate.harness;
  const kept: ApprovalRecord[] = [];
  for (const r of requests) {
    const session = r.context.session_id;
    const call = r.context.tool_call_id;
    if (r.context.harness !== harness || typeof session !== "string" || typeof call !== "string") {
      kept.push(r);
      continue;
    }
    const pending = (await engine.repo.load(session))?.record.pending_action;
    const waits = pending &&
      (pending.tool_call_id === call || pending.queued.some((q) => q.call_id === call));
    if (waits) kept.push(r);
  }
  return kept;
}

function engineOf(c: Context<Env>, refuse: Refuse): LocalPolicyEngine {
  if (!isOperator(c.get("principal"))) refuse.role(c);
  const local = c.get("engine").policy?.local;
  if (!local) refuse.off();
  return local;
}

/** Who asked, for Tether's inbox: a session's principal, or an agent whose user and session are its own word. */
function requestedBy(r: ApprovalRecord, defaultWorkspace: string): Record<string, unknown> {
  const by = r.opened_by;
  if (by?.kind === "session") {
    return {
      kind: "session",
      principal: by.principal,
      workspace: by.workspace ?? defaultWorkspace,
    };
  }
  return {
    kind: "agent",
    agent_id: by?.kind === "agent" ? by.agent_id : r.agent_id,
    // Named by the agent itself, unchecked by Tether.
    unverified: ["user_id", "context"],
  };
}

function entry(
  r: ApprovalRecord,
  dialect: InboxDialect,
  now: number,
  defaultWorkspace: string,
): Record<string, unknown> {
  const common = {
    request_id: r.request_id,
    agent_id: r.agent_id,
    user_id: dialect === "zentinelle" ? r.user_id ?? "" : r.user_id,
    action: r.action,
    context: r.context,
    reason: r.reason,
    trace_id: r.trace_id ?? null,
    expires_at: iso(r.expires_at),
    created_at: iso(r.created_at),
  };
  // Tether's own inbox adds the time left, so a page need not trust its own clock.
  return dialect === "zentinelle" ? common : {
    ...common,
    requested_by: requestedBy(r, defaultWorkspace),
    seconds_left: Math.max(0, Math.ceil((r.expires_at - now) / 1000)),
  };
}

/** Reads `{decision, reason?}` as Zentinelle's decision serializer does; returns the issues per field. */
function readDecision(body: unknown): {
  decision?: "approve" | "deny";
  reason: string;
  issues: Record<string, string[]>;
} {
  const issues: Record<string, string[]> = {};
  const b =
    (typeof body === "object" && body !== null && !Array.isArray(body) ? body : {}) as Record<
      string,
      unknown
    >;
  let decision: "approve" | "deny" | undefined;
  if (!("decision" in b)) issues.decision = ["This field is required."];
  else if (b.decision === "approve" || b.decision === "deny") decision = b.decision;
  else issues.decision = [`"${String(b.decision)}" is not a valid choice.`];
  let reason = "";
  if ("reason" in b) {
    if (b.reason === null) issues.reason = ["This field may not be null."];
    else if (typeof b.reason !== "string" && typeof b.reason !== "number") {
      issues.reason = ["Not a valid string."];
    } else {
      reason = String(b.reason).trim();
      if (reason.length > 1_000) {
        issues.reason = ["Ensure this field has no more than 1000 characters."];
      }
    }
  }
  return { decision, reason, issues };
}

/**
 * The routes: mount the `tether` dialect at `/api/approvals` and the
 * `zentinelle` one at `/api/zentinelle/v1/approvals/requests`, both behind
 * the runtime's access checks.
 *
 * @example
 * ```ts
 * app.route("/api/approvals", approvalRoutes());
 * app.route("/api/zentinelle/v1/approvals/requests", approvalRoutes("zentinelle"));
 * ```
 */
export function approvalRoutes(dialect: InboxDialect = "tether"): Hono<Env> {
  const app = new Hono<Env>();
  const refuse = dialect === "zentinelle" ? ZENTINELLE : TETHER;
  app.onError((error, c) => {
    if (error instanceof ZentinelleRefusal) return c.json(error.body, error.status as 400);
    throw error;
  });

  app.get("/", async (c) => {
    const engine = engineOf(c, refuse);
    const now = engine.approvals.now();
    const dflt = c.get("engine").options.remoteTools.workspace;
    let pending = (await engine.approvals.pending())
      .filter((r) => inScope(c.get("principal"), r, dflt));
    // Tether's own inbox withdraws a request its conversation moved past (a newer message
    // superseded the call, the session was deleted): approving it would release nothing.
    if (dialect === "tether") pending = await stillHeld(c, pending);
    const requests = pending.map((r) => entry(r, dialect, now, dflt));
    return c.json({ requests });
  });

  app.post("/:id/decision", async (c) => {
    const engine = engineOf(c, refuse);
    let raw: unknown;
    try {
      raw = JSON.parse(await readText(c.req.raw, DECISION_MAX_BYTES));
    } catch (error) {
      // Too large, too slow or too many at once: refused as the body reader says.
      if (error instanceof TetherError) {
        if (dialect === "zentinelle") {
          throw new ZentinelleRefusal(error.status, { detail: error.message });
        }
        throw error;
      }
      if (dialect === "zentinelle") {
        throw new ZentinelleRefusal(400, {
          detail: `JSON parse error - ${(error as Error).message}`,
        });
      }
      throw new TetherError(
        400,
        "validation",
        'Send JSON: {"decision": "approve" | "deny", "reason"?}.',
      );
    }
    const { decision, reason, issues } = readDecision(raw);
    if (!decision || Object.keys(issues).length) {
      refuse.body(
        issues,
        issues.decision
          ? 'decision must be "approve" or "deny".'
          : "reason must be a string of at most 1,000 characters.",
      );
    }
    const held = await engine.approvals.get(c.req.param("id"));
    const dflt = c.get("engine").options.remoteTools.workspace;
    // Another workspace's request is unknown here, as an id that was never issued.
    if (!held || !inScope(c.get("principal"), held, dflt)) {
      refuse.conflict(
        new ApprovalConflict(404, `There is no approval request ${c.req.param("id")}.`),
      );
    }
    if (selfApproval(c, held!)) refuse.self();
    if (dialect === "tether" && held && (await stillHeld(c, [held])).length === 0) {
      throw new TetherError(
        409,
        "conflict",
        `The conversation moved on: ${
          held.context.tool_name ?? "the call"
        } is no longer waiting, so there is nothing to approve.`,
      );
    }
    try {
      return c.json(
        await engine.approvals.decide(
          c.req.param("id"),
          decision!,
          c.get("principal").id,
          reason,
        ),
      );
    } catch (error) {
      if (!(error instanceof ApprovalConflict)) throw error;
      refuse.conflict(error);
    }
  });
  return app;
}
