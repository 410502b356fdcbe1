// deno-lint-ignore-file no-explicit-any -- the vectors and the wire answers are JSON read field by field
/**
 * Zentinelle's own tests as conformance vectors (tests/conformance/
 * zentinelle_agent_host.json and zentinelle_tool_permission.json, each
 * naming the upstream test it carries), run against the embedded engine in
 * process and against Tether's compatible routes over HTTP: the same steps,
 * the same expectations, except the steps that concern HTTP itself (marked
 * `"over": "routes"`), which only the routes can answer. They also run
 * against the Zentinelle double, which keeps the double honest: it was
 * ported from Zentinelle's code, the vectors from Zentinelle's tests.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { memoryStore } from "../../server/kv/memory.ts";
import { ApprovalConflict } from "../../server/policy/approvals.ts";
import { canonicalAction } from "../../server/policy/contract.ts";
import { LocalPolicyEngine } from "../../server/policy/local_engine.ts";
import { checkPolicyDocument, type PolicyDocument } from "../../server/policy/policy_file.ts";
import { startNode } from "../../server/runtime/node.ts";
import { zentinelleDouble } from "../zentinelle/double.ts";

type Answer = { status: number; body: any };
type Key = "host" | "sibling" | "none";

interface Target {
  over: "engine" | "routes";
  /**
   * Whether held requests keep the call's input: Tether's embedded engine does by default (an
   * approver must see what they release; docs/architecture.md), Zentinelle's metadata default not.
   */
  keepsInput?: boolean;
  evaluate(body: Record<string, unknown>, key: Key): Promise<Answer>;
  poll(id: string, key: Key): Promise<Answer>;
  decide(id: string, decision: string, reason: string, as: string): Promise<Answer>;
  inbox(): Promise<any[]>;
  now(): number;
  advance(seconds: number): void;
  setPolicies(doc: PolicyDocument): Promise<void>;
  outage(): Promise<void>;
  close(): Promise<void>;
}

const AGENTS = { host: "agenthost-dev", sibling: "agenthost-other" } as const;
const KEYS = {
  host: `sk_agent_${crypto.randomUUID().replace(/-/g, "")}`,
  sibling: `sk_agent_${crypto.randomUUID().replace(/-/g, "")}`,
};
const ADMIN = `admin-${crypto.randomUUID()}`;

function engineTarget(doc: PolicyDocument): Target {
  let now = Date.parse("2026-09-22T20:00:00Z");
  const engine = new LocalPolicyEngine({
    store: memoryStore(),
    policies: doc,
    now: () => now,
    log: () => {},
  });
  return {
    over: "engine",
    keepsInput: true,
    async evaluate(body, key) {
      const answer = await engine.evaluate({
        action: canonicalAction(String(body.action)),
        ...(body.user_id !== undefined ? { user_id: body.user_id as string } : {}),
        context: body.context as any,
      }, AGENTS[key as "host"]);
      return { status: 200, body: answer };
    },
    async poll(id, key) {
      const status = await engine.approval(id, AGENTS[key as "host"]);
      return status ? { status: 200, body: status } : { status: 404, body: null };
    },
    async decide(id, decision, reason) {
      try {
        return {
          status: 200,
          body: await engine.approvals.decide(id, decision as "approve", "operator", reason),
        };
      } catch (error) {
        if (!(error instanceof ApprovalConflict)) throw error;
        return { status: error.status, body: null };
      }
    },
    async inbox() {
      return (await engine.approvals.pending()).map((r) => ({ ...r, agent: r.agent_id }));
    },
    now: () => now,
    advance: (seconds) => void (now += seconds * 1000),
    setPolicies: (next) => Promise.resolve(engine.setPolicies(next)),
    outage: () => Promise.reject(new Error("the engine has no HTTP to fail")),
    close: () => Promise.resolve(),
  };
}

