/**
 * Runtime events held back while the host reads the stored conversation
 * (on connect, or when another tab starts a turn), so they fold into the
 * state after it, in order, instead of before it.
 *
 * @module
 */

type Event = [name: string, payload: Record<string, unknown>];

/**
 * A gate for events: closed, it keeps them; opened, it delivers what it kept and lets the rest through.
 *
 * @example
 * ```ts
 * const gate = new HeldEvents((name, payload) => fold(name, payload));
 * gate.pass("assistant:status", { status: "started" }); // kept: the gate starts closed
 * gate.open(); // delivered now
 * ```
 */
export class HeldEvents {
  #held: Event[] | undefined = [];
  #deliver: (name: string, payload: Record<string, unknown>) => void;

  constructor(deliver: (name: string, payload: Record<string, unknown>) => void) {
    this.#deliver = deliver;
  }

  /** Whether events are held now. */
  get closed(): boolean {
    return !!this.#held;
  }

  /** Delivers the event, or keeps it while the gate is closed. */
  pass(name: string, payload: Record<string, unknown>): void {
    if (this.#held) this.#held.push([name, payload]);
    else this.#deliver(name, payload);
  }

  /** Holds events from now on (an open gate's next events are kept). */
  close(): void {
    this.#held ??= [];
  }

  /** Delivers what was kept, in order, and lets later events through. */
  open(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const [name, payload] of held) this.#deliver(name, payload);
  }
}
