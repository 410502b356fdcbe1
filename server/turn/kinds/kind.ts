/**
 * One interface for every tool kind. A kind offers its own tools for a turn
 * (doing its own discovery), keeps its own data on the tools it offers and
 * the calls made to them, says how its calls are admitted, whether an
 * admitted call runs inside the turn or pends (and for what), and what a
 * continuation for one of its pending calls means. The pipeline in
 * `../run.ts`, `../held.ts` and `../continuation.ts` knows only this
 * interface. A kind of one's own is one file implementing it and one
 * `registerToolKind` call; a kind the runtime ships is one file, one line in
 * `mod.ts` and its name in the wire's `TOOL_CATEGORIES` (see
 * docs/architecture.md, "Adding a tool kind").
 *
 * The steps every call takes (see `../admission.ts`):
 *
 * 1. arguments validated against the tool's JSON schema (a failure goes back
 *    to the model as a tool error, never to anyone who would act on it);
 * 2. `admit()` of the kind, if it has one;
 * 3. the policy gate: allow goes on, deny fails the call (`policy: "deny"`),
 *    ask holds it as a pending item with `waiting_for: "approval"`;
 * 4. a kind that only runs calls `run()` inside the turn; one that only
 *    pends calls `pend()` and ends the turn with the pending item; one that
 *    does both asks `mode()` of each call.
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
import type { HostContext, MessageBody, PendingState } from "../../../protocol/mod.ts";
import type { RuntimeOptions } from "../../config.ts";
import type { ExecutionScope } from "../../remote-tools/client.ts";
import type { RemoteTools } from "../../remote-tools/remote_tools.ts";
import type { CallRecord } from "../../session/records.ts";
import type { ScreenshotCache } from "../../tools/screenshots.ts";
import type { ToolOutput } from "../../tools/backend_tool.ts";
import type { TurnTool } from "../../tools/turn_tools.ts";
import type { Payload } from "../events.ts";
import type { RunContext } from "../run_context.ts";

/** The pending item of a call: what it waits for and the wire fields that describe it. */
export type PendItem = PendingState;

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

/** What a kind may read to offer its tools for one turn. */
export interface OfferContext {
  sessionId: string;
  options: RuntimeOptions;
  /** The page's context as the turn sees it. */
  context: HostContext | null;
  /** `host_tools`: a silent decision, which offers only the page's actions and `hold`. */
  outputMode: "text" | "host_tools";
  /** Who the turn acts for on the workspace's tool servers; null when it acts for nobody there. */
  scope: ExecutionScope | null;
  /** The registered tool servers. */
  remote: RemoteTools;
  /** A new turn (discovery asks afresh, contexts included), or a continued run (cached answers do). */
  fresh: boolean;
  warn(message: string): void;
}

/** A kind's tools for one turn, and its untrusted-data block for the user message (new turns only). */
export interface Offer {
  tools: TurnTool[];
  context?: string | null;
}

/** The parts every kind has. `T` is the data it keeps on the tools it offers, `C` on calls (stored: JSON). */
interface KindBase<T, C> {
  /** The `category` its tools and calls carry on the wire. */
  readonly category: string;
  /** The tools this kind offers in a turn (an empty list, or none, when it has none to offer). */
  offer?(ctx: OfferContext): Offer | Promise<Offer>;
  /** The data a call to `tool` keeps (a remote call's verb and integration: Apply may come after the tool list changed). */
  callData?(tool: TurnTool<T>): C;
  /** What the inspector shows of an offered tool besides its name and description (a remote tool's verb). */
  inspect?(tool: TurnTool<T>): { verb?: string };
  /** This kind's own fields of `assistant:tool_call` (a remote tool's verb). */
  describe?(call: CallRecord<C>): Partial<Payload<"assistant:tool_call">>;
  /** Checks of this kind after the arguments are valid and before the policy: a string refuses the call. */
  admit?(
    ctx: RunContext,
    call: CallRecord<C>,
    tool: TurnTool<T>,
  ): string | null | Promise<string | null>;
  /**
   * Whether the assistant message must be written before this admitted call is run
   * or pended, because that acts outside the runtime (a crash then leaves the call
   * `unknown`, never forgotten). Absent: it must. A call that only waits says false.
   */
  checkpoint?(call: CallRecord<C>): boolean;
}

/** A kind whose calls run inside the turn. */
interface Runs<T, C> {
  /**
   * Runs a call inside the turn: records its result or error on `call`, sets its
   * final status and publishes `tool_result` or `tool_error`. Throws only when the
   * turn itself was cancelled.
   */
  run(ctx: RunContext, call: CallRecord<C>, live: Map<string, ToolOutput>): Promise<void>;
  /** @ignore */
  tool?: T;
}

/** A kind whose calls pend for someone outside the runtime. */
interface Pends<T, C> {
  /** The pending item of a call that pends. A throw fails the call with the error's message. */
  pend(ctx: RunContext, call: CallRecord<C>, tool: TurnTool<T>): Promise<PendItem>;
  /**
   * Applies a continuation to this kind's pending call (never one waiting for an
   * approval). Throws a `TetherError` to refuse it (a malformed decision is a 422).
   */
  continue(
    ctx: ContinueContext,
    call: CallRecord<C>,
    pending: PendItem,
    body: MessageBody,
  ): Continued;
}

/**
 * An executor for one tool kind: it runs its calls, pends them, or (with
 * `mode`) either, call by call. A kind with `pend` must say what a
 * continuation means (`continue`); one with both must have `mode`.
 *
 * @example
 * ```ts
 * const echoKind: ToolKind = {
 *   category: "echo",
 *   offer: () => ({ tools: [{ name: "echo", description: "Echo.", parameters: { type: "object" }, category: "echo" }] }),
 *   async run(ctx, call) {
 *     call.result = call.arguments;
 *     call.status = "completed";
 *   },
 * };
 * modeOf(echoKind, call); // "run"
 * ```
 */
export type ToolKind<T = unknown, C = unknown> =
  & KindBase<T, C>
  & (
    | (Runs<T, C> & { pend?: never; continue?: never; mode?: never })
    | (Pends<T, C> & { run?: never; mode?: never })
    | (Runs<T, C> & Pends<T, C> & {
      /** Whether an admitted call runs inside the turn or pends. */
      mode(call: CallRecord<C>): "run" | "pend";
    })
  );

/**
 * Whether an admitted call of a kind runs inside the turn or pends.
 *
 * @example
 * ```ts
 * if (modeOf(kind, call) === "run") await kind.run!(ctx, call, live);
 * ```
 */
export function modeOf<C>(kind: ToolKind<unknown, C>, call: CallRecord<C>): "run" | "pend" {
  if (kind.run && kind.pend) return kind.mode(call);
  return kind.run ? "run" : "pend";
}
