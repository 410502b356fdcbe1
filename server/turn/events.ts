/**
 * The turn's events, typed by the protocol's schemas
 * (`SERVER_EVENT_SCHEMAS` in `protocol/events.ts`): every payload the engine
 * publishes goes through `Emit`, whose type is inferred from them, so a field
 * the wire does not know cannot be sent, and one it requires cannot be
 * forgotten. The tool events' payloads are built here; the turn loop and
 * the runner build the status, delta, final and error payloads themselves,
 * typed the same way.
 *
 * @module
 */
import type { ServerEvents, Unsequenced } from "../../protocol/mod.ts";
import type { EventHub, Publication } from "../events/hub.ts";
import type { EventStamp } from "../events/stamp.ts";
import type { CallRecord } from "../session/records.ts";
import { redactValue } from "../log.ts";

/** A payload as the engine builds it (the hub adds `seq`); distributes over unions such as `ErrorEvent`. */
export type Payload<E extends keyof ServerEvents> = Unsequenced<E>;

/** Publishes one typed event of a session. */
export type Emit = <E extends keyof ServerEvents>(
  event: E,
  payload: Payload<E>,
) => Promise<unknown>;

/**
 * An `Emit` that also publishes several events as one (`EventHub.publishAll`): a turn's
 * closing events, so no client or replay ever has its answer without its end.
 */
export type SessionEmit = Emit & { all(events: readonly Publication[]): Promise<unknown> };

/**
 * The typed publisher of one session's events, each stamped with the
 * session's owner and generation (server/events/stamp.ts).
 *
 * @example
 * ```ts
 * const emit = sessionEmitter(hub, "s1", stampOf(record));
 * await emit("assistant:status", { type: "agent_status", status: "started" });
 * await emit.all([{ event: "assistant:status", payload: statusEvent("completed", "m-1") }]);
 * ```
 */
export function sessionEmitter(
  hub: EventHub,
  sessionId: string,
  stamp: EventStamp,
): SessionEmit {
  // Every registered secret (a tool server's bearer secret, a provider key) is redacted on the way out.
  const emit: Emit = (event, payload) => hub.publish(sessionId, event, redactValue(payload), stamp);
  return Object.assign(emit, {
    all: (events: readonly Publication[]) =>
      hub.publishAll(
        sessionId,
        events.map((e) => ({ event: e.event, payload: redactValue(e.payload) }) as Publication),
        stamp,
      ),
  });
}

/**
 * `assistant:status` for the turn that answers the body `request` (its `id`; none for a turn
 * the runtime resumed by itself).
 *
 * @example
 * ```ts
 * await emit("assistant:status", statusEvent("started", "m-1"));
 * ```
 */
export function statusEvent(
  status: "started" | "completed",
  request: string | undefined,
): Payload<"assistant:status"> {
  return request === undefined
    ? { type: "agent_status", status }
    : { type: "agent_status", status, request_id: request };
}

/**
 * `assistant:tool_call` for a call, with the kind's own fields (a remote verb, an approval).
 *
 * @example
 * ```ts
 * await emit("assistant:tool_call", toolCallEvent(call, { verb: "create" }));
 * ```
 */
export function toolCallEvent(
  call: CallRecord,
  extra: Partial<Payload<"assistant:tool_call">> = {},
): Payload<"assistant:tool_call"> {
  return {
    type: "tool_call",
    tool_name: call.tool_name,
    arguments: call.arguments,
    call_id: call.call_id,
    category: call.category,
    ...extra,
  };
}

/**
 * `assistant:tool_error` for a call; `extra` marks a decline or a policy denial.
 *
 * @example
 * ```ts
 * await emit("assistant:tool_error", toolErrorEvent(call, "Refused.", { policy: "deny" }));
 * ```
 */
export function toolErrorEvent(
  call: CallRecord,
  error: string,
  extra: Pick<Payload<"assistant:tool_error">, "declined" | "policy"> = {},
): Payload<"assistant:tool_error"> {
  return { type: "tool_error", tool_name: call.tool_name, error, call_id: call.call_id, ...extra };
}

/**
 * `assistant:tool_result` for a call that completed.
 *
 * @example
 * ```ts
 * await emit("assistant:tool_result", toolResultEvent(call, { duration_ms: 12 }));
 * ```
 */
export function toolResultEvent(
  call: CallRecord,
  extra: Pick<Payload<"assistant:tool_result">, "duration_ms" | "display"> = {},
): Payload<"assistant:tool_result"> {
  return {
    type: "tool_result",
    tool_name: call.tool_name,
    output: call.result ?? null,
    call_id: call.call_id,
    ...extra,
  };
}

/**
 * Tells attached clients how a pending call was answered: `tool_result`;
 * `tool_error` when the host reported a failure; `tool_error` with
 * `declined: true` when the user cancelled it.
 *
 * @example
 * ```ts
 * await announceAnswer(emit, call);
 * ```
 */
export function announceAnswer(emit: Emit, call: CallRecord): Promise<unknown> {
  if (call.status === "failed") {
    const text = call.error ??
      (typeof call.result === "string" ? call.result : JSON.stringify(call.result) ?? "null");
    return emit("assistant:tool_error", toolErrorEvent(call, text));
  }
  if (call.status === "cancelled") {
    const text = call.error ?? "Cancelled.";
    return emit("assistant:tool_error", toolErrorEvent(call, text, { declined: true }));
  }
  return emit("assistant:tool_result", toolResultEvent(call));
}
