/**
 * Builds the runtime's policy gate from its options: the embedded engine
 * (with the policy file watched) or the Zentinelle client.
 *
 * @module
 */
import type { Store } from "../kv/store.ts";
import { type Logger, registerSecret } from "../log.ts";
import type { PolicyBackend } from "./backend.ts";
import { watchPolicyFile } from "./file_source.ts";
import { PolicyGate } from "./gate.ts";
import { type HoldClock, realClock } from "./hold.ts";
import { localBackend } from "./local_backend.ts";
import { LocalPolicyEngine } from "./local_engine.ts";
import { harnessSlug, type PolicyOptions } from "./options.ts";
import { zentinelleBackend } from "./zentinelle_backend.ts";

/** The gate as the runtime holds it. */
export interface PolicyRuntime {
  gate: PolicyGate;
  /** The embedded engine when `backend` is `local` (it also serves the contract's routes). */
  local: LocalPolicyEngine | null;
  options: PolicyOptions;
  clock: HoldClock;
  /** Stops watching the policy file. */
  close(): void;
}

/**
 * Creates the gate. Throws an `Error` naming the variable when the configuration cannot work.
 *
 * @example
 * ```ts
 * const policy = await createPolicy(resolvePolicyOptions(), memoryStore(), "offline", log);
 * ```
 */
export async function createPolicy(
  options: PolicyOptions,
  store: Store,
  modelName: string,
  logger: Logger,
): Promise<PolicyRuntime> {
  for (const key of Object.keys(options.agentKeys)) registerSecret(key);
  registerSecret(options.zentinelleKey);
  registerSecret(options.approvalSecret);
  const harness = options.harness ?? harnessSlug(modelName);
  const clock = options.clock ?? realClock;
  if (options.backend === "zentinelle") {
    if (!options.zentinelleUrl || !options.zentinelleKey) {
      throw new Error(
        "POLICY__BACKEND=zentinelle needs POLICY__ZENTINELLE_URL and POLICY__ZENTINELLE_KEY; set both or use POLICY__BACKEND=local.",
      );
    }
    const backend: PolicyBackend = zentinelleBackend({
      url: options.zentinelleUrl,
      key: options.zentinelleKey,
      timeoutMs: options.timeoutMs,
    });
    return { gate: new PolicyGate(backend, harness), local: null, options, clock, close() {} };
  }
  const engine = new LocalPolicyEngine({
    store,
    policies: options.document,
    now: options.now,
    secret: options.approvalSecret,
    log: (msg, fields) => logger.info(msg, fields),
  });
  let stop = () => {};
  if (options.file) {
    const file = await watchPolicyFile({
      path: options.file,
      intervalMs: options.reloadMs,
      onChange: (doc) => {
        engine.setPolicies(doc);
        logger.info("policy file reloaded", { file: options.file, policies: doc.policies.length });
      },
      onError: (message) => logger.error(message, { file: options.file }),
    });
    engine.setPolicies(file.initial);
    stop = file.stop;
  }
  return {
    gate: new PolicyGate(localBackend(engine, options.agentId), harness),
    local: engine,
    options,
    clock,
    close: stop,
  };
}