async function routesTarget(doc: PolicyDocument): Promise<Target> {
  let now = Date.parse("2026-09-22T20:00:00Z");
  const rt = await startNode({
    port: 0,
    socketIo: false,
    env: { STORE__URL: "memory:", MODEL__DEFAULT: "offline", ACCESS__ADMIN_TOKEN: ADMIN },
    gate: {
      document: doc,
      agentKeys: { [KEYS.host]: AGENTS.host, [KEYS.sibling]: AGENTS.sibling },
      now: () => now,
    },
    warn: () => {},
  });
  const local = async () => (await rt.app.engine()).policy!.local!;
  const send = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const res = await fetch(`${rt.url}/api/zentinelle/v1${path}`, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch { /* kept as text */ }
    return { status: res.status, body };
  };
  const keyed = (key: Key): Record<string, string> =>
    key === "none" ? {} : { "x-zentinelle-key": KEYS[key] };
  return {
    over: "routes",
    keepsInput: true,
    evaluate: (body, key) =>
      send("/evaluate", {
        method: "POST",
        headers: { "content-type": "application/json", ...keyed(key) },
        body: JSON.stringify(body),
      }),
    poll: (id, key) => send(`/approvals/requests/${id}`, { headers: keyed(key) }),
    decide: (id, decision, reason, as) =>
      send(`/approvals/requests/${id}/decision`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(as === "operator" ? { authorization: `Bearer ${ADMIN}` } : {}),
          ...(as === "workload" ? keyed("host") : {}),
        },
        body: JSON.stringify({ decision, reason }),
      }),
    async inbox() {
      const res = await send("/approvals/requests", {
        headers: { authorization: `Bearer ${ADMIN}` },
      });
      assert.equal(res.status, 200);
      return res.body.requests.map((r: any) => ({
        ...r,
        agent: r.agent_id,
        created_at: Date.parse(r.created_at),
        expires_at: Date.parse(r.expires_at),
      }));
    },
    now: () => now,
    advance: (seconds) => void (now += seconds * 1000),
    setPolicies: async (next) => (await local()).setPolicies(next),
    async outage() {
      (await local()).evaluate = () => Promise.reject(new Error("the store is down"));
    },
    close: () => rt.close(),
  };
}

async function doubleTarget(doc: PolicyDocument): Promise<Target> {
  const z = await zentinelleDouble();
  const keys = { host: z.key, sibling: z.register(AGENTS.sibling) };
  const toDouble = (d: PolicyDocument) =>
    d.policies.map((p) => ({
      id: p.id,
      name: p.name,
      policy_type: p.type,
      version: p.version,
      config: p.config,
    }));
  z.policies = toDouble(doc);
  const send = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const res = await fetch(`${z.url}/api/zentinelle/v1${path}`, init);
    return { status: res.status, body: await res.json().catch(() => null) };
  };
  const keyed = (key: Key): Record<string, string> =>
    key === "none" ? {} : { "x-zentinelle-key": keys[key] };
  return {
    over: "routes",
    evaluate: (body, key) =>
      send("/evaluate", {
        method: "POST",
        headers: { "content-type": "application/json", ...keyed(key) },
        body: JSON.stringify(body),
      }),
    poll: (id, key) => send(`/approvals/requests/${id}`, { headers: keyed(key) }),
    decide(id, decision, reason, as) {
      // The portal refuses a workload key (401) and a viewer (403) before any decision.
      if (as === "workload") return Promise.resolve({ status: 401, body: null });
      if (as === "viewer") return Promise.resolve({ status: 403, body: null });
      return Promise.resolve(z.decide(id, decision as "approve", reason));
    },
    inbox: () =>
      Promise.resolve(
        z.list().map((r: any) => ({
          ...r,
          agent: r.agent_id,
          created_at: Date.parse(r.created_at),
          expires_at: Date.parse(r.expires_at),
        })),
      ),
    now: () => z.now(),
    advance: (seconds) => z.advance(seconds * 1000),
    setPolicies: (next) => Promise.resolve(void (z.policies = toDouble(next))),
    outage: () => Promise.resolve(void (z.failure = "unavailable")),
    close: () => z.close(),
  };
}

