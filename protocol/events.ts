/**
 * Wire events on the Socket.IO namespace `/assistant` (the same payloads go
 * over SSE, and AG-UI carries them translated): each server payload defined
 * once as a zod/mini schema, its type written beside it and proven by the
 * compiler to be exactly what the schema infers.
 *
 * Order of a turn: `status started`, deltas and tool events, `final_response`,
 * then `error` if the turn failed, then `status completed`.
 *
 * @module
 */
import * as z from "zod/mini";
import type { CancelSession, JoinSession } from "./client_payloads.ts";
import type { Same } from "./_values.ts";
import type { DisplayCard } from "./display.ts";
import { ERROR_TYPES, type ErrorType } from "./error_type.ts";
import { type FinalResponse, finalResponseSchema } from "./final_response.ts";
import type { MessageBodyInput } from "./message_body.ts";
import {
  type Approval,
  approvalSchema,
  categorySchema,
  type Verb,
  verbSchema,
} from "./pending_kinds.ts";

/**
 * The Socket.IO namespace of the assistant.
 *
 * @example
 * ```ts
 * const socket = io(`${origin}${ASSISTANT_NAMESPACE}`);
 * ```
 */
export const ASSISTANT_NAMESPACE = "/assistant";

/**
 * Names of the events the runtime sends.
 *
 * @example
 * ```ts
 * socket.on(SERVER_EVENTS.final_response, (payload: FinalResponse) => render(payload));
 * ```
 */
export const SERVER_EVENTS = {
  status: "assistant:status",
  text_delta: "assistant:text_delta",
  thinking_delta: "assistant:thinking_delta",
  tool_call: "assistant:tool_call",
  tool_result: "assistant:tool_result",
  tool_error: "assistant:tool_error",
  final_response: "assistant:final_response",
  error: "assistant:error",
} as const;

/**
 * Names of the events a client sends.
 *
 * @example
 * ```ts
 * socket.emit(CLIENT_EVENTS.cancel, { session_id: "s-1" });
 * ```
 */
export const CLIENT_EVENTS = {
  join_session: "assistant_join_session",
  message: "assistant_message",
  cancel: "assistant_cancel",
} as const;

/** The per-session sequence number the runtime adds to every server payload. */
const seq = { seq: z.optional(z.number()) };

/**
 * Fields every server payload may carry: the per-session sequence number the runtime adds.
 *
 * @example
 * ```ts
 * const lastSeen = (payload: Sequenced) => payload.seq ?? -1;
 * ```
 */
export interface Sequenced {
  /** Position in the session's event stream; lets a reconnecting client resume. */
  seq?: number;
}

const delta = <T extends string>(type: T) =>
  z.object({
    type: z.literal(type),
    content: z.string(),
    segment_id: z.optional(z.string()),
    segment_index: z.optional(z.number()),
    ...seq,
  });

const callFields = { tool_name: z.string(), call_id: z.string() };

const displayCardSchema: z.ZodMiniType<DisplayCard> = z.object({
  title: z.string(),
  url: z.string(),
  image: z.optional(z.string()),
  subtitle: z.optional(z.string()),
  badges: z.optional(z.array(z.string())),
});

/**
 * `assistant:status`; `completed` is the last event of a turn.
 *
 * @example
 * ```ts
 * const done = (event: StatusEvent) => event.status === "completed";
 * ```
 */
export interface StatusEvent extends Sequenced {
  type: "agent_status";
  status: "started" | "completed";
  /**
   * The `id` of the message or continuation whose turn this is, so a client
   * that sent several tells its turns apart; absent when the body had no
   * `id` and on a turn the runtime resumed by itself (an approval released).
   */
  request_id?: string;
}

/**
 * `assistant:text_delta`: the next piece of the answer.
 *
 * @example
 * ```ts
 * const event: TextDeltaEvent = { type: "text_delta", content: "Hel", segment_index: 0 };
 * ```
 */
export interface TextDeltaEvent extends Sequenced {
  type: "text_delta";
  content: string;
  segment_id?: string;
  segment_index?: number;
}

/**
 * `assistant:thinking_delta`: the next piece of the model's visible thinking.
 *
 * @example
 * ```ts
 * const event: ThinkingDeltaEvent = { type: "thinking_delta", content: "Checking the list" };
 * ```
 */
export interface ThinkingDeltaEvent extends Sequenced {
  type: "thinking_delta";
  content: string;
  segment_id?: string;
  segment_index?: number;
}

/**
 * `assistant:tool_call`: the model called a tool.
 *
 * @example
 * ```ts
 * const event: ToolCallEvent = {
 *   type: "tool_call", tool_name: "select_issue", arguments: { number: 42 },
 *   call_id: "call_1", category: "host",
 * };
 * ```
 */
