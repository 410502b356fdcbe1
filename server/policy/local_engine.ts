/**
 * The embedded policy engine: Zentinelle's answers for the policy types in
 * `policy_kinds.ts`, with no service, including the oversight hold
 * (approval requests in the store, single-use tokens). Tether's gate uses it
 * by default, and Tether serves it to other agent hosts on the contract's
 * own routes.
 *
 * Every policy judges every call. Any refusal makes the answer deny, with
 * the first refusal's message; when every failure is a missing approval it
 * is ask, with an approval request whose window is the shortest
 * `approval_timeout_seconds`, at most 300 seconds.
 *
 * @module
 */
import type { Store } from "../kv/store.ts";
import { log } from "../log.ts";
import { Approvals } from "./approvals.ts";
import type { CallOrigin } from "./backend.ts";
import { captureContext, type CaptureMode } from "./content_capture.ts";
import {
  type ApprovalStatus,
  type EvaluateAnswer,
  type EvaluateBody,
  MAX_APPROVAL_SECONDS,
  type PolicyEvaluated,
} from "./contract.ts";
import { normalizeContext } from "./evaluation_context.ts";
import type { Policy, PolicyDocument } from "./policy_file.ts";
import type { JudgedCall, Judgement } from "./policy_kind.ts";
import { POLICY_KINDS } from "./policy_kinds.ts";
import { bindingDigest } from "./token.ts";

/** What the engine needs. */
export interface LocalEngineOptions {
  store: Store;
  /** The policies in force (replace them later with `setPolicies`). */
  policies?: PolicyDocument;
  /** The clock (epoch ms); tests pass their own. */
  now?: () => number;
  /** The HMAC secret for approval tokens; default: made once and kept in the store. */
  secret?: string;
  /** Where approval decisions are logged (the runtime's logger at info). */
  log?: (message: string, fields: Record<string, unknown>) => void;
  /** What an approval request keeps of the call's context (default `full`, so approvers see the input whole). */
  contentCapture?: CaptureMode;
}

interface Compiled {
  policy: Policy;
  judge: (call: JudgedCall) => Judgement;
}

/** The evaluation's identifiers: the trace id of its answer. */
export interface EvaluateOptions {
  traceId?: string;
  /**
   * The session principal whose call this is (Tether's own calls). Absent: an external agent
   * opened it through the policy service, so its user and session are the agent's own word.
   */
  origin?: CallOrigin;
}

/**
 * The embedded engine.
 *
 * @example
 * ```ts
 * const engine = new LocalPolicyEngine({ store: memoryStore(), policies: { policies: [] } });
 * const answer = await engine.evaluate({ action: "tool_call", context: { harness: "tether", session_id: "s", tool_name: "Bash" } }, "tether");
 * ```
 */
export class LocalPolicyEngine {
  readonly approvals: Approvals;
  #compiled: Compiled[] = [];
  #versions: string[] = [];
  #window = MAX_APPROVAL_SECONDS;
  #capture: CaptureMode;

  constructor(options: LocalEngineOptions) {
    this.#capture = options.contentCapture ?? "full";
    this.approvals = new Approvals({
      store: options.store,
      now: options.now ?? Date.now,
      secret: options.secret,
      log: options.log ?? ((msg, fields) => log.info(msg, fields)),
      window: () => this.#window,
    });
    this.setPolicies(options.policies ?? { policies: [] });
  }

  /** Replaces the policies in force (a validated document). */
  setPolicies(doc: PolicyDocument): void {
    this.#compiled = doc.policies.map((policy) => ({
      policy,
      judge: POLICY_KINDS[policy.type].compile(policy.config as never, policy.name),
    }));
    this.#versions = doc.policies.map((p) => `${p.id}:${p.version}`);
    const windows = doc.policies.map((p) => p.config.approval_timeout_seconds)
      .filter((s): s is number => typeof s === "number");
    this.#window = Math.max(1, Math.min(MAX_APPROVAL_SECONDS, ...windows));
  }

  /** The policies in force. */
  get policies(): Policy[] {
    return this.#compiled.map((c) => c.policy);
  }

  /** The approval window now: the shortest `approval_timeout_seconds`, at most 300 s. */
  get window(): number {
    return this.#window;
  }

  /**
   * Judges a call synchronously, without approvals: what every policy says.
   * `ask` here means "allowed once a human approves".
   */
  judge(body: EvaluateBody): EvaluateAnswer {
    const normalized = normalizeContext(body.context);
    if (!normalized.ok) {
      return {
        decision: "deny",
        allowed: false,
        reason: normalized.reason,
        policies_evaluated: [],
      };
    }
    const call: JudgedCall = {
      action: body.action,
      userId: body.user_id ?? null,
      context: normalized.context,
    };
    const evaluated: PolicyEvaluated[] = [];
    let deny: string | null = null;
    let ask: string | null = null;
    for (const c of this.#compiled) {
      const v = c.judge(call);
      if (v.result === "deny") deny ??= v.message;
      if (v.result === "ask") ask ??= v.message;
      evaluated.push({
        id: c.policy.id,
        version: c.policy.version,
        name: c.policy.name,
        type: c.policy.type,
        result: v.result === "pass" ? "pass" : "fail",
        message: v.result === "pass" ? null : v.message,
        matched_selectors: [],
        coverage: "enforced",
      });
    }
    // A call any rule refuses is deny, even when it also needs approval.
    if (deny) {
      return { decision: "deny", allowed: false, reason: deny, policies_evaluated: evaluated };
    }
    if (ask) return { decision: "ask", allowed: false, reason: ask, policies_evaluated: evaluated };
    return { decision: "allow", allowed: true, reason: null, policies_evaluated: evaluated };
  }

  /** Evaluates a (validated) call for an agent: opens an approval on ask, redeems a token on retry. */
  async evaluate(
    body: EvaluateBody,
    agentId: string,
    options: EvaluateOptions = {},
  ): Promise<EvaluateAnswer> {
    const answer = this.judge(body);
    if (answer.decision !== "ask") return answer;
    const context = normalizeContext(body.context);
    const digest = await bindingDigest({
      agent_id: agentId,
      user_id: body.user_id ?? null,
      action: body.action,
      policy_versions: this.#versions,
      context: context.ok ? context.context : body.context,
    });
    const token = body.context.approval_token;
    if (token !== undefined && token !== null && token !== "") {
      // Once a token is presented, a failed approval check is a denial, never another ask.
      const refusal = typeof token === "string"
        ? await this.approvals.redeem(token, digest, agentId)
        : "The approval token is not a string.";
      if (refusal) return { ...answer, decision: "deny", reason: refusal };
      return {
        decision: "allow",
        allowed: true,
        reason: null,
        policies_evaluated: answer.policies_evaluated.map((p) => ({
          ...p,
          result: "pass",
          message: null,
        })),
      };
    }
    const approval = await this.approvals.open({
      agent_id: agentId,
      user_id: body.user_id ?? null,
      action: body.action,
      context: captureContext(context.ok ? context.context : {}, this.#capture),
      digest,
      reason: answer.reason!,
      timeout_seconds: this.#window,
      trace_id: options.traceId ?? null,
      opened_by: options.origin
        ? {
          kind: "session",
          principal: options.origin.principal,
          workspace: options.origin.workspace ?? null,
        }
        : { kind: "agent", agent_id: agentId },
    });
    return { ...answer, approval };
  }

  /** The status of an approval request for the agent that opened it (null: unknown or another agent's). */
  approval(requestId: string, agentId: string): Promise<ApprovalStatus | null> {
    return this.approvals.status(requestId, agentId);
  }
}