interface Vectors {
  call: { action: string; user_id: string; context: Record<string, unknown> };
  context_mode: "merge" | "replace";
  scenarios: { name: string; upstream: string; policies: any[]; steps: any[] }[];
}

const load = (name: string) =>
  JSON.parse(readFileSync(new URL(`../conformance/${name}`, import.meta.url), "utf8")) as Vectors;

const documentOf = (policies: any[], version = 1): PolicyDocument =>
  checkPolicyDocument({
    policies: policies.map((p, i) => ({
      id: `p${i + 1}`,
      name: p.name,
      type: p.type,
      version,
      config: p.config,
    })),
  });

/** The body of an evaluate step. */
function bodyOf(v: Vectors, step: any, tokens: Map<string, string>): Record<string, unknown> {
  const e = step.evaluate;
  const host = { harness: "conformance", session_id: "conformance-session" };
  let context: Record<string, unknown> = v.context_mode === "replace"
    ? { ...host, ...(e.context ?? {}) }
    : { ...v.call.context, ...(e.context ?? {}) };
  for (const field of e.drop ?? []) delete context[field];
  if (e.token) {
    const token = tokens.get(e.token)!;
    context = { ...context, approval_token: e.tamper ? `${token}tampered` : token };
  }
  const body: Record<string, unknown> = {
    action: e.action ?? v.call.action,
    user_id: e.user_id ?? v.call.user_id,
    context,
  };
  if (e.drop_user) delete body.user_id;
  return body;
}

function expectEvaluate(
  at: string,
  answer: Answer,
  expect: any,
  target: Target,
): void {
  if (expect.status !== undefined) assert.equal(answer.status, expect.status, at);
  const b = answer.body;
  if (expect.decision !== undefined) {
    assert.equal(b.decision, expect.decision, `${at}: ${JSON.stringify(b)}`);
  }
  if (expect.allowed !== undefined) assert.equal(b.allowed, expect.allowed, at);
  if (expect.reason !== undefined) assert.equal(b.reason, expect.reason, at);
  if (expect.reason_contains) {
    assert.ok(String(b.reason).includes(expect.reason_contains), `${at}: ${b.reason}`);
  }
  if (expect.no_approval) assert.equal(b.approval, undefined, at);
  if (expect.approval) {
    for (const [k, v] of Object.entries(expect.approval)) {
      assert.equal(b.approval[k], v, `${at}: approval.${k}`);
    }
  }
  if (expect.window_seconds) {
    const window = (Date.parse(b.approval.expires_at) - target.now()) / 1000;
    assert.ok(
      window > expect.window_seconds.above && window <= expect.window_seconds.at_most,
      `${at}: window ${window}`,
    );
  }
  if (expect.error) assert.equal(b.error, expect.error, at);
  for (const field of expect.context_errors ?? []) {
    assert.ok(Array.isArray(b.context?.[field]), `${at}: ${field} in ${JSON.stringify(b)}`);
  }
}

