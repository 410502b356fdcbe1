/**
 * Wire events on the Socket.IO namespace `/assistant` (the same payloads go over SSE).
 *
 * Order of a turn: `status started`, deltas and tool events, `final_response`,
 * then `error` if the turn failed, then `status completed`.
 *
 * @module
 */
import type { CancelSession, JoinSession } from "./client_payloads.ts";
import type { ErrorType } from "./error_type.ts";
import type { FinalResponse } from "./final_response.ts";
import type { MessageBodyInput } from "./message_body.ts";
import type { DisplayCard } from "./display.ts";
import type { Approval, Verb } from "./pending_kinds.ts";

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
