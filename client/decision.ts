/**
 * Silent host decisions (`output_mode: "host_tools"`): ask the runtime which
 * single action to take next, then report what the engine did. Plain JSON
 * over HTTP whatever the host's transport, a fresh session per decision.
 *
 * @module
 */
import { newId } from "./_id.ts";
import { jsonRequest, runtimeHref } from "./_http.ts";
import type { HostContext } from "./_protocol.ts";
import type { PendingToolCall } from "./events.ts";

/**
 * What the runtime decided: nothing to do, one action to perform, or a receipt recorded.
 *
 * @example
 * ```ts
 * const d: Decision = await host.decide("Move left a bit.");
 * if (d.decision === "pending") await engine.run(d.call);
 * ```
 */
export type Decision =
  | { decision: "hold"; sessionId: string; messageId: string }
  | { decision: "pending"; sessionId: string; messageId: string; call: PendingToolCall }
  | { decision: "completed"; sessionId: string; messageId: string };

/**
 * Options of `host.decide()`.
 *
 * @example
 * ```ts
 * await host.decide("Wave.", { sessionId: `decision-${revision}` });
 * ```
 */
export interface DecideOptions {
  /** The decision's session. Default: a fresh one (never reuse a session for a newer decision). */
  sessionId?: string;
  /** The request id. Default: a fresh one. */
  id?: string;
  signal?: AbortSignal;
}

/**
 * Options of `host.receipt()`.
 *
 * @example
 * ```ts
 * await host.receipt(call.call_id, "the arm is blocked", { failed: true });
 * ```
 */
export interface ReceiptOptions {
  /** The engine could not perform the action. */
  failed?: boolean;
  /** The decision's session. Default: the session `decide()` returned the call in. */
  sessionId?: string;
  /** The request id. Default: a fresh one. */
  id?: string;
  signal?: AbortSignal;
}

interface ChatResult {
  decision: "hold" | "pending" | "completed" | null;
  session_id: string;
  message_id: string;
  pending_tool_call: PendingToolCall | null;
}

const toDecision = (result: ChatResult): Decision => {
  const base = { sessionId: result.session_id, messageId: result.message_id };
  if (result.decision === "pending" && result.pending_tool_call) {
    return { decision: "pending", call: result.pending_tool_call, ...base };
  }
  return { decision: result.decision === "completed" ? "completed" : "hold", ...base };
};

/**
 * Asks for one decision.
 *
 * @example
 * ```ts
 * const d = await requestDecision(url, {}, context, "Move left a bit.");
 * if (d.decision === "pending") console.log(d.call.tool_name, d.call.arguments);
 * ```
 */
export async function requestDecision(
  runtimeUrl: string,
  headers: Record<string, string>,
  context: HostContext,
  content: string,
  options: DecideOptions = {},
): Promise<Decision> {
  if (context.actions?.some((a) => a.name === "hold")) {
    throw new TypeError(
      "An action is named hold, which silent decisions reserve; rename it to decide with it.",
    );
  }
  return toDecision(
    await jsonRequest<ChatResult>(runtimeHref(runtimeUrl, "api/chat"), "POST", headers, {
      id: options.id ?? newId("d-"),
      session_id: options.sessionId ?? newId("decision-"),
      output_mode: "host_tools",
      content,
      host_context: context,
    }, options.signal),
  );
}

/**
 * Records what the engine did with a decided action. Never retried
 * automatically: a receipt whose fate is unknown must not be replayed blindly.
 *
 * @example
 * ```ts
 * await sendReceipt(url, {}, d.sessionId, d.call.call_id, { x: 3 });
 * ```
 */
export async function sendReceipt(
  runtimeUrl: string,
  headers: Record<string, string>,
  sessionId: string,
  callId: string,
  result: unknown,
  options: ReceiptOptions = {},
): Promise<Decision> {
  return toDecision(
    await jsonRequest<ChatResult>(runtimeHref(runtimeUrl, "api/chat"), "POST", headers, {
      id: options.id ?? newId("d-"),
      session_id: sessionId,
      content: "",
      tool_call_id: callId,
      tool_result: result ?? null,
      ...(options.failed ? { tool_outcome: "failed" } : {}),
    }, options.signal),
  );
}
