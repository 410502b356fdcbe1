/**
 * The policy types the embedded engine knows, by the `type` a policy names.
 * A new type is one file implementing `PolicyKind` plus one line here.
 *
 * @module
 */
import { agentCapability } from "./agent_capability.ts";
import { humanOversight } from "./human_oversight.ts";
import type { PolicyKind } from "./policy_kind.ts";
import { toolPermission } from "./tool_permission.ts";

/** Every policy type, by name. */
export const POLICY_KINDS = {
  tool_permission: toolPermission,
  agent_capability: agentCapability,
  human_oversight: humanOversight,
} as const satisfies Record<string, PolicyKind<unknown>>;

/** A policy type's name. */
export type PolicyType = keyof typeof POLICY_KINDS;
