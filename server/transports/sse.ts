/**
 * Streaming HTTP: `POST /api/chat` with `Accept: text/event-stream` streams
 * the turn's events as server-sent events (event name = the Socket.IO name,
 * data = the same payload, id = its `seq`), from its `status started` to its
 * `status completed`. A request refused before its turn started gets the
 * ordinary HTTP error answer (422, 403, 409), not a stream. A client that
 * disconnects stops only its stream: the turn goes on, and
 * `GET /api/sessions/{id}/events` resumes it (see `sse_resume.ts`).
 *
 * @module
 */
import type { MessageBody } from "../../protocol/mod.ts";
import type { Engine } from "../engine.ts";
import type { SessionEvent } from "../events/hub.ts";
import type { Principal } from "../http/principal.ts";
import { sseResponse, type SseSink } from "./_sse_response.ts";
import { followTurn } from "./_turn_follower.ts";
import { transportError } from "./transport_error.ts";

/**
 * Writes one session event as SSE: event name, JSON payload, `id` = its seq.
 *
 * @example
 * ```ts
 * engine.hub.subscribe("s1", (e) => writeEvent(sink, e));
 * ```
 */
export function writeEvent(sink: SseSink, event: SessionEvent): void {
  sink.send({
    event: event.event,
    data: JSON.stringify(event.payload),
    id: String(event.payload.seq),
  });
}

/**
 * Dispatches a message and streams the events of the turn that handles it.
 * Delivered steering streams the rest of the live turn it joined.
 *
 * @example
 * ```ts
 * app.post("/api/chat", (c) => streamTurn(engine, principal, body));
 * ```
 */
export async function streamTurn(
  engine: Engine,
  principal: Principal,
  body: MessageBody,
): Promise<Response> {
  const turn = await followTurn(engine, principal, body);
  return sseResponse((sink, signal) => {
    signal.addEventListener("abort", turn.stop, { once: true });
    turn.pipe((event) => writeEvent(sink, event), (failure) => {
      if (failure) {
        const payload = transportError(failure.error, body.session_id, engine.options.logger);
        sink.send({ event: "assistant:error", data: JSON.stringify(payload) });
      }
      sink.close();
    });
  });
}
