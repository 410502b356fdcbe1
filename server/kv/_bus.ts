/**
 * In-process publish/subscribe, used by the memory and Deno KV stores and to
 * fan messages out to the listeners of one process in the others.
 *
 * @module
 */

import { encodeValue } from "./_codec.ts";
import type { Listener } from "./store.ts";
import { log } from "../log.ts";

/** Calls a listener, reporting (not rethrowing) its failure so one bad listener cannot stop the others. */
export function deliver(listener: Listener, message: unknown): void {
  try {
    listener(message);
  } catch (error) {
    log.error("a store subscriber threw; the message was still delivered to the others", {
      error,
    });
  }
}

/** Listeners per channel; every delivery gets its own copy of the message. */
export class Bus {
  #channels = new Map<string, Set<Listener>>();

  /** Whether any listener is subscribed to `channel`. */
  has(channel: string): boolean {
    return (this.#channels.get(channel)?.size ?? 0) > 0;
  }

  /** Delivers `message` (a JSON value) to every listener of `channel` in a later microtask. */
  publish(channel: string, message: unknown): void {
    const listeners = this.#channels.get(channel);
    if (listeners === undefined || listeners.size === 0) return;
    this.publishText(channel, encodeValue(message));
  }

  /** Like `publish()`, with the message already serialised. */
  publishText(channel: string, text: string): void {
    const listeners = this.#channels.get(channel);
    if (listeners === undefined) return;
    for (const listener of listeners) queueMicrotask(() => deliver(listener, JSON.parse(text)));
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(channel: string, listener: Listener): () => void {
    // A wrapper makes each subscription distinct, even for the same function.
    const own: Listener = (message) => listener(message);
    let listeners = this.#channels.get(channel);
    if (listeners === undefined) this.#channels.set(channel, listeners = new Set());
    listeners.add(own);
    return () => {
      listeners.delete(own);
      if (listeners.size === 0 && this.#channels.get(channel) === listeners) {
        this.#channels.delete(channel);
      }
    };
  }

  /** Drops every listener. */
  clear(): void {
    this.#channels.clear();
  }
}
