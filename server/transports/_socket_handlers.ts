/**
 * The client events of the `/assistant` namespace for one connected socket:
 * `assistant_join_session`, `assistant_message`, `assistant_cancel`. A
 * refused request is answered with one `assistant:error` to this socket only
 * (and through the acknowledgement callback, when the client passed one);
 * the connection and the session stay usable.
 *
 * @module
 */
import { parseBody } from "../http/message_body.ts";
import type { ClientToServerEvents } from "../../protocol/mod.ts";
import type { AssistantSocket as Socket } from "./_socket_types.ts";
import {
  CLIENT_EVENTS,
  formatIssues,
  parseCancelSession,
  parseJoinSession,
} from "../../protocol/mod.ts";
import type { Engine } from "../engine.ts";
import { generationOf, viewer } from "../events/stamp.ts";
import { TetherError, validationError } from "../http/errors.ts";
import { assertDepth } from "../http/json_depth.ts";
import type { RoomFanout } from "./_room_fanout.ts";
import { dispatchMessage } from "./dispatch.ts";
import { parseAfter } from "./sse_resume.ts";
import { invalid, transportError } from "./transport_error.ts";

type Ack = (answer: Record<string, unknown>) => void;

const KNOWN = new Set<string>(Object.values(CLIENT_EVENTS));

/** Splits a handler's arguments into the payload and the optional acknowledgement callback. */
function args(list: unknown[]): [unknown, Ack | undefined] {
  const ack = typeof list.at(-1) === "function" ? (list.at(-1) as Ack) : undefined;
  return [ack && list.length === 1 ? undefined : list[0], ack];
}

const sessionOf = (raw: unknown): string | undefined => {
  const value = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const id = value.session_id ?? value.sessionId;
  return typeof id === "string" ? id : undefined;
};

/**
 * Serves the assistant events of one authenticated socket (`socket.data.principal`).
 *
 * @example
 * ```ts
 * nsp.on("connection", (socket) => serveSocket(socket, engine, fanout));
 * ```
 */
export function serveSocket(socket: Socket, engine: Engine, fanout: RoomFanout): void {
  const principal = socket.data.principal;
  const handle = (
    name: keyof ClientToServerEvents,
    fn: (raw: unknown) => Promise<Record<string, unknown>>,
  ) => {
    socket.on(name, async (...list: unknown[]) => {
      const [raw, ack] = args(list);
      try {
        assertDepth(raw, engine.options.limits.maxJsonDepth, "the payload");
        const answer = await fn(raw);
        ack?.({ ok: true, ...answer });
      } catch (error) {
        const payload = transportError(error, sessionOf(raw), engine.options.logger);
        socket.emit("assistant:error", payload);
        ack?.({ ok: false, error: payload });
      }
    });
  };

  handle(CLIENT_EVENTS.join_session, async (raw) => {
    let after: unknown;
    let payload = raw;
    if (raw && typeof raw === "object" && !Array.isArray(raw) && "after" in raw) {
      // `after` is the transport's resume position, not part of the join payload schema.
      after = (raw as { after: unknown }).after;
      payload = Object.fromEntries(Object.entries(raw).filter(([k]) => k !== "after"));
    }
    const parsed = parseJoinSession(payload);
    if (!parsed.ok) throw validationError(formatIssues(parsed.issues), parsed.issues);
    const from = parseAfter(after, "after");
    const { session_id, host_context } = parsed.value;
    const record = await engine.join(principal, session_id, host_context);
    const see = viewer(principal, generationOf(record));
    // Without `after` the socket joins live, or at the start of the turn running now.
    const start = from ?? await engine.followFrom(session_id);
    const last = await fanout.attach(socket, session_id, see, start);
    return { session_id, last_seq: last ?? (await engine.hub.lastSeq(session_id)) };
  });

  handle(CLIENT_EVENTS.message, async (raw) => {
    const parsed = parseBody(raw);
    if (!parsed.ok) throw validationError(formatIssues(parsed.issues), parsed.issues);
    const body = parsed.value;
    const sid = body.session_id;
    // The sender sees its own turn even when it never joined. It enters the room only when the
    // engine admits it (owner checked inside the session's lock), never on an earlier check that
    // a concurrent creation by another principal could overtake.
    let attached = false;
    const admit = fanout.has(socket, sid) ? undefined : () => {
      attached = true;
      fanout.attach(socket, sid, viewer(principal));
    };
    try {
      const dispatched = await dispatchMessage(engine, principal, body, undefined, admit);
      if (dispatched.steered) return { session_id: sid, steering: "delivered" };
      const result = await dispatched.run;
      return { ...result, ...(dispatched.promoted ? { steering: "promoted" } : {}) };
    } catch (error) {
      // Refused after all (the session changed under the message): leave the room again.
      if (attached && error instanceof TetherError) fanout.detach(socket, sid);
      throw error;
    }
  });

  handle(CLIENT_EVENTS.cancel, async (raw) => {
    const parsed = parseCancelSession(raw);
    if (!parsed.ok) throw validationError(formatIssues(parsed.issues), parsed.issues);
    return {
      session_id: parsed.value.session_id,
      ...(await engine.cancel(principal, parsed.value.session_id)),
    };
  });

  socket.onAny((name: string, ...list: unknown[]) => {
    if (KNOWN.has(name)) return;
    const [raw, ack] = args(list);
    const known = [...KNOWN].join(", ");
    const payload = transportError(
      invalid(
        `The event ${JSON.stringify(name)} is not known here; send one of ${known}.`,
        "event",
      ),
      sessionOf(raw),
    );
    socket.emit("assistant:error", payload);
    ack?.({ ok: false, error: payload });
  });

  socket.on("disconnect", () => fanout.detachAll(socket));
}
