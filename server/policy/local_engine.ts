/**
 * The embedded policy engine: Zentinelle's `tool_permission` answers with no
 * service, including the oversight hold (approval requests in the store,
 * single-use tokens). Tether's gate uses it by default, and Tether serves it
 * to other agent hosts on the contract's own routes.
 *
 * @module
 */
import type { Store } from "../kv/store.ts";
import { log } from "../log.ts";
import { Approvals } from "./approvals.ts";
import {
  type ApprovalStatus,
  type EvaluateAnswer,
  type EvaluateBody,
  MAX_APPROVAL_SECONDS,
  type PolicyEvaluated,
} from "./contract.ts";
import type { Policy, PolicyDocument } from "./policy_file.ts";
import { bindingDigest } from "./token.ts";
import { type CompiledPolicy, compilePolicy, judge } from "./tool_permission.ts";

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
}

const CONTEXT_SHOWN = ["harness", "session_id", "chat_id", "tool_call_id", "tool_name", "cwd"];

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
  #compiled: CompiledPolicy[] = [];
  #versions: string[] = [];
  #window = MAX_APPROVAL_SECONDS;

  constructor(options: LocalEngineOptions) {
    this.approvals = new Approvals({
      store: options.store,
      now: options.now ?? Date.now,
      secret: options.secret,
      log: options.log ?? ((msg, fields) => log.info(msg, fields)),
    });
    this.setPolicies(options.policies ?? { policies: [] });
  }

  /** Replaces the policies in force (a validated document). */
  setPolicies(doc: PolicyDocument): void {
    this.#compiled = doc.policies.map(compilePolicy);
    this.#versions = doc.policies.map((p) => `${p.id}:${p.version}`);
    const windows = doc.policies.map((p) => p.config.approval_timeout_seconds)
      .filter((s): s is number => typeof s === "number");
    this.#window = Math.min(MAX_APPROVAL_SECONDS, ...windows);
  }

  /** The policies in force. */
  get policies(): Policy[] {
    return this.#compiled.map((c) => c.policy);
  }

  /**
   * Judges a call synchronously, without approvals: what every policy says.
   * `ask` here means "allowed once a human approves".
   */
  judge(body: EvaluateBody): EvaluateAnswer {
    const evaluated: PolicyEvaluated[] = [];
    let deny: string | null = null;
    let ask: string | null = null;
    for (const c of this.#compiled) {
      const v = judge(c, body.context);
      const message = v.result === "pass" ? null : v.message;
      if (v.result === "deny") deny ??= v.message;
      if (v.result === "ask") ask ??= v.message;
      evaluated.push({
        id: c.policy.id,
        version: c.policy.version,
        name: c.policy.name,
        type: c.policy.type,
        result: v.result === "pass" ? "pass" : "fail",
        message,
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
  async evaluate(body: EvaluateBody, agentId: string): Promise<EvaluateAnswer> {
    const answer = this.judge(body);
    if (answer.decision !== "ask") return answer;
    const digest = await bindingDigest({
      agent_id: agentId,
      user_id: body.user_id ?? null,
      action: body.action,
      policy_versions: this.#versions,
      context: body.context,
    });
    const token = body.context.approval_token;
    if (typeof token === "string") {
      // Once a token is presented, a failed approval check is a denial, never another ask.
      const refusal = await this.approvals.redeem(token, digest, agentId);
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
    const shown: Record<string, unknown> = {};
    for (const f of CONTEXT_SHOWN) if (body.context[f] !== undefined) shown[f] = body.context[f];
    if (body.context.tool_input !== undefined) {
      const text = JSON.stringify(body.context.tool_input) ?? "";
      shown.tool_input = text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
    }
    const approval = await this.approvals.open({
      agent_id: agentId,
      user_id: body.user_id ?? null,
      action: body.action,
      context: shown,
      digest,
      reason: answer.reason!,
      timeout_seconds: this.#window,
    });
    return { ...answer, approval };
  }

  /** The status of an approval request for the agent that opened it (null: unknown or another agent's). */
  approval(requestId: string, agentId: string): Promise<ApprovalStatus | null> {
    return this.approvals.status(requestId, agentId);
  }
}
