/**
 * The gate as the turn's policy hook: every tool call of every kind is
 * evaluated with the contract's body; `ask` registers the hold with the
 * watcher, which releases the call when its approval is decided.
 *
 * @module
 */
import type { PolicyHook } from "../tools/policy.ts";
import type { HoldWatcher } from "./holds.ts";
import type { PolicyGate } from "./gate.ts";

/**
 * Wraps a gate and its hold watcher as a `PolicyHook`.
 *
 * @example
 * ```ts
 * const hook = gateHook(policy.gate, holds);
 * ```
 */
export function gateHook(gate: PolicyGate, holds: HoldWatcher): PolicyHook {
  return async (request) => {
    const call = {
      sessionId: request.sessionId,
      // A Tether session is one conversation, so the chat is the session itself.
      chatId: request.sessionId,
      userId: request.principal.id,
      ...(request.principal.workspace ? { workspace: request.principal.workspace } : {}),
      callId: request.callId,
      toolName: request.toolName,
      input: request.arguments,
    };
    const decision = await gate.evaluate(call);
    if (decision.decision !== "ask") return decision;
    await holds.add(call, decision.approval);
    return { decision: "ask", reason: decision.reason, approval: { ...decision.approval } };
  };
}
