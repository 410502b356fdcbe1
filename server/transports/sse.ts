/**
 * Streaming HTTP: `POST /api/chat` with `Accept: text/event-stream` streams
 * the turn's events as server-sent events (event name = the Socket.IO name,
 * data = the same payload, id = its `seq`), from its `status started` to its
 * `status completed`. A request refused before its turn started gets the
 * ordinary HTTP error answer (422, 403, 409), not a stream.
 *
 * @module
 */
import type { MessageBody } from "../../protocol/mod.ts";
import type { Engine } from "../engine.ts";
import type { SessionEvent } from "../events/hub.ts";
import type { Principal } from "../http/principal.ts";
import { type SseSink, sseResponse } from "./_sse_response.ts";
import { dispatchMessage } from "./dispatch.ts";
import { transportError } from "./transport_error.ts";

/** Writes one session event as SSE. */
export function writeEvent(sink: SseSink, event: SessionEvent): void {
  sink.send({ event: event.event, data: JSON.stringify(event.payload), id: String(event.payload.seq) });
}

const isStatus = (e: SessionEvent, status: string) => e.event === "assistant:status" && e.payload.status === status;

/**
 * Dispatches a message and streams the events of the turn that handles it.
 * Delivered steering streams the rest of the live turn it joined.
 *
 * @example
 * ```ts
 * app.post("/api/chat", (c) => streamTurn(engine, principal, body));
 * ```
 */
export async function streamTurn(engine: Engine, principal: Principal, body: MessageBody): Promise<Response> {
  let state: "waiting" | "streaming" | "done" = "waiting";
  let sink: SseSink | null = null;
  const early: SessionEvent[] = [];
  let onStart = () => {};
  const started = new Promise<void>((r) => (onStart = r));
  const stream = () => {
    state = "streaming";
    onStart();
  };
  const stop = engine.hub.subscribe(body.session_id, (event) => {
    if (state === "waiting" && isStatus(event, "started")) stream();
    if (state !== "streaming") return;
    if (sink) writeEvent(sink, event);
    else early.push(event);
    if (isStatus(event, "completed")) {
      state = "done";
      stop();
      sink?.close();
    }
  });
  let run: Promise<unknown>;
  try {
    const dispatched = await dispatchMessage(engine, principal, body, stream);
    run = dispatched.steered ? Promise.resolve() : dispatched.run;
  } catch (error) {
    stop();
    throw error;
  }
  const settled = run.then(() => null, (error: unknown) => ({ error }));
  const first = await Promise.race([started.then(() => null), settled]);
  if (first && state === "waiting") {
    stop();
    throw first.error; // Refused before the turn started: an ordinary HTTP error answer.
  }
  return sseResponse((out, signal) => {
    sink = out;
    for (const event of early.splice(0)) writeEvent(out, event);
    if (state === "done") return out.close();
    signal.addEventListener("abort", stop, { once: true });
    settled.then((failure) => {
      if (state === "done" || (!failure && state === "streaming")) return;
      if (failure) {
        const payload = transportError(failure.error, body.session_id, engine.options.warn);
        out.send({ event: "assistant:error", data: JSON.stringify(payload) });
      }
      stop();
      out.close();
    });
  });
}
