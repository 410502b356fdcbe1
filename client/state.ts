/**
 * The conversation state a host keeps for UI code: messages with their tool
 * calls, the text streaming in, the pending host call, the connection state
 * and the last error; and the reducer that folds events into it.
 *
 * @module
 */
import type { PendingToolCall, TetherEventMap } from "./events.ts";
import type { ConnectionState } from "./transport.ts";

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
  /** `pending`: a host call waiting to run; `running`: its handler runs now. */
  status: "pending" | "running" | "completed" | "failed";
  output?: unknown;
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
 * An event the reducer folds: a runtime or SDK event, or the user's own message.
 *
 * @example
 * ```ts
 * const event: StateEvent = ["user", { id: "m1", content: "hi" }];
 * ```
 */
export type StateEvent =
  | { [K in keyof TetherEventMap]: [K, TetherEventMap[K]] }[keyof TetherEventMap]
  | ["user", { id: string; content: string }];

const patchCall = (state: HostState, callId: string, patch: Partial<ToolCallState>): HostState => ({
  ...state,
  messages: state.messages.map((m) =>
    m.toolCalls.some((c) => c.callId === callId)
      ? { ...m, toolCalls: m.toolCalls.map((c) => (c.callId === callId ? { ...c, ...patch } : c)) }
      : m
  ),
});

/** The assistant message of the live turn (the last message when it is the assistant's, else a new one). */
const draft = (state: HostState, change: (m: ChatMessage) => ChatMessage): HostState => {
  const last = state.messages.at(-1);
  if (last?.role === "assistant") {
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
    case "user":
      return {
        ...state,
        error: null,
        streamingText: "",
        messages: [...state.messages, {
          id: payload.id,
          role: "user",
          content: payload.content,
          toolCalls: [],
        }],
      };
    case "assistant:status":
      return payload.status === "started"
        ? { ...state, running: true, error: null }
        : { ...state, running: false, streamingText: "" };
    case "assistant:text_delta":
      return { ...state, streamingText: state.streamingText + payload.content };
    case "assistant:tool_call":
      return draft(state, (m) => ({
        ...m,
        toolCalls: [...m.toolCalls.filter((c) => c.callId !== payload.call_id), {
          callId: payload.call_id,
          toolName: payload.tool_name,
          arguments: payload.arguments,
          category: payload.category,
          status: payload.category === "host" ? "pending" : "running",
        }],
      }));
    case "assistant:tool_result":
      return patchCall(state, payload.call_id, { status: "completed", output: payload.output });
    case "assistant:tool_error":
      return patchCall(state, payload.call_id, { status: "failed", output: payload.error });
    case "assistant:final_response": {
      const next = draft(state, (m) => ({
        ...m,
        id: payload.message_id ?? m.id,
        content: payload.content ?? (state.streamingText || m.content),
      }));
      next.pending = payload.pending_tool_call ?? null;
      if (payload.error) {
        next.error = { message: payload.error, type: payload.error_type ?? undefined };
      }
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
          status: payload.outcome === "success" ? "completed" : "failed",
          output: payload.result,
        }),
        pending: null,
      };
    default:
      return state;
  }
}
