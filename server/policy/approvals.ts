/**
 * Approval requests of the embedded engine, kept in the runtime's store
 * (`["approval", request_id]`) so they survive a restart and every process
 * sharing the store sees the same ones. Decisions and token redemption are
 * atomic commits, so a request is decided once and a token used once.
 *
 * @module
 */
import type { Store } from "../kv/store.ts";
import { type ApprovalOffer, type ApprovalStatus, MAX_APPROVAL_SECONDS } from "./contract.ts";
import { hmacKey, sameText, signToken, tokenRequestId } from "./token.ts";

/**
 * Who opened a request: a Tether session's call (its principal and workspace, from access,
 * never from a body), or an external agent through the policy service (its key's agent id;
 * the user and session it names are its own word).
 *
 * @example
 * ```ts
 * const by: OpenedBy = { kind: "session", principal: "ann", workspace: "acme" };
 * ```
 */
export type OpenedBy =
  | { kind: "session"; principal: string; workspace: string | null }
  | { kind: "agent"; agent_id: string };

/** An approval request as stored. Times are epoch milliseconds. */
export interface ApprovalRecord {
  request_id: string;
  agent_id: string;
  user_id: string | null;
  action: string;
  /** What the operator sees: harness, session, chat, call, tool, and the input (whole, or `input_withheld`). */
  context: Record<string, unknown>;
  digest: string;
  reason: string;
  /** The trace id of the evaluation that opened it (null when the caller had none). */
  trace_id?: string | null;
  /** Who opened it; absent on requests stored before, which only an admin sees. */
  opened_by?: OpenedBy;
  status: "pending" | "approved" | "denied";
  created_at: number;
  expires_at: number;
  timeout_seconds: number;
  decided_at?: number;
  decided_by?: string;
  decision_reason?: string;
  nonce?: string;
  approval_expires_at?: number;
  used_at?: number;
}

/** A refused decision: the request is unknown (404) or no longer pending (409). */
export class ApprovalConflict extends Error {
  override name = "ApprovalConflict";
  readonly status: 404 | 409;
  /** For a 409: what the request is now. */
  readonly current?: "approved" | "denied" | "expired";
  constructor(status: 404 | 409, message: string, current?: "approved" | "denied" | "expired") {
    super(message);
    this.status = status;
    this.current = current;
  }
}

/** What `Approvals` needs. */
export interface ApprovalsOptions {
  store: Store;
  /** The clock (epoch ms); tests pass their own. */
  now: () => number;
  /** The HMAC secret; when absent one is made once and kept in the store. */
  secret?: string;
  /** Where decisions are logged (with who made them). */
  log: (message: string, fields: Record<string, unknown>) => void;
  /**
   * The approval window of the policies in force, in seconds (at most 300):
   * an approved request's token lives that long, as in Zentinelle. Default 300.
   */
  window?: () => number;
}

const KEEP_AFTER_MS = 600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const key = (id: string) => ["approval", id] as const;
const randomText = (bytes: number) =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(bytes))))
    .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/**
 * The approval requests of one store.
 *
 * @example
 * ```ts
 * const approvals = new Approvals({ store, now: Date.now, log: (msg, fields) => console.log(msg, fields) });
 * const offer = await approvals.open({ agent_id: "tether", user_id: "ann", action: "tool_call", context: {}, digest, reason: "Needs a human", timeout_seconds: 60 });
 * ```
 */
export class Approvals {
  #o: ApprovalsOptions;
  #key: Promise<CryptoKey> | null = null;

  constructor(options: ApprovalsOptions) {
    this.#o = options;
  }

  /** The time now on the engine's clock (epoch ms). */
  now(): number {
    return this.#o.now();
  }

