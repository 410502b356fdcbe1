/**
 * Admission of a tool call, the same steps for every kind: arguments
 * validated against the tool's schema, the kind's own checks, then the
 * policy gate (allow, deny, or ask: a hold for a human approval).
 *
 * @module
 */
import { type Approval, validateJsonSchema } from "../../protocol/mod.ts";
import { re2Matcher } from "../tools/re2_matcher.ts";
import { newId } from "../session/create.ts";
import type { CallRecord } from "../session/records.ts";
import { decide } from "../tools/policy.ts";
import type { TurnTool } from "../tools/turn_tools.ts";
import type { ModelCall } from "./_messages.ts";
import { kindOf } from "./kinds/mod.ts";
import type { PendItem } from "./kinds/mod.ts";
import type { RunContext } from "./run_context.ts";

/** How long a hold waits when the policy names no timeout. */
const DEFAULT_HOLD_SECONDS = 300;

/** What admission decided about one call. */
export type Admission =
  | { kind: "admitted" }
  | { kind: "refused"; reason: string; policy?: "deny" }
  /** The gate asked: the call pends with `item` (`waiting_for: "approval"`) until a person decides. */
  | { kind: "held"; approval: Approval; item: PendItem };

/**
 * Runs the admission steps for one call.
 *
 * @example
 * ```ts
 * const admission = await admit(ctx, call, ctx.tools.get(call.tool_name), raw);
 * if (admission.kind === "refused") fail(call, admission.reason);
 * ```
 */
export async function admit(
  ctx: RunContext,
  call: CallRecord,
  tool: TurnTool | undefined,
  raw: ModelCall,
): Promise<Admission> {
  if (!tool || raw.invalid) {
    return {
      kind: "refused",
      reason: tool
        ? `The arguments for ${call.tool_name} are not valid JSON.`
        : `There is no tool named ${call.tool_name} in this turn.`,
    };
  }
  const issues = validateJsonSchema(tool.parameters, raw.input, { matcher: re2Matcher });
  if (issues.length) {
    // Each message is a sentence; the list joins them without their full stops ("add it.. Fix").
    const list = issues.slice(0, 5).map((i) =>
      `${i.path || "(arguments)"}: ${i.message.replace(/\.+$/, "")}`
    ).join("; ");
    return {
      kind: "refused",
      reason: `Invalid arguments for ${call.tool_name}: ${list}. Fix them and call again.`,
    };
  }
  const own = await kindOf(call.category).admit?.(ctx, call, tool);
  if (own) return { kind: "refused", reason: own };
  const decision = await decide(ctx.policy, {
    principal: ctx.principal,
    sessionId: ctx.sessionId,
    callId: call.call_id,
    toolName: call.tool_name,
    category: call.category,
    arguments: call.arguments,
  });
  if (decision.decision === "allow") return { kind: "admitted" };
  if (decision.decision === "deny") {
    return { kind: "refused", reason: `Refused by policy: ${decision.reason}`, policy: "deny" };
  }
  const approval = approvalOf(decision.reason, decision.approval);
  return {
    kind: "held",
    approval,
    item: { category: call.category, waiting_for: "approval", approval },
  };
}

/** The approval object of a hold, from what the policy said about it. */
function approvalOf(reason: string, given: Record<string, unknown> = {}): Approval {
  const seconds = typeof given.timeout_seconds === "number" && given.timeout_seconds > 0
    ? given.timeout_seconds
    : DEFAULT_HOLD_SECONDS;
  const expires = typeof given.expires_at === "string" && !isNaN(Date.parse(given.expires_at))
    ? new Date(given.expires_at).toISOString()
    : new Date(Date.now() + seconds * 1000).toISOString();
  return {
    status: "pending",
    request_id: typeof given.request_id === "string" && given.request_id
      ? given.request_id
      : newId("apr"),
    reason,
    expires_at: expires,
    timeout_seconds: seconds,
  };
}
