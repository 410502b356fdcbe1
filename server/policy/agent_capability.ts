/**
 * The `agent_capability` policy, as Zentinelle reads it: the action an agent
 * performs (the context's `action`, else the evaluation's own) matched with
 * shell-style patterns (`fnmatch`, so `tool:*` covers `tool:search`) against
 * `denied_actions` (deny), `require_approval` (ask, until an approval
 * releases it) and, when given, `allowed_actions` (anything else is denied).
 *
 * @module
 */
import { compileFnmatch, fnmatch, type FnPattern } from "./fnmatch.ts";
import {
  approvalTimeout,
  fail,
  isObject,
  knownKeys,
  type PolicyKind,
  strings,
} from "./policy_kind.ts";

/** The `config` of an `agent_capability` policy. */
export interface AgentCapabilityConfig {
  allowed_actions?: string[];
  denied_actions?: string[];
  require_approval?: string[];
  approval_timeout_seconds?: number;
}

const KEYS = ["allowed_actions", "denied_actions", "require_approval", "approval_timeout_seconds"];

const any = (patterns: FnPattern[], text: string) => patterns.some((p) => fnmatch(p, text));

/** The `agent_capability` type. */
export const agentCapability: PolicyKind<AgentCapabilityConfig> = {
  parse(value, field) {
    if (!isObject(value)) fail(field, "must be an object.");
    knownKeys(value, KEYS, field);
    for (const key of ["allowed_actions", "denied_actions", "require_approval"]) {
      if (value[key] !== undefined) strings(value[key], `${field}.${key}`);
    }
    approvalTimeout(value, field);
    return value as AgentCapabilityConfig;
  },
  compile(c, name) {
    const denied = (c.denied_actions ?? []).map(compileFnmatch);
    const approval = (c.require_approval ?? []).map(compileFnmatch);
    const allowed = (c.allowed_actions ?? []).map(compileFnmatch);
    return ({ action, context }) => {
      const acted = typeof context.action === "string" ? context.action : action;
      if (any(denied, acted)) {
        return {
          result: "deny",
          message: `Action '${acted}' is explicitly denied by policy '${name}'.`,
        };
      }
      if (any(approval, acted)) {
        return {
          result: "ask",
          message:
            `Action '${acted}' requires human approval. Provide a valid approval_token to proceed.`,
        };
      }
      if (allowed.length && !any(allowed, acted)) {
        return {
          result: "deny",
          message: `Action '${acted}' is not in the allowed actions (${
            (c.allowed_actions ?? []).join(", ")
          }).`,
        };
      }
      return { result: "pass" };
    };
  },
};
