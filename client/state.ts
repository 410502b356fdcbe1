/**
 * The conversation state a host keeps for UI code: messages with their tool
 * calls and attachments, the text streaming in, the pending host call, the
 * connection state and the last error; and the reducer that folds events
 * (and the stored conversation) into it.
 *
 * @module
 */
import { announced, failedCall } from "./_pending_state.ts";
import type { Approval, CallStatus, DisplayCard, Verb, WaitingFor } from "./_protocol.ts";
import { isUnknownOutcome } from "./_unknown_outcome.ts";
import type { PendingToolCall, TetherEventMap } from "./events.ts";
import { waitingFor } from "./pending.ts";
import {
  draft,
  merge,
  patchCall,
  putCall,
  settle,
  superseded,
  withPending,
} from "./_state_parts.ts";
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
  /** A remote tool's verb. */
  verb?: Verb;
  /** Who a pending call waits for when it is not the host page: the user or an approver. */
  waitingFor?: Exclude<WaitingFor, "host">;
  /** A remote action's preview (plain text from the tool server). */
  preview?: string;
  /** The Applies a remote action needs (2 for a delete) and has received so far. */
  confirmations?: { required: number; received: number };
  /** The approval hold, when the policy gate asked a person. */
  approval?: Approval;
  /** Preview cards of the result (check them again before rendering: see `cardsOf`). */
  display?: DisplayCard[];
  /** The user declined the action (status `cancelled`): show it neutrally, not as a failure. */
  declined?: boolean;
  /** The policy gate denied the call (status `failed`); `output` is the reason. */
  denied?: boolean;
  /** The user's answer to the preview, sent and not yet answered by the runtime. */
  answering?: "apply" | "cancel";
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
  /**
   * The call the session waits on: a host call waiting for (or under)
   * execution, a remote action's preview waiting for the user, or a held
   * call waiting for an approver (see `waitingFor()`).
   */
  pending: PendingToolCall | null;
  /** The pending host call is another tab's or client's to run, not this page's. */
  elsewhere?: boolean;
  error: { message: string; type?: string; retryAllowed?: boolean } | null;
}

/**
 * An event the reducer folds: a runtime or SDK event, the user's own
 * message, the stored conversation (`history`, read after a reload or
 * when another tab starts a turn), the stored pending call (`pending`, after
 * a reload) or the user's answer to a preview on its way (`answer`; no
 * `decision` when it could not be sent).
 *
 * @example
 * ```ts
 * const event: StateEvent = ["user", { id: "m1", content: "hi" }];
 * ```
 */
export type StateEvent =
  | { [K in keyof TetherEventMap]: [K, TetherEventMap[K]] }[keyof TetherEventMap]
  | ["user", { id: string; content: string; attachments?: AttachmentSummary[]; steering?: boolean }]
  | ["history", ChatMessage[]]
  | ["pending", PendingToolCall | null]
  | ["answer", { callId: string; decision?: "apply" | "cancel" }];

/**
 * The state of a session before anything is known about it.
 *
 * @example
 * ```ts
 * const state = applyEvent(initialState("s-1"), ["user", { id: "m1", content: "hi" }]);
 * ```
 */
export const initialState = (sessionId: string): HostState => ({
  sessionId,
  connection: "idle",
  running: false,
  messages: [],
  streamingText: "",
  pending: null,
  error: null,
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
      // A message sent again (same id, never received) replaces the one that failed.
      const messages = state.messages.filter((m) => m.id !== payload.id);
      return {
        ...state,
        error: null,
        streamingText: "",
        // A new message (not steering) supersedes the host calls still waiting for an answer.
        messages: [
          ...(payload.steering ? messages : settle(messages, superseded, { status: "superseded" })),
          message,
        ],
        // A preview or a hold closes with it; a host call is the call runner's to settle.
        pending: !payload.steering && state.pending && waitingFor(state.pending) !== "host"
          ? null
          : state.pending,
      };
    }
    case "history":
      return { ...state, messages: merge(state.messages, payload) };
    case "pending":
      return withPending(state, payload);
    case "answer":
      return patchCall(state, payload.callId, (c) => {
        const { answering: _, ...call } = c;
        return payload.decision ? { ...call, answering: payload.decision } : call;
      });
    case "assistant:status":
      return payload.status === "started"
        ? { ...state, running: true, error: null }
        : { ...state, running: false, streamingText: "" };
    case "assistant:text_delta":
      return { ...state, streamingText: state.streamingText + payload.content };
    case "assistant:tool_call":
      return putCall(state, payload.call_id, (old) => announced(payload, old));
    case "assistant:tool_result":
      return patchCall(state, payload.call_id, (c) => {
        const { waitingFor: _w, answering: _x, ...call } = c;
        const done: ToolCallState = { ...call, status: "completed", output: payload.output };
        if (Array.isArray(payload.display)) done.display = payload.display;
        return done;
      });
    case "assistant:tool_error":
      return putCall(state, payload.call_id, (old) => failedCall(payload, old));
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
      const waiting = withPending(next, payload.pending_tool_call ?? null);
      if (payload.error) waiting.error = { message: payload.error, type: type ?? undefined };
      return waiting;
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
    case "action:confirm":
      return {
        ...patchCall(state, payload.call.call_id, {
          status: "pending",
          waitingFor: "confirmation",
        }),
        pending: payload.call,
      };
    case "action:start":
      return {
        ...patchCall(state, payload.call.call_id, (c) => {
          const { waitingFor: _, ...call } = c;
          return { ...call, status: "running" };
        }),
        pending: payload.call,
      };
    case "action:end":
      return {
        ...patchCall(state, payload.call.call_id, (c) => {
          const { waitingFor: _, ...rest } = c;
          return {
            ...rest,
            status: payload.outcome === "success"
              ? "completed"
              : payload.outcome === "declined"
              ? "cancelled"
              : isUnknownOutcome(payload.result)
              ? "unknown"
              : "failed",
            output: payload.result,
            ...(payload.outcome === "declined" ? { declined: true } : {}),
          };
        }),
        pending: null,
      };
    default:
      return state;
  }
}
