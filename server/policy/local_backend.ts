/**
 * The embedded engine as a policy backend, acting for one agent id.
 *
 * @module
 */
import type { CallOrigin, PolicyBackend } from "./backend.ts";
import { checkEvaluateBody } from "./context.ts";
import type { EvaluateBody } from "./contract.ts";
import { PolicyUnavailable } from "./backend.ts";
import type { LocalPolicyEngine } from "./local_engine.ts";

/**
 * A backend over the embedded engine (no network).
 *
 * @example
 * ```ts
 * const backend = localBackend(new LocalPolicyEngine({ store }), "tether");
 * ```
 */
export function localBackend(engine: LocalPolicyEngine, agentId: string): PolicyBackend {
  return {
    name: "local",
    evaluate(body: EvaluateBody, _signal?: AbortSignal, origin?: CallOrigin) {
      const checked = checkEvaluateBody(body);
      if (!checked.ok) {
        throw new PolicyUnavailable(
          `the call's context is invalid: ${JSON.stringify(checked.refusal.body)}`,
        );
      }
      return engine.evaluate(checked.body, agentId, { origin });
    },
    async approval(requestId: string) {
      const status = await engine.approval(requestId, agentId);
      if (!status) throw new PolicyUnavailable(`approval request ${requestId} is not known`);
      return status;
    },
  };
}
