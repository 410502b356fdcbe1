/**
 * One interface for every tool kind. A kind says how its calls are
 * admitted, whether an admitted call runs inside the turn or pends (and for
 * what), and what a continuation for one of its pending calls means. The
 * pipeline in `../run.ts` and `../continuation.ts` knows only this
 * interface; a new kind is one file implementing it plus one line in
 * `mod.ts`.
 *
 * The steps every call takes (see `../admission.ts`):
 *
 * 1. arguments validated against the tool's JSON schema (a failure goes back
 *    to the model as a tool error, never to anyone who would act on it);
 * 2. `admit()` of the kind, if it has one;
 * 3. the policy gate: allow goes on, deny fails the call (`policy: "deny"`),
 *    ask holds it as a pending item with `waiting_for: "approval"`;
 * 4. `mode()`: `"run"` calls `run()` inside the turn; `"pend"` calls
 *    `pend()` and ends the turn with the pending item.
 *
 * What a pending item waits for, and what releases it:
 *
 * - `host`: a continuation whose `tool_result` is the host's result
 *   (`tool_outcome: "failed"` when it could not act). `continue()` records it.
 * - `confirmation`: a continuation whose `tool_result` is
 *   `{"decision": "apply"}` or `{"decision": "cancel"}`; `continue()` decides
 *   whether the call runs now, stays pending (a first of two
 *   confirmations) or is recorded as declined.
 * - `approval`: no continuation; it is refused with 409. Only the runtime
 *   releases it (`Engine.resumeHeld`), when the approval is decided: allow
 *   proceeds exactly as step 4 would have, deny fails the call.
 *
 * @module
 */
import type { MessageBody, PendingKind, ToolCategory, WaitingFor } from "../../../protocol/mod.ts";
import type { CallRecord } from "../../session/records.ts";
import type { ScreenshotCache } from "../../tools/screenshots.ts";
import type { ToolOutput } from "../../tools/backend_tool.ts";
import type { TurnTool } from "../../tools/turn_tools.ts";
import type { Payload } from "../events.ts";
import type { RunContext } from "../run.ts";

/** The pending item of a call: what it waits for and the wire fields that describe it. */
export type PendItem = PendingKind & { waiting_for: WaitingFor };

/** What a continuation did to a pending call of a kind. */
export type Continued =
  /** The call has its final status and result: hand out the next queued call or resume the model. */
  | { kind: "recorded" }
  /** The call stays pending with these fields; the turn is answered without running the model. */
  | { kind: "pending"; fields: PendItem }
  /** The continuation releases the call: it is claimed in the session's commit, then `run()` runs it. */
  | { kind: "run" };

/** What `continue()` may use besides the call and the message. */
export interface ContinueContext {
  sessionId: string;
  screenshots: ScreenshotCache;
}

/**
 * An executor for one tool kind.
 *
 * @example
 * ```ts
 * const kind = kindOf(call.category);
 * if (kind.mode(tool) === "run") await kind.run(ctx, call, live);
 * else pending.push(await kind.pend(ctx, call, tool));
 * ```
 */
export interface ToolKind {
  /** The `category` its calls carry on the wire. */
  readonly category: ToolCategory;
  /** This kind's own fields of `assistant:tool_call` (a remote tool's verb). */
  describe?(call: CallRecord): Partial<Payload<"assistant:tool_call">>;
  /** Checks of this kind after the arguments are valid and before the policy: a string refuses the call. */
  admit?(ctx: RunContext, call: CallRecord, tool: TurnTool): string | null | Promise<string | null>;
  /** Whether an admitted call runs inside the turn or pends. */
  mode(call: CallRecord): "run" | "pend";
  /**
   * Runs a call inside the turn: records its result or error on `call`, sets its
   * final status and publishes `tool_result` or `tool_error`. Throws only when the
   * turn itself was cancelled.
   */
  run(ctx: RunContext, call: CallRecord, live: Map<string, ToolOutput>): Promise<void>;
  /** The pending item of a call that pends. A throw fails the call with the error's message. */
  pend(ctx: RunContext, call: CallRecord, tool: TurnTool): Promise<PendItem>;
  /**
   * Applies a continuation to this kind's pending call (never one waiting for an
   * approval). Throws a `TetherError` to refuse it (a malformed decision is a 422).
   */
  continue(
    ctx: ContinueContext,
    call: CallRecord,
    pending: PendItem,
    body: MessageBody,
  ): Continued;
}