export interface ToolCallEvent extends Sequenced {
  type: "tool_call";
  tool_name: string;
  arguments: Record<string, unknown>;
  call_id: string;
  /** A shipped category (`ToolCategory`) or a registered kind's own. */
  category: string;
  /** A remote tool's verb. */
  verb?: Verb;
  /** Set when the policy gate holds the call until a person approves it. */
  approval?: Approval;
}

/**
 * `assistant:tool_result`: a tool finished.
 *
 * @example
 * ```ts
 * const event: ToolResultEvent = {
 *   type: "tool_result", tool_name: "search", output: ["a"], call_id: "call_2", duration_ms: 40,
 * };
 * ```
 */
export interface ToolResultEvent extends Sequenced {
  type: "tool_result";
  tool_name: string;
  output: unknown;
  call_id: string;
  duration_ms?: number;
  /** Preview cards of a remote tool's result, sanitised as the remote tools contract says. */
  display?: DisplayCard[];
}

/**
 * `assistant:tool_error`: a tool failed, the user declined it (`declined`:
 * recorded as cancelled, shown neutrally), or the policy gate denied it
 * (`policy: "deny"`, `error` is the reason).
 *
 * @example
 * ```ts
 * const event: ToolErrorEvent = {
 *   type: "tool_error", tool_name: "search", error: "index offline", call_id: "call_2",
 * };
 * ```
 */
export interface ToolErrorEvent extends Sequenced {
  type: "tool_error";
  tool_name: string;
  error: string;
  call_id: string;
  /** The user cancelled the action: not a failure. */
  declined?: boolean;
  /** The policy gate refused the call; `error` says why. */
  policy?: "deny";
}

/**
 * `assistant:error` for a failed turn.
 *
 * @example
 * ```ts
 * const event: TurnErrorEvent = {
 *   type: "error", message: "The provider is busy.", terminal: true, retry_allowed: true,
 *   error_type: "rate_limit",
 * };
 * ```
 */
export interface TurnErrorEvent extends Sequenced {
  type: "error";
  message: string;
  terminal: boolean;
  retry_allowed: boolean;
  error_type?: ErrorType | null;
}

/**
 * `assistant:error` for a refused request (bad payload, wrong owner, session conflict).
 *
 * @example
 * ```ts
 * const event: TransportErrorEvent = { type: "validation", message: "content is required." };
 * ```
 */
export interface TransportErrorEvent extends Sequenced {
  type: "validation" | "forbidden" | "session" | "internal";
  message: string;
}

/**
 * Every payload of `assistant:error`.
 *
 * @example
 * ```ts
 * const turnFailed = (event: ErrorEvent) => event.type === "error";
 * ```
 */
export type ErrorEvent = TurnErrorEvent | TransportErrorEvent;

/**
 * Server event name to payload type.
 *
 * @example
 * ```ts
 * function on<E extends keyof ServerEvents>(name: E, fn: (payload: ServerEvents[E]) => void) {
 *   socket.on(name, fn);
 * }
 * ```
 */
export interface ServerEvents {
  "assistant:status": StatusEvent;
  "assistant:text_delta": TextDeltaEvent;
  "assistant:thinking_delta": ThinkingDeltaEvent;
  "assistant:tool_call": ToolCallEvent;
  "assistant:tool_result": ToolResultEvent;
  "assistant:tool_error": ToolErrorEvent;
  "assistant:final_response": FinalResponse;
  "assistant:error": ErrorEvent;
}

const RAW = {
  /** `completed` is the last event of a turn. */
  "assistant:status": z.object({
    type: z.literal("agent_status"),
    status: z.enum(["started", "completed"]),
    request_id: z.optional(z.string()),
    ...seq,
  }),
  /** The next piece of the answer. */
  "assistant:text_delta": delta("text_delta"),
  /** The next piece of the model's visible thinking. */
  "assistant:thinking_delta": delta("thinking_delta"),
  /** The model called a tool. */
  "assistant:tool_call": z.object({
    type: z.literal("tool_call"),
    ...callFields,
    arguments: z.record(z.string(), z.unknown()),
    /** A shipped category (`ToolCategory`) or a registered kind's own. */
    category: categorySchema,
    /** A remote tool's verb. */
    verb: z.optional(verbSchema),
    /** Set when the policy gate holds the call until a person approves it. */
    approval: z.optional(approvalSchema),
    ...seq,
  }),
  /** A tool finished. */
  "assistant:tool_result": z.object({
    type: z.literal("tool_result"),
    ...callFields,
    output: z.unknown(),
    duration_ms: z.optional(z.number()),
    /** Preview cards of a remote tool's result, sanitised as the remote tools contract says. */
    display: z.optional(z.array(displayCardSchema)),
    ...seq,
  }),
  /**
   * A tool failed, the user declined it (`declined`: recorded as cancelled, shown
   * neutrally), or the policy gate denied it (`policy: "deny"`, `error` is the reason).
   */
  "assistant:tool_error": z.object({
    type: z.literal("tool_error"),
    ...callFields,
    error: z.string(),
    /** The user cancelled the action: not a failure. */
    declined: z.optional(z.boolean()),
    /** The policy gate refused the call; `error` says why. */
    policy: z.optional(z.literal("deny")),
    ...seq,
  }),
  "assistant:final_response": finalResponseSchema,
  /** A failed turn (`type: "error"`), or a refused request (bad payload, wrong owner, session conflict). */
  "assistant:error": z.discriminatedUnion("type", [
    z.object({
      type: z.literal("error"),
      message: z.string(),
      terminal: z.boolean(),
      retry_allowed: z.boolean(),
      error_type: z.optional(z.nullable(z.enum(ERROR_TYPES))),
      ...seq,
    }),
    z.object({
      type: z.enum(["validation", "forbidden", "session", "internal"]),
      message: z.string(),
      ...seq,
    }),
  ]),
} as const;

