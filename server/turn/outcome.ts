/**
 * What a run of a turn answers: the non-streaming result, the
 * `final_response` payload, and the limits a request may lower.
 *
 * @module
 */
import type { ErrorType, MessageConfig, PendingToolCall } from "../../protocol/mod.ts";
import { pendingToolCall } from "../session/pending.ts";
import type { Payload } from "./events.ts";
import type { Limits } from "../config.ts";
import type { AssistantMessage, SessionRecord } from "../session/records.ts";
import type { RunOutcome, Usage } from "./run_context.ts";

/** The result of a message, as the non-streaming HTTP answer carries it. */
export interface ChatResult {
  content: string | null;
  decision: "hold" | "pending" | "completed" | null;
  model: string;
  session_id: string;
  turn_number: number;
  message_id: string;
  usage: Usage | null;
  /** The pending call with what it waits for (`category`, `waiting_for` and the kind's fields). */
  pending_tool_call: PendingToolCall | null;
  error?: string;
  error_type?: string;
}

/**
 * The result of a run, as the non-streaming HTTP answer carries it.
 *
 * @example
 * ```ts
 * const result = chatResult(record, assistant, { kind: "final" }, usage, "offline");
 * ```
 */
export function chatResult(
  record: SessionRecord,
  assistant: AssistantMessage,
  outcome: RunOutcome,
  usage: Usage | null,
  modelName = assistant.model,
): ChatResult {
  const silent = assistant.output_mode === "host_tools";
  const pending = outcome.kind === "pending" ? outcome.pending : null;
  return {
    content: silent ? null : assistant.text,
    decision: silent ? (pending ? "pending" : assistant.decision ?? "hold") : null,
    model: modelName,
    session_id: record.session_id,
    turn_number: record.turn_number,
    message_id: assistant.id,
    usage,
    pending_tool_call: pending ? pendingToolCall(pending) : null,
  };
}

/**
 * The `final_response` payload of a result.
 *
 * @example
 * ```ts
 * hub.publish(sid, "assistant:final_response", finalEvent(result, true));
 * ```
 */
export function finalEvent(
  result: ChatResult,
  streamed: boolean,
): Payload<"assistant:final_response"> {
  const { turn_number: _t, error_type, ...rest } = result;
  return {
    type: "final_response",
    ...rest,
    ...(error_type ? { error_type: error_type as ErrorType } : {}),
    streamed,
  };
}

/**
 * The runtime's limits, lowered (never raised) by a request's `config`.
 *
 * @example
 * ```ts
 * effectiveLimits(DEFAULT_LIMITS, { max_tool_calls: 2 }).maxToolCalls; // 2
 * ```
 */
export function effectiveLimits(limits: Limits, config: MessageConfig | undefined): Limits {
  if (!config) return limits;
  const lower = (mine: number, theirs: number | undefined) =>
    theirs === undefined ? mine : Math.min(mine, theirs);
  return {
    ...limits,
    maxModelRequests: lower(limits.maxModelRequests, config.max_model_requests),
    maxToolCalls: lower(limits.maxToolCalls, config.max_tool_calls),
    toolTimeoutMs: lower(limits.toolTimeoutMs, config.tool_timeout_ms),
  };
}
