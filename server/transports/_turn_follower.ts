/**
 * Follows the turn that handles one message over a per-request stream (SSE,
 * AG-UI): its events run from the first `status started` seen after the
 * message was dispatched (or, for delivered steering, from the moment the
 * live turn took it) to the next `status completed`. Events are buffered
 * until the transport pipes them, so none is lost while the response is set up.
 * Each event is checked against the principal (owner and generation,
 * `events/stamp.ts`): the first one not for it, or the session's deletion,
 * ends the stream.
 *
 * @module
 */
import type { MessageBody } from "../../protocol/mod.ts";
import type { Engine } from "../engine.ts";
import type { SessionEvent } from "../events/hub.ts";
import { viewer } from "../events/stamp.ts";
import type { Principal } from "../http/principal.ts";
import { dispatchMessage } from "./dispatch.ts";

/**
 * A turn being followed.
 *
 * @example
 * ```ts
 * const turn: TurnFollower = await followTurn(engine, principal, body);
 * turn.stop();
 * ```
 */
export interface TurnFollower {
  /** Whether the message was steering taken by the live turn. */
  steered: boolean;
  /** Delivers the buffered events, then each new one, up to and including `status completed`. */
  pipe(
    listener: (event: SessionEvent) => void,
    onEnd: (failure: { error: unknown } | null) => void,
  ): void;
  /** Stops following (the turn itself goes on). */
  stop(): void;
}

const isStatus = (e: SessionEvent, status: string) =>
  e.event === "assistant:status" && e.payload.status === status;

/**
 * Dispatches a message and resolves once its turn started; rejects with the refusal when it was refused before that.
 *
 * @example
 * ```ts
 * const turn = await followTurn(engine, principal, body);
 * turn.pipe((e) => console.log(e.event), () => console.log("done"));
 * ```
 */
export async function followTurn(
  engine: Engine,
  principal: Principal,
  body: MessageBody,
): Promise<TurnFollower> {
  let streaming = false;
  let done = false; // `completed` was seen, or the run settled without one
  let ended = false;
  let failure: { error: unknown } | null = null;
  const buffer: SessionEvent[] = [];
  let listener: ((event: SessionEvent) => void) | null = null;
  let end: ((failure: { error: unknown } | null) => void) | null = null;
  let onStart = () => {};
  const started = new Promise<void>((r) => (onStart = r));
  const begin = () => {
    streaming = true;
    onStart();
  };
  const tryEnd = () => {
    if (!done || !end || ended) return;
    ended = true;
    stop();
    end(failure);
  };
  // Nothing of the session reaches this stream before the engine admits the principal.
  let admitted = false;
  const see = viewer(principal);
  const close = () => {
    done = true;
    tryEnd();
  };
  const stop = engine.hub.subscribe(body.session_id, (event) => {
    if (!admitted || done) return;
    if (!see(event)) return close();
    if (!streaming && isStatus(event, "started")) begin();
    if (!streaming || done) return;
    if (listener) listener(event);
    else buffer.push(event);
    if (isStatus(event, "completed")) close();
  }, close);
  let run: Promise<unknown>;
  let steered = false;
  try {
    const dispatched = await dispatchMessage(engine, principal, body, begin, () => {
      admitted = true;
    });
    steered = dispatched.steered;
    run = dispatched.steered ? Promise.resolve() : dispatched.run;
  } catch (error) {
    stop();
    throw error;
  }
  const settled = run.then(() => null, (error: unknown) => ({ error }));
  const first = await Promise.race([started.then(() => null), settled]);
  if (first && !streaming) {
    stop();
    throw first.error; // refused before its turn started
  }
  settled.then((result) => {
    // A turn that failed after it started, or ended without `completed`, still ends the stream.
    if (result) failure = result;
    if (result || !streaming) done = true;
    tryEnd();
  });
  return {
    steered,
    pipe(fn, onEnd) {
      listener = fn;
      end = onEnd;
      for (const event of buffer.splice(0)) fn(event);
      tryEnd();
    },
    stop,
  };
}
