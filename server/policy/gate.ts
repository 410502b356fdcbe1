/**
 * The policy gate: builds the contract's evaluation body for a tool call,
 * asks the backend, and reads the answer strictly. Only a well-formed
 * `allow` lets a call through; a thrown error, a missing or unknown
 * `decision`, `allowed` without `decision`, an `ask` without an approval
 * request all end in `deny` with a reason. A backend with a version probe
 * is trusted only once the probe passed (see `zentinelle_version.ts`).
 *
 * The body keeps to the contract's limits: identifiers take up to 255
 * characters, so a longer user id or call id is sent as its first 200
 * characters, `~` and 32 hex digits of its SHA-256 (stable, so an approval
 * still binds to it); a tool name over 255 characters cannot be named to
 * the service and the call is denied here.
 *
 * @module
 */
import type { PolicyVerdict } from "../../protocol/mod.ts";
import type { PolicyBackend, ProbeResult } from "./backend.ts";
import type { ApprovalOffer, ApprovalStatus, EvaluateBody } from "./contract.ts";

/** A tool call as the gate describes it to the policy service. */
export interface GateCall {
  sessionId: string;
  /** The session's principal. */
  userId: string;
  /** The principal's workspace (absent: the runtime's default); scopes the approval inbox. */
  workspace?: string;
  chatId?: string;
  callId: string;
  toolName: string;
  input: unknown;
  cwd?: string;
}

/** The contract's limit on identifiers. */
export const MAX_ID = 255;

/**
 * An identifier within the contract's 255 characters: itself when it fits,
 * else its first 200 characters, `~` and 32 hex digits of its SHA-256.
 *
 * @example
 * ```ts
 * await fitId("dev@example.com"); // "dev@example.com"
 * (await fitId("x".repeat(300))).length; // 233
 * ```
 */
export async function fitId(id: string): Promise<string> {
  if (id.length <= MAX_ID) return id;
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(id)),
  );
  const hex = [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${id.slice(0, 200)}~${hex}`;
}

/** What the gate decided. */
export type GateDecision = PolicyVerdict<ApprovalOffer>;

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

/** How the gate describes every call: the agent host's slug and its working directory. */
export interface GateOptions {
  /** `context.harness`: the agent host's lowercase slug (`tether` unless configured). */
  harness: string;
  /** `context.cwd` of every call, when the runtime has a working directory. */
  cwd?: string;
  /** How long a probe that could not reach the service is trusted to stay a failure (ms, default 30,000). */
  reprobeMs?: number;
  /** The clock (epoch ms). */
  now?: () => number;
}

/**
 * The gate over one backend.
 *
 * @example
 * ```ts
 * const gate = new PolicyGate(localBackend(engine, "tether"), { harness: "tether" });
 * const d = await gate.evaluate({ sessionId: "s", userId: "local", callId: "c1", toolName: "Bash", input: { command: "ls" } });
 * ```
 */
export class PolicyGate {
  readonly backend: PolicyBackend;
  /** The agent host's slug, sent as `context.harness`. */
  readonly harness: string;
  readonly cwd: string | undefined;
  #probe: ProbeResult | null = null;
  #probing: Promise<ProbeResult> | null = null;
  #probedAt = 0;
  #reprobeMs: number;
  #now: () => number;

  constructor(backend: PolicyBackend, options: GateOptions) {
    this.backend = backend;
    this.harness = options.harness;
    this.cwd = options.cwd;
    this.#reprobeMs = options.reprobeMs ?? 30_000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Runs the backend's probe (once it passed, never again; a failure that
   * was not final is retried after `reprobeMs`). Resolves with the verdict.
   */
  probe(signal?: AbortSignal): Promise<ProbeResult> {
    if (!this.backend.probe) return Promise.resolve({ ok: true });
    const last = this.#probe;
    if (last && (last.ok || last.final || this.#now() - this.#probedAt < this.#reprobeMs)) {
      return Promise.resolve(last);
    }
    return this.#probing ??= this.backend.probe(signal).catch((error: unknown) => ({
      ok: false as const,
      final: false,
      reason: (error as Error).message,
    })).then((result) => {
      this.#probe = result;
      this.#probedAt = this.#now();
      this.#probing = null;
      return result;
    });
  }

  /** The contract's evaluation body for a call (with the token on the retry that releases it). */
  async body(call: GateCall, token?: string): Promise<EvaluateBody> {
    const cwd = call.cwd ?? this.cwd;
    return {
      action: "tool_call",
      user_id: await fitId(call.userId),
      context: {
        harness: this.harness,
        session_id: await fitId(call.sessionId),
        ...(call.chatId ? { chat_id: await fitId(call.chatId) } : {}),
        tool_call_id: await fitId(call.callId),
        tool_name: call.toolName,
        tool_input: call.input,
        ...(cwd ? { cwd } : {}),
        ...(token ? { approval_token: token } : {}),
      },
    };
  }

  /** Evaluates a call; never throws. With a token, anything but allow is a denial. */
  async evaluate(call: GateCall, token?: string, signal?: AbortSignal): Promise<GateDecision> {
    if (call.toolName.length > MAX_ID) {
      return {
        decision: "deny",
        reason:
          `The tool's name is longer than the ${MAX_ID} characters a policy service takes, so the call was refused.`,
      };
    }
    const probed = await this.probe(signal);
    if (!probed.ok) {
      return {
        decision: "deny",
        reason: `The policy service cannot be used (${probed.reason}), so the call was refused.`,
      };
    }
    try {
      return readDecision(
        await this.backend.evaluate(await this.body(call, token), signal, {
          principal: call.userId,
          ...(call.workspace ? { workspace: call.workspace } : {}),
        }),
        !!token,
      );
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
