/**
 * A Lit reactive controller that keeps an element in step with a host's
 * state store: it subscribes while the element is connected, re-renders the
 * element on every change, and follows the element to a new host.
 *
 * @module
 */
import type { ReactiveController, ReactiveControllerHost } from "lit";
import type { Host, HostState } from "../client/mod.ts";

/**
 * Subscribes its element to `host.state`.
 *
 * @example
 * ```ts
 * class MyPanel extends LitElement {
 *   #client = new HostController(this);
 *   set host(host: Host) { this.#client.host = host; }
 *   render() { return html`${this.#client.state?.messages.length ?? 0} messages`; }
 * }
 * ```
 */
export class HostController implements ReactiveController {
  #element: ReactiveControllerHost;
  #host: Host | undefined;
  #state: HostState | undefined;
  #unsubscribe: (() => void) | undefined;
  #connected = false;

  constructor(element: ReactiveControllerHost) {
    this.#element = element;
    element.addController(this);
  }

  /** The host followed (undefined: none yet). */
  get host(): Host | undefined {
    return this.#host;
  }

  set host(host: Host | undefined) {
    if (host === this.#host) return;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.#host = host;
    this.#state = undefined;
    if (this.#connected) this.#subscribe();
    this.#element.requestUpdate();
  }

  /** The host's latest state (undefined while there is no host). */
  get state(): HostState | undefined {
    return this.#state;
  }

  hostConnected(): void {
    this.#connected = true;
    this.#subscribe();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
  }

  #subscribe(): void {
    if (!this.#host || this.#unsubscribe) return;
    this.#unsubscribe = this.#host.state.subscribe((state) => {
      this.#state = state;
      this.#element.requestUpdate();
    });
  }
}
