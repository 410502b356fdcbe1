/**
 * The pieces the state reducer is made of: finding and patching open calls,
 * the live turn's assistant message, and merging the stored conversation.
 *
 * @module
 */
import { isDeclined } from "./_declined.ts";
import { asPending } from "./_pending_state.ts";
import { isUnknownOutcome } from "./_unknown_outcome.ts";
import type { PendingToolCall } from "./events.ts";
import type { ChatMessage, HostState, ToolCallState } from "./state.ts";

/** Whether a call is still open (pending or running). */
export const open = (call: ToolCallState) => call.status === "pending" || call.status === "running";

/** Applies `patch` to the open calls of `messages` that `which` picks; settled calls keep their status. */
export const settle = (
  messages: ChatMessage[],
  which: (call: ToolCallState) => unknown,
  patch: Partial<ToolCallState> | ((call: ToolCallState) => ToolCallState),
): ChatMessage[] =>
  messages.map((m) =>
    m.toolCalls.some((c) => open(c) && which(c))
      ? {
        ...m,
        toolCalls: m.toolCalls.map((c) =>
          open(c) && which(c) ? (typeof patch === "function" ? patch(c) : { ...c, ...patch }) : c
        ),
      }
      : m
  );

export const patchCall = (
  state: HostState,
  callId: string,
  patch: Partial<ToolCallState> | ((call: ToolCallState) => ToolCallState),
): HostState => ({
  ...state,
  messages: settle(state.messages, (c) => c.callId === callId, patch),
});

/** The state waiting on `pending` (or on nothing), its call showing what it waits for. */
export const withPending = (state: HostState, pending: PendingToolCall | null): HostState =>
  pending
    ? { ...patchCall(state, pending.call_id, (c) => asPending(c, pending)), pending }
    : { ...state, pending: null };

/** A new message supersedes the calls still waiting for an answer (a host call, a preview, a hold). */
export const superseded = (c: ToolCallState) => c.category === "host" || c.status === "pending";

/**
 * The stored conversation with what the state knows beyond it (a failure
 * this SDK reported as of unknown outcome shows as unknown): the state's
 * version of a message wins (it is at least as fresh), except that a call
 * still open here takes its settled status from the store (another tab may
 * have answered it); messages the store does not have yet (the live turn, a
 * message just sent) follow it. The live turn's message, unnamed until its
 * final answer, is the stored one that holds its calls.
 */
export const merge = (messages: ChatMessage[], stored: ChatMessage[]): ChatMessage[] => {
  // The live turn's message before its final answer names it (id ""): the stored message that
  // holds its calls, or it would show twice once that answer names it.
  messages = messages.map((m) => {
    if (m.id !== "" || m.role !== "assistant" || m.toolCalls.length === 0) return m;
    const same = stored.find((s) =>
      s.role === "assistant" &&
      m.toolCalls.every((c) => s.toolCalls.some((x) => x.callId === c.callId))
    );
    return same ? { ...m, id: same.id } : m;
  });
  const mine = new Map(messages.map((m) => [m.id, m]));
  const ids = new Set(stored.map((m) => m.id));
  return [
    ...stored.map((s) => {
      s = {
        ...s,
        toolCalls: s.toolCalls.map((c) =>
          c.status !== "failed"
            ? c
            : isUnknownOutcome(c.output)
            ? { ...c, status: "unknown" }
            : isDeclined(c.output)
            ? { ...c, status: "cancelled", declined: true }
            : c
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
export const draft = (
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
export const putCall = (
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
