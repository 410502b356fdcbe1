/**
 * Reads the gate's options from `POLICY__*` environment variables.
 *
 * @module
 */
import { CAPTURE_MODES, type CaptureMode } from "./content_capture.ts";
import type { PolicyOptions } from "./options.ts";

/**
 * The gate's options the environment sets, or undefined when it sets none.
 * Throws an `Error` naming the variable when one is malformed.
 *
 * @example
 * ```ts
 * policyOptionsFromEnv({ POLICY__BACKEND: "local", POLICY__FILE: "policies.json" });
 * ```
 */
export function policyOptionsFromEnv(
  env: Record<string, string | undefined>,
): Partial<PolicyOptions> | undefined {
  const out: Partial<PolicyOptions> = {};
  const backend = env.POLICY__BACKEND;
  if (backend) {
    if (backend !== "local" && backend !== "zentinelle") {
      throw new Error(`POLICY__BACKEND must be local or zentinelle, got "${backend}".`);
    }
    out.backend = backend;
  }
  if (env.POLICY__FILE) out.file = env.POLICY__FILE;
  if (env.POLICY__ZENTINELLE_URL) {
    try {
      new URL(env.POLICY__ZENTINELLE_URL);
    } catch {
      throw new Error(
        "POLICY__ZENTINELLE_URL must be an absolute URL like https://zentinelle.example.com.",
      );
    }
    out.zentinelleUrl = env.POLICY__ZENTINELLE_URL;
  }
  if (env.POLICY__ZENTINELLE_KEY) out.zentinelleKey = env.POLICY__ZENTINELLE_KEY;
  if (env.POLICY__HARNESS) {
    if (!/^[a-z0-9][a-z0-9._-]{0,49}$/.test(env.POLICY__HARNESS)) {
      throw new Error(
        "POLICY__HARNESS must be a lowercase slug of up to 50 characters, like tether.",
      );
    }
    out.harness = env.POLICY__HARNESS;
  }
  if (env.POLICY__CWD) {
    if (!env.POLICY__CWD.startsWith("/")) {
      throw new Error(
        `POLICY__CWD must be an absolute path like /workspace, got "${env.POLICY__CWD}".`,
      );
    }
    out.cwd = env.POLICY__CWD;
  }
  if (env.POLICY__CONTENT_CAPTURE) {
    if (!CAPTURE_MODES.includes(env.POLICY__CONTENT_CAPTURE as CaptureMode)) {
      throw new Error(
        `POLICY__CONTENT_CAPTURE must be metadata, redacted or full, got "${env.POLICY__CONTENT_CAPTURE}".`,
      );
    }
    out.contentCapture = env.POLICY__CONTENT_CAPTURE as CaptureMode;
  }
  if (env.POLICY__AGENT_ID) out.agentId = env.POLICY__AGENT_ID;
  if (env.POLICY__SELF_APPROVAL) {
    if (env.POLICY__SELF_APPROVAL !== "allow" && env.POLICY__SELF_APPROVAL !== "refuse") {
      throw new Error(
        `POLICY__SELF_APPROVAL must be allow or refuse, got "${env.POLICY__SELF_APPROVAL}".`,
      );
    }
    out.selfApproval = env.POLICY__SELF_APPROVAL === "allow";
  }
  if (env.POLICY__APPROVAL_SECRET) out.approvalSecret = env.POLICY__APPROVAL_SECRET;
  for (
    const [name, key] of [["POLICY__TIMEOUT_MS", "timeoutMs"], ["POLICY__POLL_MS", "pollMs"], [
      "POLICY__RELOAD_MS",
      "reloadMs",
    ]] as const
  ) {
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) {
      throw new Error(`${name} must be a positive integer, got "${raw}".`);
    }
    out[key] = n;
  }
  if (env.POLICY__AGENT_KEYS) {
    let keys: unknown;
    try {
      keys = JSON.parse(env.POLICY__AGENT_KEYS);
    } catch {
      throw new Error('POLICY__AGENT_KEYS must be a JSON object like {"<key>": "<agent id>"}.');
    }
    const ok = typeof keys === "object" && keys !== null && !Array.isArray(keys) &&
      Object.entries(keys).every(([k, v]) =>
        k.startsWith("sk_agent_") && k.length >= 25 && typeof v === "string" && v !== ""
      );
    if (!ok) {
      throw new Error(
        "POLICY__AGENT_KEYS must map agent keys (sk_agent_ and at least 16 more characters, as Zentinelle's) to agent ids (non-empty strings).",
      );
    }
    out.agentKeys = keys as Record<string, string>;
  }
  return Object.keys(out).length ? out : undefined;
}
