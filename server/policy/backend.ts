/**
 * The policy backend interface: where the gate sends a tool call for a
 * decision and polls an approval. Two backends implement it, `localBackend()`
 * (the embedded engine, the default) and `zentinelleBackend()` (HTTP), and
 * both pass the shared suite in `backend.case.ts`.
 *
 * A backend may throw or answer nonsense; the gate (`gate.ts`) reads every
 * answer strictly and turns anything but a well-formed `allow` into a denial.
 *
 * @module
 */
import type { ApprovalStatus, EvaluateBody } from "./contract.ts";

/**
 * A policy service.
 *
 * @example
 * ```ts
 * const backend: PolicyBackend = localBackend(engine, "tether");
 * const answer = await backend.evaluate({ action: "tool_call", context: { harness: "offline", session_id: "s", tool_name: "Bash" } });
 * ```
 */
/**
 * Whose call an evaluation is about: the principal of the session and its workspace.
 *
 * @example
 * ```ts
 * const origin: CallOrigin = { principal: "ann", workspace: "acme" };
 * ```
 */
export interface CallOrigin {
  principal: string;
  /** The principal's workspace (absent: the runtime's default). */
  workspace?: string;
}

export interface PolicyBackend {
  /** "local" or "zentinelle" (shown in logs and traces). */
  readonly name: string;
  /**
   * Sends one evaluation; resolves with the raw answer (read by the gate), or throws. `origin`
   * says whose call it is, for a backend that keeps its own inbox (the embedded engine); it
   * never goes on the wire.
   */
  evaluate(body: EvaluateBody, signal?: AbortSignal, origin?: CallOrigin): Promise<unknown>;
  /** Reads one approval request; resolves with the raw answer, or throws. */
  approval(requestId: string, signal?: AbortSignal): Promise<unknown>;
  /**
   * Checks that the service is one the gate can work with (Zentinelle's
   * version, `zentinelle_version.ts`); absent for a backend that needs no check.
   */
  probe?(signal?: AbortSignal): Promise<ProbeResult>;
}

/**
 * A probe's verdict: usable, or not with the reason; `final` when retrying
 * cannot help (an outdated release, a refused key), not when the service
 * was only out of reach.
 */
export type ProbeResult = { ok: true } | { ok: false; final: boolean; reason: string };

/** A backend's answer the gate could not accept; the message says why (it becomes the denial reason). */
export class PolicyUnavailable extends Error {
  override name = "PolicyUnavailable";
}

export type { ApprovalStatus };
