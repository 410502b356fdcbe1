/**
 * The silent-decision rules of a model response (`output_mode: "host_tools"`).
 *
 * @module
 */
import type { CallRecord } from "../session/records.ts";
import { HOLD } from "../tools/turn_tools.ts";
import { TurnError } from "./errors.ts";
import type { RunOutcome } from "./run_context.ts";

/**
 * Applies the silent-decision rules to one model response: a hold wins, two
 * actions are an invalid decision; null lets a single action through.
 *
 * @example
 * ```ts
 * const decision = silentDecision(records);
 * if (decision) return decision;
 * ```
 */
export function silentDecision(records: CallRecord[]): RunOutcome | null {
  const hold = records.find((c) => c.tool_name === HOLD);
  if (hold) {
    for (const c of records) c.status = c === hold ? "completed" : "cancelled";
    hold.result = "held";
    return { kind: "hold" };
  }
  if (records.length > 1) {
    for (const c of records) c.status = "cancelled";
    throw new TurnError(
      "invalid_decision",
      `The model proposed ${records.length} host actions at once; a decision admits exactly one.`,
    );
  }
  return null;
}
