/**
 * What a message does on a streaming transport (Socket.IO, SSE, AG-UI), in
 * one place so the transports cannot disagree:
 *
 * - steering is handed to the live turn at its next model step, or promoted
 *   to a turn of its own when the session is idle; it never cancels;
 * - a continuation (`tool_call_id`) never cancels; the engine queues it;
 * - an ordinary message cancels the session's live turn, waits for its
 *   cleanup, then starts.
 *
 * @module
 */
import type { MessageBody } from "../../protocol/mod.ts";
import type { ChatResult, Engine } from "../engine.ts";
import { forbidden } from "../http/errors.ts";
import { mayAccess, type Principal } from "../http/principal.ts";
import { isShared } from "../session/leases.ts";
import { invalid } from "./transport_error.ts";

/**
 * The outcome of dispatching: steering taken by the live turn, or a turn running (or queued).
 *
 * @example
 * ```ts
 * const d: Dispatched = await dispatchMessage(engine, principal, body);
 * const label = d.steered ? "delivered" : d.promoted ? "promoted" : "turn";
 * ```
 */
export type Dispatched =
  | { steered: true }
  | { steered: false; promoted: boolean; run: Promise<ChatResult> };

/**
 * Refuses with 403 when the session exists and belongs to another principal (a new session is fine).
 * Resolves with whether the session exists.
 *
 * @example
 * ```ts
 * await assertMayUse(engine, principal, "s1");
 * ```
 */
export async function assertMayUse(
  engine: Engine,
  principal: Principal,
  sessionId: string,
): Promise<boolean> {
  const entry = await engine.repo.record(sessionId);
  if (entry && !mayAccess(principal, entry.value.owner_id)) throw forbidden(sessionId);
  return entry !== null;
}

/**
 * Dispatches a validated message; rejects (before anything is stored) when it is refused.
 * `onSteered` runs synchronously the moment the live turn took the steering text.
 * `onAdmitted` runs once the principal may see the session's events: after the
 * ownership check inside the session's lock, before the turn's first event
 * (see `Engine.chat`); never when the message is refused.
 *
 * @example
 * ```ts
 * const d = await dispatchMessage(engine, principal, body);
 * if (!d.steered) console.log((await d.run).content);
 * ```
 */
export async function dispatchMessage(
  engine: Engine,
  principal: Principal,
  body: MessageBody,
  onSteered?: () => void,
  onAdmitted?: () => void,
): Promise<Dispatched> {
  const sid = body.session_id;
  if (body.message_type === "steering") {
    if (body.output_mode === "host_tools") {
      throw invalid(
        "Steering is not available for host_tools decisions; send a standard message with output_mode host_tools instead.",
        "message_type",
      );
    }
    if (body.tool_call_id !== undefined) {
      throw invalid(
        "A continuation cannot be steering; send the tool result with message_type standard.",
        "message_type",
      );
    }
    if (!body.content.trim()) throw invalid("A steering message needs text in content.", "content");
  }
  const exists = await assertMayUse(engine, principal, sid);
  if (body.message_type === "steering") {
    // A live turn here means the session exists and assertMayUse checked its committed owner.
    if (exists && engine.isLive(sid)) onAdmitted?.();
    if (engine.steer(sid, body.content)) {
      onSteered?.();
      return { steered: true };
    }
    // Idle: the steering text becomes a turn of its own, stored as steering.
    return {
      steered: false,
      promoted: true,
      run: engine.chat(principal, body, { promoted: true, admitted: onAdmitted }),
    };
  }
  // With a shared store the live turn may run in another process: cancel asks its lease holder.
  const liveSomewhere = engine.isLive(sid) || (exists && isShared(engine.store));
  if (body.tool_call_id === undefined && liveSomewhere) await engine.cancel(principal, sid);
  return {
    steered: false,
    promoted: false,
    run: engine.chat(principal, body, { admitted: onAdmitted }),
  };
}
