/**
 * A scripted stand-in for the runtime, for element tests: a transport whose
 * messages go to a test's `respond` function, which plays the turn's events
 * back (`status started`, deltas, tool calls, `final_response`, `status
 * completed`) at the pace the test chooses, to every host made from it on
 * the same session (as to tabs that follow it). Not part of the public API.
 *
 * @module
 */
import type { TransportFactory, TransportLink } from "../client/mod.ts";

/** A message body as the host sent it. */
// deno-lint-ignore no-explicit-any -- test bodies are read field by field without ceremony
export type Body = Record<string, any>;

/** Plays one turn back to the host. */
export type Responder = (body: Body, turn: Turn) => void | Promise<void>;

/** The events of one turn, in the runtime's order. */
export interface Turn {
  start(): void;
  delta(text: string): void;
  hostCall(toolName: string, args: Record<string, unknown>, callId?: string): void;
  toolResult(toolName: string, callId: string, output: unknown, category?: string): void;
  final(content: string | null): void;
  error(message: string, errorType: string, retryAllowed?: boolean): void;
  end(): void;
  /** `start`, the text in deltas of a few words, `final`, `end`. */
  reply(text: string): Promise<void>;
  /** Any event, as the runtime would send it (`name` without the `assistant:` prefix). */
  emit(name: string, payload: Record<string, unknown>): void;
  /** A `final_response` ending the turn on `pending` (a `pending_tool_call` as the wire has it). */
  pend(pending: Record<string, unknown>): void;
}

/** The fake runtime a test drives. */
export interface FakeRuntime {
  transport: TransportFactory;
  /** Every body the host sent, in order. */
  sent: Body[];
  /** How often the host asked to cancel. */
  cancels: number;
  /** Plays the turns; replace it per test. */
  respond: Responder;
  /** Set: the next messages are not delivered (send rejects with it), as with the runtime out of reach. */
  unreachable?: Error;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/**
 * Makes a fake runtime; pass its `transport` to `createHost`.
 *
 * @example
 * ```ts
 * const rt = fakeRuntime();
 * rt.respond = (body, turn) => turn.reply(`You said ${body.content}`);
 * const host = createHost({ runtimeUrl: location.origin, transport: rt.transport, journal: memoryJournal() });
 * ```
 */
export function fakeRuntime(): FakeRuntime {
  // Every host made from this runtime, like tabs following one session: each gets every event.
  const links = new Set<TransportLink>();
  let n = 0;
  const rt: FakeRuntime = {
    sent: [],
    cancels: 0,
    respond: (_body, turn) => turn.reply("ok"),
    transport: (l) => {
      links.add(l);
      return {
        connect: () => (l.state("open"), Promise.resolve()),
        send(body) {
          if (rt.unreachable) return Promise.reject(rt.unreachable);
          rt.sent.push(body);
          const emit = (name: string, payload: Record<string, unknown>) =>
            links.forEach((link) =>
              link.sessionId === l.sessionId && link.event(`assistant:${name}`, payload)
            );
          const turn: Turn = {
            emit,
            pend: (pending_tool_call) =>
              emit("final_response", {
                type: "final_response",
                content: "",
                model: "scripted",
                streamed: true,
                session_id: l.sessionId,
                message_id: `a-${n}`,
                pending_tool_call,
              }),
            start: () => emit("status", { type: "agent_status", status: "started" }),
            delta: (content) => emit("text_delta", { type: "text_delta", content }),
            hostCall(tool_name, args, call_id = `call-${++n}`) {
              emit("tool_call", {
                type: "tool_call",
                tool_name,
                arguments: args,
                call_id,
                category: "host",
              });
              emit("final_response", {
                type: "final_response",
                content: null,
                session_id: l.sessionId,
                message_id: `a-${n}`,
                pending_tool_call: { tool_name, call_id, arguments: args, queued: [] },
              });
            },
            toolResult(tool_name, call_id, output, category = "backend") {
              emit("tool_call", { type: "tool_call", tool_name, arguments: {}, call_id, category });
              emit("tool_result", { type: "tool_result", tool_name, output, call_id });
            },
            final: (content) =>
              emit("final_response", {
                type: "final_response",
                content,
                session_id: l.sessionId,
                message_id: `a-${++n}`,
              }),
            error: (message, error_type, retry_allowed = false) =>
              emit("error", { type: "error", message, terminal: true, retry_allowed, error_type }),
            end: () => emit("status", { type: "agent_status", status: "completed" }),
            async reply(text) {
              turn.start();
              for (const piece of text.match(/\S+\s*/g) ?? []) {
                await tick();
                turn.delta(piece);
              }
              turn.final(text);
              turn.end();
            },
          };
          // The runtime answers after accepting the message, as the real transports do.
          setTimeout(() => void rt.respond(body, turn), 0);
          return Promise.resolve();
        },
        cancel: () => (rt.cancels++, Promise.resolve()),
        close: () => (links.delete(l), l.state("closed")),
      };
    },
  };
  return rt;
}
