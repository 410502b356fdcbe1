/**
 * A Zentinelle on loopback for tests, rebuilt from Zentinelle's own sources
 * (calliopeai/zentinelle: `api/views/evaluate.py`, `api/views/approvals.py`,
 * `api/serializers.py`, `api/auth.py`, `services/approvals.py`,
 * `services/boundary_contract.py`, `services/content_capture.py`,
 * `services/otlp.py`, and the policy engine in `_engine.ts`), not from what
 * Tether sends:
 *
 * - keys: `X-Zentinelle-Key`, `sk_agent_` keys of registered endpoints, each
 *   with its agent type and tenant; DRF's 401 bodies (`{"detail": ...}`);
 * - `POST /api/zentinelle/v1/evaluate`: the serializers' validation and 400
 *   bodies, `agent_id` checked against the key (403), aliases of `action`,
 *   the host context check for agent hosts, the full answer, approval
 *   requests for agent hosts only, the structured 503 on an outage;
 * - `GET /api/zentinelle/v1/approvals/requests/{id}`: only the requesting
 *   endpoint sees it (404 otherwise), `expires_at` fixed when it opened, a
 *   token signed per read and bound to the granted approval;
 * - an operator's decision (`decide()`, the portal's view logic: 404 outside
 *   the tenant, 409 once decided or expired), granting a single-use approval
 *   that lives for the policies' window;
 * - `POST /api/zentinelle/v1/otlp/v1/traces`: JSON only (415), the whole
 *   batch validated first (400), retries idempotent, conflicting replays 409;
 * - `release`: `current`, `pre-384` (answers without `enforcement`, old
 *   tool_permission order) or `pre-377` (requires `agent_id`, answers
 *   without `decision`, no holds, no approval routes);
 * - `failure`: `timeout`, `unavailable` (the engine raises: 503), `garbage`
 *   (an HTML 200), `no_decision` (a 200 with `allowed` only).
 *
 * Test support only: it lives under tests/, never in a package.
 *
 * @module
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { serveLoopback } from "../../server/testing/loopback.ts";
import {
  approvalTimeout,
  type DoublePolicy,
  evaluate,
  type Evaluation,
  type Grant,
  type GrantBook,
  REFUSAL_ENFORCEMENT,
  type Release,
} from "./_engine.ts";
import { OtlpRejected, type SpanEvent, traceEvents } from "./_otlp.ts";

export type { DoublePolicy, Release };

/** The standalone tenant Zentinelle's portal sessions resolve to. */
export const TENANT = "00000000-0000-0000-0000-000000000001";

/** How the double fails /evaluate on purpose. */
export type Failure = "none" | "timeout" | "unavailable" | "garbage" | "no_decision";

/** A registered endpoint. */
export interface Endpoint {
  id: string;
  agent_id: string;
  agent_type: string;
  tenant_id: string;
  key: string;
}

/** A held call (`ApprovalRequest`). */
export interface HeldRequest {
  id: string;
  tenant_id: string;
  endpoint_id: string;
  subject: string;
  action: string;
  digest: string;
  context: Record<string, unknown>;
  reason: string;
  trace_id: string;
  created_at: number;
  expires_at: number;
  status: "pending" | "approved" | "denied";
  decided_by?: string;
  decided_at?: number;
  decision_reason?: string;
  grant?: Grant;
}

/** An evaluation Zentinelle recorded as an event of the endpoint. */
export interface RecordedEvent {
  endpoint: string;
  event_type: string;
  payload: Record<string, unknown>;
}

/** A running double. */
export interface ZentinelleDouble {
  url: string;
  /** The default endpoint's key (an agent host, `agenthost-dev`). */
  key: string;
  release: Release;
  failure: Failure;
  policies: DoublePolicy[];
  /** `content_capture_mode` of the tenant: what held requests and events keep. */
  captureMode: "metadata" | "redacted" | "full";
  /** Every /evaluate body received, with the key's agent id. */
  received: { agent_id: string | null; body: Record<string, unknown> }[];
  /** The evaluations recorded, in order. */
  events: RecordedEvent[];
  /** The telemetry events the OTLP receiver stored. */
  spans: SpanEvent[];
  requests: Map<string, HeldRequest>;
  /** Registers another endpoint; returns its key. */
  register(agentId: string, agentType?: string, tenant?: string): string;
  /** An operator's decision, as the portal's decision view makes it. */
  decide(
    id: string,
    decision: "approve" | "deny",
    reason?: string,
    tenant?: string,
  ): { status: number; body: Record<string, unknown> };
  /** The operator's list (pending, unexpired, newest first, at most 100). */
  list(tenant?: string): Record<string, unknown>[];
  approve(id: string): void;
  deny(id: string, reason: string): void;
  /** Moves the double's clock forward. */
  advance(ms: number): void;
  now(): number;
  close(): Promise<void>;
}

