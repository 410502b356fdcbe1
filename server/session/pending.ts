/**
 * The pending item of a session: built from the calls a model response
 * pends, handed out one at a time, and shown on the wire with what it waits
 * for. Its state is one of `PendingState` (protocol/pending_kinds.ts),
 * read and written through that schema only.
 *
 * @module
 */
import * as z from "zod/mini";
import {
  PENDING_STATE_KEYS,
  type PendingAction,
  type PendingState,
  pendingStateSchema,
  type PendingToolCall,
  type WaitingFor,
} from "../../protocol/mod.ts";
import type { CallRecord, QueuedCall, StoredPending } from "./records.ts";

/** A call that pends, with its state. */
export interface Pended {
  call: CallRecord;
  item: PendingState;
}

/**
 * The state of a pending or queued call, and nothing else of it. Records
 * written before tool kinds lack `category` and `waiting_for`: they are host
 * calls. A state the schema refuses (a stored record damaged) throws: a call
 * is never released on a guess.
 *
 * @example
 * ```ts
 * stateOf({ call_id: "c1", tool_name: "t", arguments: {} }); // { waiting_for: "host", category: "host" }
 * ```
 */
export function stateOf(item: object): PendingState {
  const fields = item as { category?: unknown; waiting_for?: unknown };
  const read = z.safeParse(pendingStateSchema, {
    ...item,
    category: fields.category ?? "host",
    waiting_for: fields.waiting_for ?? "host",
  });
  if (!read.success) {
    const at = read.error.issues.map((i) => i.path.join(".") || "(state)").join(", ");
    throw new Error(`The stored pending call has a state this runtime cannot read (${at}).`);
  }
  return read.data;
}

/**
 * What a pending or queued call waits for, for a listing or the inspector: never throws
 * (a state `stateOf` would refuse still shows what it claims; records from before tool kinds
 * wait for their host).
 *
 * @example
 * ```ts
 * waitingOf(record.pending_action!); // "host"
 * ```
 */
export function waitingOf(item: object): WaitingFor {
  const waits = (item as { waiting_for?: unknown }).waiting_for;
  return waits === "confirmation" || waits === "approval" ? waits : "host";
}

/** An item without its state's fields. */
function stateless<T extends object>(item: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    if (!PENDING_STATE_KEYS.has(key)) out[key] = value;
  }
  return out as Partial<T>;
}

/**
 * The pending action of a model response's pended calls: the first is pending, the rest queued.
 *
 * @example
 * ```ts
 * const pending = pendingAction(assistant.id, pended, "text", []);
 * ```
 */
export function pendingAction(
  assistantId: string,
  pended: Pended[],
  outputMode: "text" | "host_tools",
  steering: string[] = [],
): StoredPending {
  const [first, ...rest] = pended;
  return {
    tool_call_id: first.call.call_id,
    tool_name: first.call.tool_name,
    assistant_message_id: assistantId,
    arguments: first.call.arguments,
    ...stateOf(first.item),
    queued: rest.map(({ call, item }): QueuedCall => ({
      call_id: call.call_id,
      tool_name: call.tool_name,
      arguments: call.arguments,
      ...stateOf(item),
    })),
    output_mode: outputMode,
    ...(steering.length ? { steering } : {}),
  };
}

/**
 * The pending action after the current call is answered: the next queued call, or null.
 *
 * @example
 * ```ts
 * const next = handOut(record.pending_action!);
 * ```
 */
export function handOut(pending: StoredPending): StoredPending | null {
  const [next, ...rest] = pending.queued;
  if (!next) return null;
  const { call_id, tool_name, arguments: args, verdict } = next;
  return {
    ...rewait(pending, stateOf(next)),
    tool_call_id: call_id,
    tool_name,
    arguments: args,
    queued: rest,
    ...(verdict ? { verdict } : {}),
  };
}

/**
 * The same pending call waiting for something else now (an approved call that pends for its host).
 *
 * @example
 * ```ts
 * const next = rewait(pending, { category: "host", waiting_for: "host" });
 * ```
 */
export function rewait(pending: StoredPending, state: PendingState): StoredPending {
  const { verdict: _verdict, ...kept } = stateless(pending);
  return { ...(kept as Omit<StoredPending, keyof PendingState>), ...stateOf(state) };
}

/**
 * The pending call as `final_response` and POST /api/chat show it.
 *
 * @example
 * ```ts
 * pendingToolCall(record.pending_action!).call_id;
 * ```
 */
export function pendingToolCall(p: StoredPending): PendingToolCall {
  return {
    tool_name: p.tool_name,
    call_id: p.tool_call_id,
    arguments: p.arguments,
    queued: p.queued.map((q) => q.call_id),
    ...stateOf(p),
  };
}

/**
 * The pending call as GET /api/sessions/{id} shows it: the same wire fields
 * as {@linkcode pendingToolCall}, named by `tool_call_id`, with its message.
 *
 * @example
 * ```ts
 * pendingActionView(record.pending_action!).tool_call_id;
 * ```
 */
export function pendingActionView(p: StoredPending): PendingAction {
  const { call_id, ...call } = pendingToolCall(p);
  return { ...call, tool_call_id: call_id, assistant_message_id: p.assistant_message_id };
}