type EachSame = {
  [E in keyof ServerEvents]: Same<z.infer<(typeof RAW)[E]>, ServerEvents[E]>;
};
const _same: EachSame[keyof EachSame] extends true ? true : false = true;

/**
 * The payload schema of every server event, by event name: the one
 * definition of what the runtime sends. The payload types above are written
 * out (a published API needs explicit types) and the compiler proves each one
 * is exactly what its schema infers; tests check payloads against these at
 * each transport's edge.
 *
 * @example
 * ```ts
 * z.safeParse(SERVER_EVENT_SCHEMAS["assistant:status"], payload).success;
 * ```
 */
export const SERVER_EVENT_SCHEMAS: {
  readonly [E in keyof ServerEvents]: z.ZodMiniType<ServerEvents[E]>;
} = RAW;

/**
 * A payload as the runtime builds it, before the hub numbers it (`seq`);
 * distributes over unions such as `ErrorEvent`.
 *
 * @example
 * ```ts
 * const started: Unsequenced<"assistant:status"> = { type: "agent_status", status: "started" };
 * ```
 */
export type Unsequenced<E extends keyof ServerEvents> = ServerEvents[E] extends infer T
  ? T extends unknown ? Omit<T, "seq"> : never
  : never;

/**
 * One server event as the runtime publishes it: the name and its payload,
 * paired so that narrowing on `event` types the payload.
 *
 * @example
 * ```ts
 * const done = (e: ServerEvent) => e.event === "assistant:status" && e.payload.status === "completed";
 * ```
 */
export type ServerEvent = {
  [E in keyof ServerEvents]: { event: E; payload: ServerEvents[E] & { seq: number } };
}[keyof ServerEvents];

/**
 * Checks a payload against its event's schema: the issues' messages, empty when it conforms.
 *
 * @example
 * ```ts
 * assert.deepEqual(eventIssues("assistant:status", payload), []);
 * ```
 */
export function eventIssues(event: string, payload: unknown): string[] {
  const schema = (SERVER_EVENT_SCHEMAS as Record<string, z.ZodMiniType>)[event];
  if (!schema) return [`${event} is not a server event`];
  const read = z.safeParse(schema, payload);
  return read.success
    ? []
    : read.error.issues.map((i) => `${event}.${i.path.join(".")}: ${i.message}`);
}

/**
 * The server-to-client event map in Socket.IO's form (`Server<…, ServerToClientEvents>`,
 * `Socket<ServerToClientEvents, …>` in socket.io-client).
 *
 * @example
 * ```ts
 * const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(url);
 * ```
 */
export type ServerToClientEvents = {
  [E in keyof ServerEvents]: (payload: ServerEvents[E]) => void;
};

/**
 * The client-to-server event map in Socket.IO's form; a message may ask for an
 * acknowledgement (`{ok: true}` or `{ok: false, error}`).
 *
 * @example
 * ```ts
 * socket.emit("assistant_cancel", { session_id: "s-1" });
 * ```
 */
export type ClientToServerEvents = {
  [E in keyof ClientEvents]: (payload: ClientEvents[E], ack?: (answer: SocketAck) => void) => void;
};

/**
 * The acknowledgement of a client event: accepted (with what the handler answered) or refused.
 *
 * @example
 * ```ts
 * const accepted = (answer: SocketAck) => answer.ok;
 * ```
 */
export type SocketAck =
  | ({ ok: true } & Record<string, unknown>)
  | { ok: false; error: TransportErrorEvent & { error_type?: string; issues?: unknown[] } };

/**
 * Client event name to payload type.
 *
 * @example
 * ```ts
 * const join: ClientEvents["assistant_join_session"] = { session_id: "s-1" };
 * ```
 */
export interface ClientEvents {
  assistant_join_session: JoinSession;
  assistant_message: MessageBodyInput;
  assistant_cancel: CancelSession;
}
