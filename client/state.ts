/**
 * The conversation state a host keeps for UI code: messages with their tool
 * calls and attachments, the text streaming in, the pending host call, the
 * connection state and the last error; and the reducer that folds events
 * (and the stored conversation) into it.
 *
 * @module
 */
import type { CallStatus } from "./_protocol.ts";
import { isUnknownOutcome } from "./_unknown_outcome.ts";
import type { PendingToolCall, TetherEventMap } from "./events.ts";
import type { ConnectionState } from "./transport.ts";

/**
 * Where a tool call is: the runtime's statuses. `pending`: a host call
 * waiting for its page; `running`: a backend call, or a host handler running
 * now; then `completed`, `failed`, `cancelled` (the turn was cancelled or hit
 * a limit), `superseded` (a new message came first) or `unknown` (the
 * runtime restarted, or this SDK could not tell what a handler did: the
 * runtime records that one as failed).
 *
 * @example
 * ```ts
 * const open = (s: ToolCallStatus) => s === "pending" || s === "running";
 * ```
 */
export type ToolCallStatus = CallStatus;

/**
 * A tool call as the UI shows it.
 *
 * @example
 * ```ts
 * const running = host.state.get().messages.flatMap((m) => m.toolCalls).filter((c) => c.status === "running");
 * ```
 */
export interface ToolCallState {
  callId: string;
  toolName: string;
  arguments: Record<string, unknown>;
  category: string;
  status: ToolCallStatus;
  /** The result, or the reason it failed. */
  output?: unknown;
}

/**
 * What a user message keeps of a reference attachment it carried (never the content).
 *
 * @example
 * ```ts
 * const chips = message.attachments?.map((a: AttachmentSummary) => a.name ?? a.kind);
 * ```
 */
export interface AttachmentSummary {
  kind: "image" | "document" | "text";
  name?: string;
  mediaType?: string;
  /** A small JPEG data URI of an image. */
  thumbnail?: string;
}

/**
 * One message of the conversation.
 *
 * @example
 * ```ts
 * host.state.subscribe((s) => list.replaceChildren(...s.messages.map((m: ChatMessage) => render(m))));
 * ```
 */
export interface ChatMessage {
  id: string;
  role: "user" | "assistant";
  content: string;
  toolCalls: ToolCallState[];
  /** A user message's reference attachments. */
  attachments?: AttachmentSummary[];
}

/**
 * Everything a chat UI needs to render.
 *
 * @example
 * ```ts
 * host.state.subscribe((s: HostState) => (composer.disabled = s.running || s.pending !== null));
 * ```
 */
export interface HostState {
  sessionId: string;
  connection: ConnectionState;
  /** A turn is live (from `status started` to `status completed`). */
  running: boolean;
  messages: ChatMessage[];
  /** Text of the live turn so far. */
  streamingText: string;
  /** The host call waiting for (or under) execution. */
  pending: PendingToolCall | null;
  error: { message: string; type?: string; retryAllowed?: boolean } | null;
}

/**
 * An event the reducer folds: a runtime or SDK event, the user's own
 * message, or the stored conversation (`history`, read after a reload or
 * when another tab starts a turn).
 *
 * @example
 * ```ts
 * const event: StateEvent = ["user", { id: "m1", content: "hi" }];
 * ```
 */
export type StateEvent =
  | { [K in keyof TetherEventMap]: [K, TetherEventMap[K]] }[keyof TetherEventMap]
  | ["user", { id: string; content: string; attachments?: AttachmentSummary[]; steering?: boolean }]
  | ["history", ChatMessage[]];

const open = (call: ToolCallState) => call.status === "pending" || call.status === "running";

/** Applies `patch` to the open calls of `messages` that `which` picks; settled calls keep their status. */
const settle = (
  messages: ChatMessage[],
  which: (call: ToolCallState) => unknown,
  patch: Partial<ToolCallState>,
): ChatMessage[] =>
  messages.map((m) =>
    m.toolCalls.some((c) => open(c) && which(c))
      ? { ...m, toolCalls: m.toolCalls.map((c) => (open(c) && which(c) ? { ...c, ...patch } : c)) }
      : m
  );

const patchCall = (state: HostState, callId: string, patch: Partial<ToolCallState>): HostState => ({
  ...state,
  messages: settle(state.messages, (c) => c.callId === callId, patch),
});

/**
 * The stored conversation with what the state knows beyond it (a failure
 * this SDK reported as of unknown outcome shows as unknown): the state's
 * version of a message wins (it is at least as fresh), except that a call
 * still open here takes its settled status from the store (another tab may
 * have answered it); messages the store does not have yet (the live turn, a
 * message just sent) follow it.
 */