async function run(v: Vectors, scenario: Vectors["scenarios"][number], target: Target) {
  const saved = new Map<string, { id: string; trace?: string }>();
  const tokens = new Map<string, string>();
  let ran = 0;
  for (const [i, step] of scenario.steps.entries()) {
    const at = `${scenario.name}, step ${i + 1} (${target.over})`;
    if (step.over === "routes" && target.over !== "routes") continue;
    ran++;
    if (step.evaluate) {
      const answer = await target.evaluate(bodyOf(v, step, tokens), step.evaluate.key ?? "host");
      const expect = target.over === "routes" && step.over_routes ? step.over_routes : step.expect;
      expectEvaluate(at, answer, expect, target);
      if (step.save) {
        saved.set(step.save, { id: answer.body.approval.request_id, trace: answer.body.trace_id });
      }
    } else if (step.poll) {
      const answer = await target.poll(saved.get(step.poll)!.id, step.key ?? "host");
      const e = step.expect;
      if (e.status !== undefined) assert.equal(answer.status, e.status, at);
      if (e.state) assert.equal(answer.body.status, e.state, at);
      if (e.token !== undefined) {
        assert.equal(typeof answer.body.approval_token === "string", e.token, at);
      }
      if (e.reason) assert.equal(answer.body.reason, e.reason, at);
      if (e.reason_contains) assert.ok(answer.body.reason.includes(e.reason_contains), at);
      if (step.save_token) tokens.set(step.save_token, answer.body.approval_token);
    } else if (step.decide) {
      const answer = await target.decide(
        saved.get(step.decide)!.id,
        step.decision,
        step.reason ?? "",
        step.as ?? "operator",
      );
      assert.equal(answer.status, step.expect.status, `${at}: ${JSON.stringify(answer.body)}`);
      if (step.expect.state) assert.equal(answer.body.status, step.expect.state, at);
    } else if (step.inbox) {
      const inbox = await target.inbox();
      assert.equal(inbox.length, step.expect.count, at);
      const first = step.expect.first;
      if (first) {
        const held = saved.get(first.request)!;
        assert.equal(inbox[0].request_id, held.id, at);
        for (const [k, val] of Object.entries(first.context ?? {})) {
          assert.equal(inbox[0].context[k], val, `${at}: ${k}`);
        }
        const input = (k: string) => k === "tool_input" || k === "tool_args";
        for (
          const k of (first.context_lacks ?? []).filter((k: string) =>
            !target.keepsInput || !input(k)
          )
        ) {
          assert.equal(k in inbox[0].context, false, `${at}: ${k} kept`);
        }
        if (first.agent) assert.equal(inbox[0].agent, AGENTS[first.agent as "host"], at);
        if (first.trace_of && target.over === "routes") {
          assert.equal(inbox[0].trace_id, held.trace, at);
        }
      }
    } else if (step.advance_seconds) target.advance(step.advance_seconds);
    else if (step.bump_policy_versions) await target.setPolicies(documentOf(scenario.policies, 2));
    else if (step.outage) await target.outage();
    else throw new Error(`${at}: a step this runner does not know: ${JSON.stringify(step)}`);
  }
  return ran;
}

for (const file of ["zentinelle_agent_host.json", "zentinelle_tool_permission.json"]) {
  const vectors = load(file);
  test(`${file}: every scenario names the upstream test it carries`, () => {
    assert.ok(vectors.scenarios.length >= 10);
    for (const s of vectors.scenarios) {
      assert.match(s.upstream, /Tests?\.test_|Test\.test_/, s.name);
    }
  });
  for (const scenario of vectors.scenarios) {
    const engineSteps = scenario.steps.filter((s) => s.over !== "routes").length;
    // A scenario about HTTP alone (authentication, the host check, the 503) has nothing for the engine.
    if (engineSteps) {
      test(`${file}: ${scenario.name} (in process)`, async () => {
        const target = engineTarget(documentOf(scenario.policies));
        try {
          assert.equal(await run(vectors, scenario, target), engineSteps);
        } finally {
          await target.close();
        }
      });
    }
    test(`${file}: ${scenario.name} (the Zentinelle double)`, async () => {
      const target = await doubleTarget(documentOf(scenario.policies));
      try {
        assert.equal(await run(vectors, scenario, target), scenario.steps.length);
      } finally {
        await target.close();
      }
    });
    test(`${file}: ${scenario.name} (over Tether's routes)`, async () => {
      const target = await routesTarget(documentOf(scenario.policies));
      try {
        assert.equal(await run(vectors, scenario, target), scenario.steps.length);
      } finally {
        await target.close();
      }
    });
  }
}