  /** The HMAC key: the configured secret, or one made once and shared through the store. */
  #hmac(): Promise<CryptoKey> {
    return this.#key ??= (async () => {
      if (this.#o.secret) return hmacKey(this.#o.secret);
      const at = ["policy", "approval_secret"];
      await this.#o.store.atomic([{ key: at, version: null }], [{
        key: at,
        value: randomText(32),
      }]);
      const stored = await this.#o.store.get<string>(at);
      if (!stored) throw new Error("The approval secret could not be stored.");
      return hmacKey(stored.value);
    })();
  }

  /** Opens a request (one per held call); the window is at most 300 seconds. */
  async open(
    input:
      & Pick<ApprovalRecord, "agent_id" | "user_id" | "action" | "context" | "digest" | "reason">
      & {
        timeout_seconds: number;
        trace_id?: string | null;
        opened_by?: OpenedBy;
      },
  ): Promise<ApprovalOffer> {
    const now = this.#o.now();
    const seconds = Math.max(1, Math.min(MAX_APPROVAL_SECONDS, input.timeout_seconds));
    const record: ApprovalRecord = {
      ...input,
      request_id: crypto.randomUUID(),
      status: "pending",
      created_at: now,
      expires_at: now + seconds * 1000,
      timeout_seconds: seconds,
    };
    await this.#o.store.set(key(record.request_id), record, {
      expireIn: seconds * 1000 + MAX_APPROVAL_SECONDS * 1000 + KEEP_AFTER_MS,
    });
    return {
      request_id: record.request_id,
      status: "pending",
      expires_at: iso(record.expires_at),
      timeout_seconds: seconds,
    };
  }

  /** One request as stored, or null. */
  async get(requestId: string): Promise<ApprovalRecord | null> {
    if (!/^[A-Za-z0-9-]{1,64}$/.test(requestId)) return null;
    return (await this.#o.store.get<ApprovalRecord>(key(requestId)))?.value ?? null;
  }

  /** The contract's status answer for the agent that opened it; null for an unknown id or another agent's. */
  async status(requestId: string, agentId: string): Promise<ApprovalStatus | null> {
    const r = await this.get(requestId);
    if (!r || r.agent_id !== agentId) return null;
    const base = { request_id: r.request_id, expires_at: iso(r.expires_at) };
    if (r.status === "approved") {
      const token = await signToken(await this.#hmac(), r.request_id, r.nonce!, r.digest);
      return {
        ...base,
        status: "approved",
        approval_token: token,
        approval_expires_at: iso(r.approval_expires_at!),
      };
    }
    if (r.status === "denied") {
      return { ...base, status: "denied", reason: r.decision_reason || "An operator denied it." };
    }
    if (this.#o.now() >= r.expires_at) {
      return {
        ...base,
        status: "expired",
        reason: "No approval arrived before the request expired.",
      };
    }
    return { ...base, status: "pending" };
  }

  /** Pending, unexpired requests, newest first, at most 100. */
  async pending(): Promise<ApprovalRecord[]> {
    const now = this.#o.now();
    const all = await this.#o.store.list<ApprovalRecord>(["approval"], { limit: 10_000 });
    return all.map((e) => e.value).filter((r) => r.status === "pending" && r.expires_at > now)
      .sort((a, b) => b.created_at - a.created_at).slice(0, 100);
  }

  /** Records an operator's decision; 409 once decided or expired. Logged with who decided. */
  async decide(
    requestId: string,
    decision: "approve" | "deny",
    by: string,
    reason = "",
  ): Promise<{ request_id: string; status: "approved" | "denied"; decided_at: string }> {
    const entry = /^[A-Za-z0-9-]{1,64}$/.test(requestId)
      ? await this.#o.store.get<ApprovalRecord>(key(requestId))
      : null;
    if (!entry) throw new ApprovalConflict(404, `There is no approval request ${requestId}.`);
    const r = entry.value;
    const now = this.#o.now();
    if (r.status !== "pending") {
      throw new ApprovalConflict(
        409,
        `Approval request ${requestId} was already ${r.status}.`,
        r.status,
      );
    }
    if (now >= r.expires_at) {
      throw new ApprovalConflict(
        409,
        `Approval request ${requestId} expired; it cannot be decided.`,
        "expired",
      );
    }
    // An approval releases the whole input: one nobody could see whole is never approved.
    if (decision === "approve" && r.context.input_withheld === true) {
      throw new ApprovalConflict(
        409,
        `Approval request ${requestId} cannot be approved: ${
          String(r.context.input_withheld_reason ?? "its input was not kept")
        }. Deny it, or keep inputs (POLICY__CONTENT_CAPTURE=full) and have the call made again.`,
      );
    }
    // The token lives as long as the policies' window at the time of the decision.
    const life = Math.max(
      1,
      Math.min(MAX_APPROVAL_SECONDS, this.#o.window?.() ?? MAX_APPROVAL_SECONDS),
    );
    const next: ApprovalRecord = {
      ...r,
      status: decision === "approve" ? "approved" : "denied",
      decided_at: now,
      decided_by: by,
      decision_reason: reason,
      ...(decision === "approve"
        ? { nonce: randomText(16), approval_expires_at: now + life * 1000 }
        : {}),
    };
    const ok = await this.#o.store.atomic([{ key: key(requestId), version: entry.version }], [{
      key: key(requestId),
      value: next,
      expireIn: MAX_APPROVAL_SECONDS * 1000 + KEEP_AFTER_MS,
    }]);
    if (!ok) {
      throw new ApprovalConflict(409, `Approval request ${requestId} was decided meanwhile.`);
    }
    this.#o.log(`approval request ${next.status}`, {
      request_id: requestId,
      status: next.status,
      decided_by: by,
      reason,
      tool_name: r.context.tool_name,
      session_id: r.context.session_id,
      user_id: r.user_id,
    });
    return {
      request_id: requestId,
      status: next.status as "approved" | "denied",
      decided_at: iso(now),
    };
  }

  /** Uses a token once for a call with this digest; returns null when it is good, else the refusal. */
  async redeem(token: string, digest: string, agentId: string): Promise<string | null> {
    const id = tokenRequestId(token);
    const entry = id ? await this.#o.store.get<ApprovalRecord>(key(id)) : null;
    if (!entry || entry.value.agent_id !== agentId) return "The approval token is not known here.";
    const r = entry.value;
    if (r.status !== "approved") {
      return "The approval token belongs to a request that was not approved.";
    }
    if (r.used_at !== undefined) return "The approval token was already used; a token works once.";
    if (this.#o.now() >= r.approval_expires_at!) return "The approval token has expired.";
    const expected = await signToken(await this.#hmac(), r.request_id, r.nonce!, digest);
    if (!sameText(expected, token)) {
      return "The approval was given for a different call (session, user, tool, input or policy version changed).";
    }
    const ok = await this.#o.store.atomic([{ key: key(r.request_id), version: entry.version }], [{
      key: key(r.request_id),
      value: { ...r, used_at: this.#o.now() },
      expireIn: KEEP_AFTER_MS,
    }]);
    return ok ? null : "The approval token was already used; a token works once.";
  }
}