const CONTENT_KEYS = new Set([
  "input",
  "output",
  "input_text",
  "output_text",
  "input_content",
  "output_content",
  "request_body",
  "response_body",
  "messages",
  "prompt",
  "system_prompt",
  "tool_args",
  "tool_input",
  "tool_calls",
  "tool_outputs",
  "rag_context",
  "extracted_text",
  "content",
]);
const SECRET_KEYS = new Set([
  "api_key",
  "apikey",
  "authorization",
  "password",
  "secret",
  "token",
  "approval_token",
]);

/** `capture_payload` (keys only): content goes under metadata, secrets and internals always. */
function capture(value: unknown, mode: string): unknown {
  if (Array.isArray(value)) return value.map((v) => capture(v, mode));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_KEYS.has(k.toLowerCase()) || k.startsWith("_")) continue;
      if (mode === "metadata" && CONTENT_KEYS.has(k.toLowerCase())) continue;
      out[k] = capture(v, mode);
    }
    return out;
  }
  return value;
}

/** Django REST framework's datetime output: ISO 8601 with microseconds and `Z`. */
const drfTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

// ---- DRF field rules (serializers.CharField and friends), written from DRF's behaviour ----

type FieldRule = { required?: boolean; blank?: boolean; max?: number; pattern?: RegExp };

function charField(data: Record<string, unknown>, name: string, rule: FieldRule): {
  value?: string;
  error?: string[];
} {
  if (!(name in data)) return rule.required === false ? {} : { error: ["This field is required."] };
  const v = data[name];
  if (v === null) return { error: ["This field may not be null."] };
  if (typeof v === "boolean" || (typeof v !== "string" && typeof v !== "number")) {
    return { error: ["Not a valid string."] };
  }
  const text = String(v).trim();
  if (!text && !rule.blank) return { error: ["This field may not be blank."] };
  const errors: string[] = [];
  if (rule.max !== undefined && text.length > rule.max) {
    errors.push(`Ensure this field has no more than ${rule.max} characters.`);
  }
  if (rule.pattern && !rule.pattern.test(text)) {
    errors.push("This value does not match the required pattern.");
  }
  return errors.length ? { error: errors } : { value: text };
}

function typeName(v: unknown): string {
  if (v === null) return "NoneType";
  if (Array.isArray(v)) return "list";
  return { string: "str", boolean: "bool", number: Number.isInteger(v) ? "int" : "float" }[
    typeof v as "string"
  ] ?? "dict";
}

function dictField(data: Record<string, unknown>, name: string): string[] | undefined {
  if (!(name in data)) return undefined;
  const v = data[name];
  if (v === null) return ["This field may not be null."];
  if (typeof v !== "object" || Array.isArray(v)) {
    return [`Expected a dictionary of items but got type "${typeName(v)}".`];
  }
  return undefined;
}

const ALIASES: Record<string, string> = {
  "tool.invoke": "tool_call",
  "mcp.tool_call": "tool_call",
  "retrieve": "retrieval",
  "rag.retrieve": "retrieval",
  "data_access": "retrieval",
  "workflow_step": "workflow.transition",
  "workflow": "workflow.transition",
  "network.egress": "egress",
  "llm_call": "llm:invoke",
  "ai_request": "llm:invoke",
};

function resourceType(action: string): string {
  if (["tool_call", "tool.invoke", "mcp.tool_call"].includes(action)) return "tool";
  if (["retrieval", "retrieve", "rag.retrieve", "data_access"].includes(action)) return "retrieval";
  if (["workflow.transition", "workflow_step", "workflow"].includes(action)) return "workflow";
  if (["egress", "network.egress", "llm:response"].includes(action)) return "egress";
  if (action.startsWith("llm:") || ["llm_call", "ai_request"].includes(action)) return "model";
  return "action";
}

