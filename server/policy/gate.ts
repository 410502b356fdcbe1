/**
 * The policy gate: builds the contract's evaluation body for a tool call,
 * asks the backend, and reads the answer strictly. Only a well-formed
 * `allow` lets a call through; a thrown error, a missing or unknown
 * `decision`, `allowed` without `decision`, an `ask` without an approval
 * request all end in `deny` with a reason.
 *
 * @module
 */
import type { PolicyBackend } from "./backend.ts";
import type { ApprovalOffer, ApprovalStatus, EvaluateBody } from "./contract.ts";

/** A tool call as the gate describes it to the policy service. */
export interface GateCall {
  sessionId: string;
  /** The session's principal. */
  userId: string;
  chatId?: string;
  callId: string;
  toolName: string;
  input: unknown;
  cwd?: string;
}

/** What the gate decided. */
export type GateDecision =
  | { decision: "allow" }
  | { decision: "deny"; reason: string }
  | { decision: "ask"; reason: string; approval: ApprovalOffer };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Reads an evaluation answer; anything but a clear allow, deny or ask is a deny.
 *
 * @example
 * ```ts
 * readDecision({ allowed: true }, false); // { decision: "deny", reason: "…no decision…" }
 * ```
 */
export function readDecision(raw: unknown, retry: boolean): GateDecision {
  if (!isObject(raw)) {
    return { decision: "deny", reason: "The policy service gave no answer it could read." };
  }
  const reason = typeof raw.reason === "string" && raw.reason ? raw.reason : null;
  if (raw.decision === "allow") {
    return raw.allowed === true
      ? { decision: "allow" }
      : { decision: "deny", reason: "The policy service answered allow without allowed: true." };
  }
  if (raw.decision === "deny") return { decision: "deny", reason: reason ?? "Denied by policy." };
  if (raw.decision === "ask") {
    const a = raw.approval;
    if (retry) {
      return { decision: "deny", reason: reason ?? "The approval did not release the call." };
    }
    if (
      !isObject(a) || typeof a.request_id !== "string" || !a.request_id ||
      typeof a.timeout_seconds !== "number" || !(a.timeout_seconds > 0)
    ) {
      return {
        decision: "deny",
        reason: "The policy service asked for approval without an approval request.",
      };
    }
    return {
      decision: "ask",
      reason: reason ?? "This call needs a human's approval.",
      approval: {
        request_id: a.request_id,
        status: "pending",
        expires_at: typeof a.expires_at === "string" ? a.expires_at : "",
        timeout_seconds: a.timeout_seconds,
      },
    };
  }
  return { decision: "deny", reason: "The policy service's answer had no decision." };
}

/**
 * The gate over one backend.
 *
 * @example
 * ```ts
 * const gate = new PolicyGate(localBackend(engine, "tether"), "offline");
 * const d = await gate.evaluate({ sessionId: "s", userId: "local", callId: "c1", toolName: "Bash", input: { command: "ls" } });
 * ```
 */
export class PolicyGate {
  readonly backend: PolicyBackend;
  /** The lowercase slug naming the model provider, sent as `context.harness`. */
  readonly harness: string;

  constructor(backend: PolicyBackend, harness: string) {
    this.backend = backend;
    this.harness = harness;
  }

  /** The contract's evaluation body for a call (with the token on the retry that releases it). */
  body(call: GateCall, token?: string): EvaluateBody {
    return {
      action: "tool_call",
      user_id: call.userId,
      context: {
        harness: this.harness,
        session_id: call.sessionId,
        ...(call.chatId ? { chat_id: call.chatId } : {}),
        tool_call_id: call.callId,
        tool_name: call.toolName,
        tool_input: call.input,
        ...(call.cwd ? { cwd: call.cwd } : {}),
        ...(token ? { approval_token: token } : {}),
      },
    };
  }

  /** Evaluates a call; never throws. With a token, anything but allow is a denial. */
  async evaluate(call: GateCall, token?: string, signal?: AbortSignal): Promise<GateDecision> {
    try {
      return readDecision(await this.backend.evaluate(this.body(call, token), signal), !!token);
    } catch (error) {
      return {
        decision: "deny",
        reason: `The policy service could not decide (${
          (error as Error).message
        }), so the call was refused.`,
      };
    }
  }

  /** Reads an approval request; null when the read failed (the hold polls again). */
  async poll(requestId: string, signal?: AbortSignal): Promise<ApprovalStatus | null> {
    try {
      const raw = await this.backend.approval(requestId, signal);
      if (!isObject(raw) || typeof raw.status !== "string") return null;
      if (!["pending", "approved", "denied", "expired"].includes(raw.status)) return null;
      return raw as unknown as ApprovalStatus;
    } catch {
      return null;
    }
  }
}