const merge = (messages: ChatMessage[], stored: ChatMessage[]): ChatMessage[] => {
  const mine = new Map(messages.map((m) => [m.id, m]));
  const ids = new Set(stored.map((m) => m.id));
  return [
    ...stored.map((s) => {
      s = {
        ...s,
        toolCalls: s.toolCalls.map((c) =>
          c.status === "failed" && isUnknownOutcome(c.output) ? { ...c, status: "unknown" } : c
        ),
      };
      const m = mine.get(s.id);
      if (!m) return s;
      const done = new Map(s.toolCalls.filter((c) => !open(c)).map((c) => [c.callId, c]));
      return { ...m, toolCalls: m.toolCalls.map((c) => (open(c) && done.get(c.callId)) || c) };
    }),
    ...messages.filter((m) => !ids.has(m.id)),
  ];
};

/**
 * The assistant message of the live turn: the last message when it is the
 * assistant's (a continuation adds to it) and not another message (`id`), else a new one.
 */
const draft = (
  state: HostState,
  change: (m: ChatMessage) => ChatMessage,
  id?: string,
): HostState => {
  const last = state.messages.at(-1);
  if (last?.role === "assistant" && !(id && last.id && last.id !== id)) {
    return { ...state, messages: [...state.messages.slice(0, -1), change(last)] };
  }
  return {
    ...state,
    messages: [
      ...state.messages,
      change({ id: "", role: "assistant", content: "", toolCalls: [] }),
    ],
  };
};

/** Adds a call to the live turn's message, or replaces the one with the same id. */
const putCall = (
  state: HostState,
  id: string,
  call: (old?: ToolCallState) => ToolCallState,
): HostState =>
  draft(state, (m) => {
    const old = m.toolCalls.find((c) => c.callId === id);
    return {
      ...m,
      toolCalls: old
        ? m.toolCalls.map((c) => (c === old ? call(old) : c))
        : [...m.toolCalls, call()],
    };
  });

/**
 * Folds one event into the state (pure; the host calls it for every event).
 *
 * @example
 * ```ts
 * const next = applyEvent(state, ["assistant:text_delta", { type: "text_delta", content: "Hi" }]);
 * ```
 */
export function applyEvent(state: HostState, [name, payload]: StateEvent): HostState {
  switch (name) {
    case "user": {
      const message: ChatMessage = {
        id: payload.id,
        role: "user",
        content: payload.content,
        toolCalls: [],
      };
      if (payload.attachments?.length) message.attachments = payload.attachments;
      return {
        ...state,
        error: null,
        streamingText: "",
        // A new message (not steering) supersedes the host calls still waiting for an answer.
        messages: [
          ...(payload.steering
            ? state.messages
            : settle(state.messages, (c) => c.category === "host", { status: "superseded" })),
          message,
        ],
      };
    }
    case "history":
      return { ...state, messages: merge(state.messages, payload) };
    case "assistant:status":
      return payload.status === "started"
        ? { ...state, running: true, error: null }
        : { ...state, running: false, streamingText: "" };
    case "assistant:text_delta":
      return { ...state, streamingText: state.streamingText + payload.content };
    case "assistant:tool_call":
      return putCall(state, payload.call_id, () => ({
        callId: payload.call_id,
        toolName: payload.tool_name,
        arguments: payload.arguments,
        category: payload.category,
        status: payload.category === "host" ? "pending" : "running",
      }));
    case "assistant:tool_result":
      return patchCall(state, payload.call_id, { status: "completed", output: payload.output });
    case "assistant:tool_error":
      // A call refused before it ran (a policy denial, invalid arguments) had no tool_call event.
      return putCall(state, payload.call_id, (old) => ({
        ...(old ??
          {
            callId: payload.call_id,
            toolName: payload.tool_name,
            arguments: {},
            category: "backend",
          }),
        // The SDK's own "outcome is unknown" report comes back as a failure; keep showing it as unknown.
        status: isUnknownOutcome(payload.error) ? "unknown" : "failed",
        output: payload.error,
      }));
    case "assistant:final_response": {
      const type = payload.error_type;
      const next = draft(state, (m) => ({
        ...m,
        id: payload.message_id ?? m.id,
        content: payload.content ?? (state.streamingText || m.content),
        // A failed turn closes its open calls as the runtime records them.
        toolCalls: payload.error
          ? settle([m], Boolean, {
            status: type === "cancelled" || type === "usage_limit" || type === "invalid_decision"
              ? "cancelled"
              : "failed",
          })[0].toolCalls
          : m.toolCalls,
      }), payload.message_id);
      next.pending = payload.pending_tool_call ?? null;
      if (payload.error) next.error = { message: payload.error, type: type ?? undefined };
      return next;
    }
    case "assistant:error":
      return {
        ...state,
        error: payload.type === "error"
          ? {
            message: payload.message,
            type: payload.error_type ?? payload.type,
            retryAllowed: payload.retry_allowed,
          }
          : { message: payload.message, type: payload.type },
      };
    case "action:start":
      return {
        ...patchCall(state, payload.call.call_id, { status: "running" }),
        pending: payload.call,
      };
    case "action:end":
      return {
        ...patchCall(state, payload.call.call_id, {
          status: payload.outcome === "success"
            ? "completed"
            : isUnknownOutcome(payload.result)
            ? "unknown"
            : "failed",
          output: payload.result,
        }),
        pending: null,
      };
    default:
      return state;
  }
}