/**
 * Starts a double on 127.0.0.1 (a free port), with one agent-host endpoint.
 *
 * @example
 * ```ts
 * const z = await zentinelleDouble();
 * z.policies.push({ id: "p1", name: "Shell needs a human", policy_type: "tool_permission", version: 1, config: { requires_approval: ["Bash"] } });
 * await z.close();
 * ```
 */
export async function zentinelleDouble(
  options: { release?: Release; key?: string } = {},
): Promise<ZentinelleDouble> {
  let clock = Date.now();
  const endpoints = new Map<string, Endpoint>();
  const grants = new Map<string, Grant>();
  const stored = new Map<string, string>();
  const secret = crypto.getRandomValues(new Uint8Array(32));
  const hmac = await crypto.subtle.importKey(
    "raw",
    secret,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  const sign = async (value: string) =>
    b64url(
      new Uint8Array(await crypto.subtle.sign("HMAC", hmac, new TextEncoder().encode(value))),
    );
  // django.core.signing.dumps: the value, a base-36 timestamp, and the signature over both.
  const signToken = async (grantId: string) => {
    const value = `${b64url(new TextEncoder().encode(JSON.stringify(grantId)))}:${
      Math.floor(clock / 1000).toString(36)
    }`;
    return `${value}:${await sign(value)}`;
  };
  const tokens = new Map<string, string>();
  const loadToken = (token: unknown): string | null => {
    if (typeof token !== "string") return null;
    const grant = tokens.get(token);
    if (!grant) return null;
    const stamp = parseInt(token.split(":")[1], 36) * 1000;
    return clock - stamp <= 300_000 ? grant : null;
  };

  const book: GrantBook = {
    find(token, match) {
      const id = loadToken(token);
      const g = id ? grants.get(id) : undefined;
      if (
        !g || g.tenant_id !== match.tenant_id || g.subject !== match.subject ||
        g.action !== match.action || g.digest !== match.digest || g.endpoint !== match.endpoint ||
        g.consumed_at !== undefined || g.expires_at <= clock
      ) return null;
      return g;
    },
    consume(ids, tenant) {
      const found = ids.map((id) => grants.get(id)).filter((g) => g && g.tenant_id === tenant);
      if (
        found.length !== ids.length || found.some((g) => g!.consumed_at || g!.expires_at <= clock)
      ) {
        return false;
      }
      for (const g of found) g!.consumed_at = clock;
      return true;
    },
    now: () => clock,
  };

  const state: Omit<ZentinelleDouble, "url" | "close"> = {
    key: "",
    release: options.release ?? "current",
    failure: "none",
    policies: [],
    captureMode: "metadata",
    received: [],
    events: [],
    spans: [],
    requests: new Map(),
    register(agentId, agentType = "agent_host", tenant = TENANT) {
      const key = `sk_agent_${crypto.randomUUID().replace(/-/g, "")}`;
      endpoints.set(key, {
        id: crypto.randomUUID(),
        agent_id: agentId,
        agent_type: agentType,
        tenant_id: tenant,
        key,
      });
      return key;
    },
    decide(id, decision, reason = "", tenant = TENANT) {
      const held = state.requests.get(id);
      if (!held || held.tenant_id !== tenant) {
        return { status: 404, body: { error: "Approval request not found" } };
      }
      const current = currentStatus(held);
      if (current !== "pending") {
        return { status: 409, body: { error: `Approval request is ${current}, not pending` } };
      }
      if (decision === "approve") {
        const window = approvalTimeout(state.policies);
        const grant: Grant = {
          id: crypto.randomUUID(),
          tenant_id: tenant,
          subject: held.subject,
          action: held.action,
          digest: held.digest,
          endpoint: held.endpoint_id,
          policy_versions: Object.fromEntries(state.policies.map((p) => [p.id, p.version])),
          created_at: clock,
          expires_at: clock + window * 1000,
        };
        grants.set(grant.id, grant);
        held.grant = grant;
      }
      held.status = decision === "approve" ? "approved" : "denied";
      held.decided_by = "operator";
      held.decided_at = clock;
      held.decision_reason = reason;
      return {
        status: 200,
        body: { request_id: held.id, status: held.status, decided_at: drfTime(clock) },
      };
    },
    list(tenant = TENANT) {
      const agents = new Map([...endpoints.values()].map((e) => [e.id, e.agent_id]));
      return [...state.requests.values()]
        .filter((h) => h.tenant_id === tenant && h.status === "pending" && h.expires_at > clock)
        .sort((a, b) => b.created_at - a.created_at)
        .slice(0, 100)
        .map((h) => ({
          request_id: h.id,
          agent_id: agents.get(h.endpoint_id) ?? "",
          user_id: h.subject,
          action: h.action,
          context: h.context,
          reason: h.reason,
          trace_id: h.trace_id,
          expires_at: drfTime(h.expires_at),
          created_at: drfTime(h.created_at),
        }));
    },
    approve(id) {
      const r = state.decide(id, "approve");
      if (r.status !== 200) throw new Error(`approve ${id}: ${JSON.stringify(r.body)}`);
    },
    deny(id, reason) {
      const r = state.decide(id, "deny", reason);
      if (r.status !== 200) throw new Error(`deny ${id}: ${JSON.stringify(r.body)}`);
    },
    advance(ms) {
      clock += ms;
    },
    now: () => clock,
  };
  state.key = options.key ?? state.register("agenthost-dev");
  if (options.key) {
    endpoints.set(options.key, {
      id: crypto.randomUUID(),
      agent_id: "agenthost-dev",
      agent_type: "agent_host",
      tenant_id: TENANT,
      key: options.key,
    });
  }

  function currentStatus(h: HeldRequest): "pending" | "approved" | "denied" | "expired" {
    return h.status === "pending" && h.expires_at <= clock ? "expired" : h.status;
  }

  /** `ZentinelleAPIKeyAuthentication`, then `IsAuthenticated`. */
  function authenticate(c: Context): Endpoint | Response {
    const key = c.req.header("x-zentinelle-key") ?? "";
    const refuse = (detail: string) =>
      c.json({ detail }, 401, { "www-authenticate": "X-Zentinelle-Key" });
    if (!key) return refuse("Authentication credentials were not provided.");
    if (!key.startsWith("sk_agent_")) return refuse("Invalid API key format");
    return endpoints.get(key) ?? refuse("Invalid API key");
  }

  /** DRF's JSONParser: 415 for another media type, 400 for text that is not JSON. */
  async function jsonBody(c: Context): Promise<unknown | Response> {
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/json/i.test(type)) {
      return c.json({ detail: `Unsupported media type "${type}" in request.` }, 415);
    }
    const text = await c.req.text();
    try {
      return { value: JSON.parse(text) };
    } catch (error) {
      return c.json({ detail: `JSON parse error - ${(error as Error).message}` }, 400);
    }
  }

  function record(
    endpoint: Endpoint,
    action: string,
    userId: string,
    context: unknown,
    result: Evaluation,
    decision: string,
    traceId: string,
    held?: HeldRequest,
  ) {
    state.events.push({
      endpoint: endpoint.agent_id,
      event_type: result.allowed ? `policy_evaluation_${action}` : "policy_violation",
      payload: {
        action,
        user_id: userId,
        context: capture(context, state.captureMode),
        result: {
          allowed: result.allowed,
          decision,
          reason: result.reason,
          policies_evaluated: result.policies_evaluated,
        },
        trace_id: traceId,
        ...(held ? { approval_request_id: held.id } : {}),
      },
    });
  }

  const app = new Hono();

  app.post("/api/zentinelle/v1/evaluate", async (c) => {
    const endpoint = authenticate(c);
    if (endpoint instanceof Response) return endpoint;
    const parsed = await jsonBody(c);
    if (parsed instanceof Response) return parsed;
    const data = (parsed as { value: unknown }).value;
    state.received.push({
      agent_id: endpoint.agent_id,
      body: data as Record<string, unknown>,
    });
    if (state.failure === "timeout") return new Promise<Response>(() => {});
    if (state.failure === "garbage") return c.body("<html>upstream error</html>", 200);
    if (state.failure === "no_decision") return c.json({ allowed: true, reason: null }, 200);
    if (typeof data !== "object" || data === null || Array.isArray(data)) {
      return c.json({
        non_field_errors: [`Invalid data. Expected a dictionary, but got ${typeName(data)}.`],
      }, 400);
    }
    const body = data as Record<string, unknown>;
    const old = state.release === "pre-377";
    // EvaluateRequestSerializer.
    const errors: Record<string, string[]> = {};
    const agentId = charField(body, "agent_id", old ? {} : { required: false, blank: true });
    if (agentId.error) errors.agent_id = agentId.error;
    const actionField = charField(body, "action", { max: 50 });
    if (actionField.error) errors.action = actionField.error;
    const userField = charField(body, "user_id", { required: false, blank: true, max: 255 });
    if (userField.error) errors.user_id = userField.error;
    if (!old) {
      for (const name of ["authority", "context"]) {
        const e = dictField(body, name);
        if (e) errors[name] = e;
      }
    }
    if (Object.keys(errors).length) return c.json(errors, 400);
    if (old) {
      if (endpoint.agent_id !== agentId.value) return c.json({ error: "Agent ID mismatch" }, 403);
      const raw = body.context;
      const context = raw && typeof raw === "object" && !Array.isArray(raw)
        ? { ...raw as Record<string, unknown> }
        : {};
      const result = await evaluate("pre-377", state.policies, {
        action: actionField.value!,
        userId: userField.value ?? null,
        context,
        tenant: endpoint.tenant_id,
        endpoint: endpoint.id,
      }, book);
      const { _approval_digest: _d, _tenant_id: _t, _endpoint_id: _e, taxonomy: _x, ...shown } =
        result.context;
      return c.json({
        allowed: result.allowed,
        reason: result.reason,
        policies_evaluated: result.policies_evaluated,
        warnings: result.warnings,
        context: shown,
      });
    }
    const action = ALIASES[actionField.value!.toLowerCase()] ?? actionField.value!.toLowerCase();
    const isHost = endpoint.agent_type === "agent_host";
    if (agentId.value && endpoint.agent_id !== agentId.value) {
      return c.json({ error: "Agent ID mismatch" }, 403);
    }
    const context = { ...(body.context as Record<string, unknown> ?? {}) };
    if (isHost && action === "tool_call") {
      // HostToolCallContextSerializer.
      const problems: Record<string, string[]> = {};
      const fields: [string, FieldRule][] = [
        ["harness", { max: 50, pattern: /^[a-z0-9][a-z0-9_.-]*$/ }],
        ["session_id", { max: 255 }],
        ["chat_id", { required: false, max: 255 }],
        ["tool_call_id", { required: false, max: 255 }],
        ["tool_name", { max: 255 }],
      ];
      for (const [name, rule] of fields) {
        const e = charField(context, name, rule).error;
        if (e) problems[name] = e;
      }
      if ("tool_input" in context && context.tool_input === null) {
        problems.tool_input = ["This field may not be null."];
      }
      if (Object.keys(problems).length) {
        return c.json({ error: "Invalid agent host tool_call context", context: problems }, 400);
      }
    }
    const traceId = crypto.randomUUID();
    if (body.authority && Object.keys(body.authority as object).length) {
      context.authority = body.authority;
    }
    if (!("resource_type" in context)) context.resource_type = resourceType(action);
    if (!("resource_id" in context)) {
      context.resource_id = context.workload_id || context.tool || context.tool_name || "";
    }
    context.trace_id = traceId;
    const userId = userField.value ?? null;
    const contract = {
      contract_version: "1",
      subject: {
        tenant_id: endpoint.tenant_id,
        user_id: userId ?? "",
        endpoint_id: endpoint.id,
        agent_id: endpoint.agent_id,
      },
      action,
      resource: {
        type: String(context.resource_type || resourceType(action)),
        id: String(context.resource_id || context.workload_id || context.tool || ""),
      },
      context,
    };
    if (state.failure === "unavailable") {
      return c.json({
        ...contract,
        trace_id: traceId,
        decision: "deny",
        allowed: false,
        reason: "Policy evaluation unavailable",
        coverage: { status: "unknown" },
        warnings: ["retry after policy service recovery"],
        enforcement: REFUSAL_ENFORCEMENT,
      }, 503);
    }
    const result = await evaluate(state.release, state.policies, {
      action,
      userId,
      context,
      tenant: endpoint.tenant_id,
      endpoint: endpoint.id,
    }, book);
    let held: HeldRequest | undefined;
    let timeout = 300;
    if (isHost && result.approval_required) {
      timeout = approvalTimeout(state.policies);
      held = {
        id: crypto.randomUUID(),
        tenant_id: endpoint.tenant_id,
        endpoint_id: endpoint.id,
        subject: userId ?? "",
        action,
        digest: String(result.context._approval_digest),
        context: capture(result.context, state.captureMode) as Record<string, unknown>,
        reason: result.reason ?? "",
        trace_id: traceId,
        created_at: clock,
        expires_at: clock + timeout * 1000,
        status: "pending",
      };
      state.requests.set(held.id, held);
    }
    const decision = held ? "ask" : result.allowed ? "allow" : "deny";
    record(endpoint, action, userId ?? "", context, result, decision, traceId, held);
    const shown: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(result.context)) {
      if (!k.startsWith("_") && k !== "request_body") shown[k] = v;
    }
    return c.json({
      ...contract,
      trace_id: traceId,
      decision,
      allowed: result.allowed,
      reason: result.reason,
      policies_evaluated: result.policies_evaluated,
      coverage: result.coverage,
      warnings: result.warnings,
      context: shown,
      output_filter_required: false,
      ...(state.release === "current" ? { enforcement: result.enforcement } : {}),
      ...(held
        ? {
          approval: {
            request_id: held.id,
            status: held.status,
            expires_at: drfTime(held.expires_at),
            timeout_seconds: timeout,
          },
        }
        : {}),
    });
  });

  app.get("/api/zentinelle/v1/approvals/requests/:id", async (c) => {
    if (state.release === "pre-377") return c.html("<h1>Not Found</h1>", 404);
    const endpoint = authenticate(c);
    if (endpoint instanceof Response) return endpoint;
    const held = state.requests.get(c.req.param("id"));
    if (!held || held.tenant_id !== endpoint.tenant_id || held.endpoint_id !== endpoint.id) {
      return c.json({ error: "Approval request not found" }, 404);
    }
    const current = currentStatus(held);
    const body: Record<string, unknown> = {
      request_id: held.id,
      status: current,
      expires_at: drfTime(held.expires_at),
    };
    if (current === "approved" && held.grant) {
      // Signed per read: it names the granted, single-use record, so a second copy authorises nothing new.
      const token = await signToken(held.grant.id);
      tokens.set(token, held.grant.id);
      body.approval_token = token;
      body.approval_expires_at = drfTime(held.grant.expires_at);
    } else if (current === "denied") {
      body.reason = held.decision_reason || "Denied by an approver";
    } else if (current === "expired") {
      body.reason = "No approval arrived before the request expired";
    }
    return c.json(body);
  });

  app.post("/api/zentinelle/v1/otlp/v1/traces", async (c) => {
    const endpoint = authenticate(c);
    if (endpoint instanceof Response) return endpoint;
    const parsed = await jsonBody(c);
    if (parsed instanceof Response) return parsed;
    let events: SpanEvent[];
    try {
      events = traceEvents((parsed as { value: unknown }).value);
    } catch (error) {
      // A DRF ValidationError raised with a message answers 400 with a list of it.
      if (error instanceof OtlpRejected) return c.json([error.message], 400);
      throw error;
    }
    const fresh: SpanEvent[] = [];
    for (const event of events) {
      const key = `${endpoint.tenant_id}:${event.event_id}`;
      const print = JSON.stringify(event.payload);
      const known = stored.get(key);
      if (known === undefined) fresh.push(event);
      else if (known !== print) {
        return c.json(
          { error: `Event ${event.event_id} conflicts with the one already stored` },
          409,
        );
      }
    }
    for (const event of fresh) {
      stored.set(`${endpoint.tenant_id}:${event.event_id}`, JSON.stringify(event.payload));
      const kept = {
        ...event,
        payload: capture(event.payload, state.captureMode) as SpanEvent["payload"],
      };
      state.spans.push(kept);
    }
    return c.json({});
  });

  const server = await serveLoopback(app.fetch);
  return Object.assign(state, { url: server.url, close: () => server.close() }) as ZentinelleDouble;
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
  const z = await zentinelleDouble();
  await z.close();
  return z.url;
}
