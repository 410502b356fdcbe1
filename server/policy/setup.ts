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
import { gateHook } from "./hook.ts";
import { HoldWatcher, type HoldWatcherOptions } from "./holds.ts";
import type { PolicyHook } from "../tools/policy.ts";
import { localBackend } from "./local_backend.ts";
import { LocalPolicyEngine } from "./local_engine.ts";
import type { PolicyOptions } from "./options.ts";
import { zentinelleBackend } from "./zentinelle_backend.ts";

/**
 * What `/health` says about the gate: the backend, and for the embedded
 * engine where its policies came from (`file`: `POLICY__FILE`, loaded;
 * `options`: `gate.document` in code; `none`: every call allowed) and how many
 * are in force now.
 */
export type PolicyStatus =
  | { backend: "zentinelle" }
  | { backend: "local"; source: "file" | "options" | "none"; policies: number };

/** The gate as the runtime holds it. */
export interface PolicyRuntime {
  /** The backend and the policies in force, for `/health`. */
  status(): PolicyStatus;
  gate: PolicyGate;
  /** The turn's policy hook: the gate, with `ask` registered as a hold. */
  hook: PolicyHook;
  /** The held calls being polled. */
  holds: HoldWatcher;
  /** The embedded engine when `backend` is `local` (it also serves the contract's routes). */
  local: LocalPolicyEngine | null;
  options: PolicyOptions;
  clock: HoldClock;
  logger: Logger;
  /**
   * Checks the policy service (Zentinelle's version probe), then resumes
   * polling the holds a previous run left in the store. Throws, naming what
   * the service lacks, when the service is one Tether cannot work with.
   */
  start(): Promise<void>;
  /** Stops polling holds and watching the policy file. */
  close(): Promise<void>;
}

/** What the gate needs from the engine. */
export interface PolicyHost {
  /** Resumes a held call's turn with the verdict (`Engine.resumeHeld`). */
  release: HoldWatcherOptions["release"];
}

/**
 * Creates the gate. Throws an `Error` naming the variable when the configuration cannot work.
 *
 * @example
 * ```ts
 * const policy = await createPolicy(resolvePolicyOptions(), memoryStore(), log, {
 *   release: (sid, callId, verdict) => engine.resumeHeld(sid, callId, verdict),
 * });
 * ```
 */
export async function createPolicy(
  options: PolicyOptions,
  store: Store,
  logger: Logger,
  host: PolicyHost,
): Promise<PolicyRuntime> {
  for (const key of Object.keys(options.agentKeys)) registerSecret(key);
  registerSecret(options.zentinelleKey);
  registerSecret(options.approvalSecret);
  const described = { harness: options.harness, cwd: options.cwd };
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
      harness: options.harness,
    });
    const status = () => ({ backend: "zentinelle" as const });
    const gate = new PolicyGate(backend, described);
    return assemble(gate, null, options, store, logger, host, () => {}, status);
  }
  const engine = new LocalPolicyEngine({
    store,
    policies: options.document,
    now: options.now,
    secret: options.approvalSecret,
    log: (msg, fields) => logger.info(msg, fields),
    contentCapture: options.contentCapture,
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
    // Said once at start, so an operator sees the file was read and how many policies it holds.
    logger.info("policy file loaded", {
      file: options.file,
      policies: file.initial.policies.length,
    });
    stop = file.stop;
  }
  const source = options.file
    ? "file" as const
    : options.document
    ? "options" as const
    : "none" as const;
  const status = () => ({ backend: "local" as const, source, policies: engine.policies.length });
  const gate = new PolicyGate(localBackend(engine, options.agentId), described);
  return assemble(gate, engine, options, store, logger, host, stop, status);
}

function assemble(
  gate: PolicyGate,
  local: LocalPolicyEngine | null,
  options: PolicyOptions,
  store: Store,
  logger: Logger,
  host: PolicyHost,
  stopFile: () => void,
  status: () => PolicyStatus,
): PolicyRuntime {
  const clock = options.clock ?? realClock;
  const holds = new HoldWatcher({
    store,
    gate,
    clock,
    pollMs: options.pollMs,
    release: host.release,
    logger,
  });
  return {
    status,
    gate,
    hook: gateHook(gate, holds),
    holds,
    local,
    options,
    clock,
    logger,
    async start() {
      const probed = await gate.probe();
      if (!probed.ok && probed.final) throw new Error(probed.reason);
      if (!probed.ok) {
        logger.warn("the policy service could not be checked; calls are refused until it can", {
          reason: probed.reason,
        });
      }
      await holds.start();
    },
    async close() {
      stopFile();
      await holds.stop();
    },
  };
}
