/**
 * Test helpers for pages that open on a session the runtime already has:
 * `GET /api/sessions/{id}` and `.../messages` answered with what a test
 * stores (the shapes the runtime returns), and a second `<tether-chat>` on
 * the same scripted runtime, as a reloaded page or another tab would be.
 * Not part of the public API.
 *
 * @module
 */
import { createHost, type Host, memoryJournal } from "../client/mod.ts";
import type { FakeRuntime } from "./_fake_runtime.ts";
import type { TetherChat } from "./chat.ts";

/**
 * Answers the session's two reads with `info` and `messages` (other
 * requests go through); returns the function that restores `fetch`.
 *
 * @example
 * ```ts
 * const restore = storeSession("s-1", { pending_action: null, message_count: 0 }, []);
 * ```
 */
export function storeSession(
  sessionId: string,
  info: Record<string, unknown>,
  messages: Record<string, unknown>[],
): () => void {
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
    const session = `/api/sessions/${sessionId}`;
    if (path === session) {
      return Promise.resolve(Response.json({ session_id: sessionId, owner_id: "local", ...info }));
    }
    if (path === `${session}/messages`) {
      return Promise.resolve(Response.json({ session_id: sessionId, messages, last_seq: 5 }));
    }
    return realFetch(input, init);
  };
  return () => (globalThis.fetch = realFetch);
}

/**
 * Another `<tether-chat>` in `parent`, with a host of its own on `sessionId` of `rt`.
 *
 * @example
 * ```ts
 * const { chat, host } = chatOn(f.rt, f.host.sessionId, f.root);
 * ```
 */
export function chatOn(
  rt: FakeRuntime,
  sessionId: string,
  parent: HTMLElement,
): { chat: TetherChat; host: Host } {
  const chat = document.createElement("tether-chat") as TetherChat;
  parent.append(chat);
  const host = createHost({
    runtimeUrl: location.origin,
    sessionId,
    transport: rt.transport,
    journal: memoryJournal(),
    webmcp: false,
  });
  chat.host = host;
  return { chat, host };
}
