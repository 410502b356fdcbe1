/**
 * The `human_oversight` policy, as Zentinelle reads it: a call that is
 * expensive (`estimated_cost_usd` over 1 USD), carries sensitive data
 * (`has_sensitive_data`) or reaches outside (`is_external_call`), for the
 * conditions listed in `require_approval_for`, waits for a person (ask),
 * unless its estimated cost is below `auto_approve_below_cost_usd`. These
 * facts come from the calling host's context; Tether's own gate sends none.
 *
 * @module
 */
import {
  approvalTimeout,
  fail,
  isObject,
  knownKeys,
  type PolicyKind,
  strings,
} from "./policy_kind.ts";

/** The `config` of a `human_oversight` policy. */
export interface HumanOversightConfig {
  require_approval_for?: ("high_cost" | "sensitive_data" | "external_calls")[];
  approval_timeout_seconds?: number;
  auto_approve_below_cost_usd?: number;
}

const KEYS = ["require_approval_for", "approval_timeout_seconds", "auto_approve_below_cost_usd"];
const CONDITIONS = ["high_cost", "sensitive_data", "external_calls"];

/** The `human_oversight` type. */
export const humanOversight: PolicyKind<HumanOversightConfig> = {
  parse(value, field) {
    if (!isObject(value)) fail(field, "must be an object.");
    knownKeys(value, KEYS, field);
    if (value.require_approval_for !== undefined) {
      strings(value.require_approval_for, `${field}.require_approval_for`).forEach((c, i) => {
        if (!CONDITIONS.includes(c)) {
          fail(`${field}.require_approval_for[${i}]`, `must be one of ${CONDITIONS.join(", ")}.`);
        }
      });
    }
    approvalTimeout(value, field);
    const floor = value.auto_approve_below_cost_usd;
    if (floor !== undefined && !(typeof floor === "number" && Number.isFinite(floor))) {
      fail(`${field}.auto_approve_below_cost_usd`, "must be a number of US dollars.");
    }
    return value as HumanOversightConfig;
  },
  compile(c) {
    const wanted = new Set(c.require_approval_for ?? []);
    return ({ context }) => {
      const cost = typeof context.estimated_cost_usd === "number"
        ? context.estimated_cost_usd
        : undefined;
      const floor = c.auto_approve_below_cost_usd;
      if (floor !== undefined && cost !== undefined && cost < floor) return { result: "pass" };
      const triggered: string[] = [];
      if (wanted.has("high_cost") && cost !== undefined && cost > 1) {
        triggered.push(`high_cost (estimated $${cost.toFixed(4)} > $1.00)`);
      }
      if (wanted.has("sensitive_data") && context.has_sensitive_data) {
        triggered.push("sensitive_data");
      }
      if (wanted.has("external_calls") && context.is_external_call) {
        triggered.push("external_calls");
      }
      if (!triggered.length) return { result: "pass" };
      return {
        result: "ask",
        message: `Human approval required for: ${triggered.join(", ")}.`,
      };
    };
  },
};
