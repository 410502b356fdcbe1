/**
 * `GET /api/sessions/{id}/events`: a session's event stream as server-sent
 * events. With `Last-Event-ID` (or `?after=`) it first replays what the
 * client missed from the session's event log, then goes live, with nothing
 * repeated or dropped; without either it follows live events only. The
 * stream stays open until the client leaves or the session is deleted, and
 * carries only events of the session's owner and generation it was opened on:
 * each event is checked as it is written, and the first that is not for this
 * caller ends the stream.
 *
 * @module
 */
import type { Engine } from "../engine.ts";
import { follow } from "../events/follow.ts";
import type { SessionEvent } from "../events/hub.ts";
import { generationOf, viewer } from "../events/stamp.ts";
import type { Principal } from "../http/principal.ts";
import { sseResponse } from "./_sse_response.ts";
import { writeEvent } from "./sse.ts";
import { invalid } from "./transport_error.ts";

/** How often an idle stream gets a comment line, so proxies keep it open. */
const HEARTBEAT_MS = 15_000;

/**
 * Reads a resume position: a non-negative integer, or undefined when absent; refuses anything else.
 *
 * @example
 * ```ts
 * parseAfter("12", "Last-Event-ID"); // 12
 * ```
 */
export function parseAfter(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
    throw invalid(
      `${field} must be a non-negative integer (the last seq the client saw), got ${
        JSON.stringify(value)
      }.`,
      field,
    );
  }
  return n;
}

/**
 * Streams a session's events from `after` (replay, then live) until the client disconnects.
 *
 * @example
 * ```ts
 * app.get("/api/sessions/:id/events", (c) =>
 *   streamSessionEvents(engine, principal, c.req.param("id"), parseAfter(c.req.header("last-event-id"), "Last-Event-ID")));
 * ```
 */
export async function streamSessionEvents(
  engine: Engine,
  principal: Principal,
  sessionId: string,
  after: number | undefined,
): Promise<Response> {
  // 404 for an unknown session, 403 for another principal's.
  await engine.session(principal, sessionId);
  const record = (await engine.repo.record(sessionId))?.value;
  // Deleted in between: the viewer refuses whatever comes next.
  const see = record ? viewer(principal, generationOf(record)) : () => false;
  return sseResponse(async (sink, signal) => {
    const write = (event: SessionEvent) => {
      if (sink.closed) return;
      if (see(event)) writeEvent(sink, event);
      else sink.close();
    };
    // A follower without a position starts live, or at the start of the turn running now.
    const from = after ?? await engine.followFrom(sessionId);
    const stop = await follow(engine.hub, sessionId, from, write, () => sink.close());
    const beat = setInterval(() => sink.comment("keep-alive"), HEARTBEAT_MS);
    const end = () => {
      stop();
      clearInterval(beat);
    };
    if (signal.aborted) end();
    else signal.addEventListener("abort", end, { once: true });
  });
}
