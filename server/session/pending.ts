/**
 * The pending item of a session: built from the calls a model response
 * pends, handed out one at a time, and shown on the wire with what it waits
 * for.
 *
 * @module
 */
import type { PendingKind } from "../../protocol/mod.ts";
import type { CallRecord, PendingAction, QueuedCall, WaitingFor } from "./records.ts";

/** A call that pends, with its item fields. */
export interface Pended {
  call: CallRecord;
  item: PendingKind & { waiting_for: WaitingFor };
}

const FIELDS = [
  "verb",
  "preview",
  "confirmations_required",
  "confirmations_received",
  "approval",
] as const;

/**
 * The wait fields of a pending or queued call as the wire shows them:
 * `category` and `waiting_for` always (records from before tool kinds are host
 * calls), the others where they apply.
 *
 * @example
 * ```ts
 * waitOf({ call_id: "c1", tool_name: "t", arguments: {} }); // { category: "host", waiting_for: "host" }
 * ```
 */
export function waitOf(
  item: PendingKind,
): PendingKind & { category: NonNullable<PendingKind["category"]>; waiting_for: WaitingFor } {
  const out: PendingKind = {};
  for (const key of FIELDS) if (item[key] !== undefined) Object.assign(out, { [key]: item[key] });
  return { category: item.category ?? "host", waiting_for: item.waiting_for ?? "host", ...out };
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
): PendingAction {
  const [first, ...rest] = pended;
  return {
    tool_call_id: first.call.call_id,
    tool_name: first.call.tool_name,
    assistant_message_id: assistantId,
    arguments: first.call.arguments,
    ...waitOf(first.item),
    queued: rest.map(({ call, item }): QueuedCall => ({
      call_id: call.call_id,
      tool_name: call.tool_name,
      arguments: call.arguments,
      ...waitOf(item),
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
export function handOut(pending: PendingAction): PendingAction | null {
  const [next, ...rest] = pending.queued;
  if (!next) return null;
  const { call_id, tool_name, arguments: args, verdict, ...fields } = next;
  return {
    ...rewait(pending, fields),
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
export function rewait(pending: PendingAction, item: PendingKind): PendingAction {
  const kept: Partial<PendingAction> = { ...pending };
  for (const key of FIELDS) delete kept[key];
  delete kept.verdict;
  return { ...(kept as PendingAction), ...waitOf(item) };
}
