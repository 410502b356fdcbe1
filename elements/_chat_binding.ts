/**
 * A reactive controller that keeps one registration (a view, an action) on
 * the right host while its element is connected: the host set on the element,
 * else the host of the chat its `for` attribute names, else the first chat's.
 * It re-registers when that host changes and disposes on disconnect.
 *
 * @module
 */
import type { ReactiveController, ReactiveControllerHost } from "lit";
import type { Disposer, Host } from "../client/mod.ts";
import { type ChatLike, findChat, watchChats } from "./_registry.ts";

/** Makes the registration on a host; returns its disposer. */
export type Register = (host: Host) => Disposer;

/**
 * Binds an element's registration to a host.
 *
 * @example
 * ```ts
 * #binding = new ChatBinding(this, (host) => host.view(() => this.#view()));
 * ```
 */
export class ChatBinding implements ReactiveController {
  #element: ReactiveControllerHost & HTMLElement;
  #register: Register;
  #explicit: Host | undefined;
  #bound: Host | undefined;
  #dispose: Disposer | undefined;
  #unwatch: (() => void) | undefined;

  constructor(element: ReactiveControllerHost & HTMLElement, register: Register) {
    this.#element = element;
    this.#register = register;
    element.addController(this);
  }

  /** The host set on the element itself (wins over any chat's). */
  get host(): Host | undefined {
    return this.#explicit ?? this.chat?.host;
  }

  set host(host: Host | undefined) {
    this.#explicit = host;
    if (this.#unwatch) this.refresh(false);
  }

  /** The chat the element belongs to, if any. */
  get chat(): ChatLike | undefined {
    return findChat(this.#element.getAttribute("for") ?? "");
  }

  hostConnected(): void {
    this.#unwatch ??= watchChats(() => this.refresh(false));
    this.refresh(false);
  }

  hostDisconnected(): void {
    this.#unwatch?.();
    this.#unwatch = undefined;
    this.#release();
  }

  /** Registers again on the current host (`force`: even when the host is unchanged). */
  refresh(force = true): void {
    if (!this.#unwatch) return;
    const host = this.host;
    if (host === this.#bound && !force) return;
    this.#release();
    if (!host) return;
    try {
      this.#dispose = this.#register(host);
      this.#bound = host;
    } catch (error) {
      // A rule the registration broke (a duplicate action name, say) is the page's bug: say so, keep the page running.
      console.error(`<${this.#element.localName}>: ${(error as Error).message}`);
    }
  }

  #release(): void {
    this.#dispose?.();
    this.#dispose = undefined;
    this.#bound = undefined;
  }
}
