/**
 * How the policy gate is configured (`POLICY__*`), and the defaults: the
 * embedded engine with no policies (every call allowed) until a policy file
 * or Zentinelle is configured.
 *
 * @module
 */
import type { CaptureMode } from "./content_capture.ts";
import type { HoldClock } from "./hold.ts";
import type { PolicyDocument } from "./policy_file.ts";

/** The gate's options (`RuntimeOptions.gate`). */
export interface PolicyOptions {
  /** `POLICY__BACKEND`: `local` (the embedded engine, default) or `zentinelle`. */
  backend: "local" | "zentinelle";
  /** `POLICY__FILE`: the policy document for the embedded engine; reloaded when it changes. */
  file?: string;
  /** Policies given in code instead of a file. */
  document?: PolicyDocument;
  /** `POLICY__ZENTINELLE_URL`: Zentinelle's base URL. */
  zentinelleUrl?: string;
  /** `POLICY__ZENTINELLE_KEY`: the agent host key sent as `X-Zentinelle-Key`. */
  zentinelleKey?: string;
  /** `POLICY__TIMEOUT_MS`: how long one policy request may take (default 5,000). */
  timeoutMs: number;
  /** `POLICY__HARNESS`: `context.harness`, the agent host's slug (default `tether`). */
  harness: string;
  /**
   * `POLICY__CWD`: the working directory the runtime's tools act in, sent as
   * `context.cwd` (relative paths and path rules resolve against it). Absent: none is sent.
   */
  cwd?: string;
  /**
   * `POLICY__CONTENT_CAPTURE`: what approval requests keep of a call (`metadata`, `redacted`, `full`;
   * default `full`, so an approver sees the input whole; under `metadata` approvals cannot be granted).
   */
  contentCapture: CaptureMode;
  /** `POLICY__AGENT_KEYS`: keys other agent hosts use with Tether's policy service, key → agent id. */
  agentKeys: Record<string, string>;
  /** `POLICY__AGENT_ID`: the agent id Tether's own calls are evaluated as (default `tether`). */
  agentId: string;
  /**
   * `POLICY__SELF_APPROVAL` (`allow` or `refuse`): whether a principal may decide an approval of
   * its own call. Absent: refused, except under `trusted_local` (one local principal).
   */
  selfApproval?: boolean;
  /** `POLICY__APPROVAL_SECRET`: HMAC secret for approval tokens (default: made once, kept in the store). */
  approvalSecret?: string;
  /** `POLICY__POLL_MS`: how often a held call's approval is polled (default 2,000). */
  pollMs: number;
  /** `POLICY__RELOAD_MS`: how often the policy file is checked for changes (default 1,000). */
  reloadMs: number;
  /** The hold's clock (tests pass their own). */
  clock?: HoldClock;
  /** The embedded engine's clock in epoch ms (tests pass their own). */
  now?: () => number;
}

/**
 * Fills the gate's defaults.
 *
 * @example
 * ```ts
 * resolvePolicyOptions({ file: "policies.json" }).backend; // "local"
 * ```
 */
export function resolvePolicyOptions(partial: Partial<PolicyOptions> = {}): PolicyOptions {
  return {
    backend: "local",
    timeoutMs: 5_000,
    harness: "tether",
    contentCapture: "full",
    agentKeys: {},
    agentId: "tether",
    pollMs: 2_000,
    reloadMs: 1_000,
    ...partial,
  };
}
