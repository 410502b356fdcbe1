/**
 * Where `<tether-view>` and `<tether-action>` find their chat when no host is
 * set on them: the chat named by their `for` attribute, else the first chat
 * connected to the document. Chats publish themselves here; watchers hear of
 * every change, so markup order and upgrade order do not matter.
 *
 * @module
 */
import type { Host } from "../client/mod.ts";

/** What a chat offers the elements that declare context and actions through it. */
export interface ChatLike {
  /** The chat's id attribute ("" when none). */
  readonly id: string;
  /** The host the chat talks through, once it has one. */
  readonly host: Host | undefined;
  /** Shows a confirmation in the conversation; resolves true when the user applied it. */
  confirm(request: ConfirmRequest): Promise<boolean>;
}

/** What a confirmation shows. */
export interface ConfirmRequest {
  /** The action's name. */
  action: string;
  /** What applying it would do, as plain text. */
  preview: string;
  /** Destructive: a second, explicit confirmation is required. */
  destructive?: boolean;
  /** Aborting it withdraws the confirmation (resolves false). */
  signal?: AbortSignal;
  /** The call it asks about: the chat draws it under that call's card, before the answer. */
  callId?: string;
}

const chats: ChatLike[] = [];
const watchers = new Set<() => void>();

const notify = () => {
  for (const fn of [...watchers]) fn();
};

/**
 * Publishes a chat (on connect) or updates watchers after its host changed.
 *
 * @example
 * ```ts
 * publishChat(this); // in connectedCallback and after the host changed
 * ```
 */
export function publishChat(chat: ChatLike): void {
  if (!chats.includes(chat)) chats.push(chat);
  notify();
}

/**
 * Withdraws a chat (on disconnect).
 *
 * @example
 * ```ts
 * withdrawChat(this);
 * ```
 */
export function withdrawChat(chat: ChatLike): void {
  const i = chats.indexOf(chat);
  if (i >= 0) chats.splice(i, 1);
  notify();
}

/**
 * The chat with id `id`, or the first published one when `id` is empty.
 *
 * @example
 * ```ts
 * const chat = findChat(this.getAttribute("for") ?? "");
 * ```
 */
export function findChat(id: string): ChatLike | undefined {
  return id ? chats.find((c) => c.id === id) : chats[0];
}

/**
 * Calls `fn` whenever a chat is published, withdrawn or changes its host; returns the unsubscribe function.
 *
 * @example
 * ```ts
 * const stop = watchChats(() => this.#rebind());
 * ```
 */
export function watchChats(fn: () => void): () => void {
  watchers.add(fn);
  return () => void watchers.delete(fn);
}
