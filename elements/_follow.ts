/**
 * Keeps a scrolling log at its newest entry unless the reader scrolled up.
 * The log is measured after its content has its size (a ResizeObserver on
 * the log and each entry: preview cards and images grow after they render),
 * never before a render. Only a scroll up by the reader lets go; reaching
 * the bottom again follows again. New content that arrives while the reader
 * is up says so (`unseen`), for a "new messages" button.
 *
 * @module
 */

// Within this many pixels of the end counts as at the end (rounding, a last line's margin).
const NEAR = 40;

/**
 * Follows one log element.
 *
 * @example
 * ```ts
 * const follow = new Follow(() => this.requestUpdate());
 * follow.attach(this.renderRoot.querySelector(".log")!); // after every update
 * ```
 */
export class Follow {
  #log: HTMLElement | undefined;
  #observer: ResizeObserver | undefined;
  #changed: () => void;
  #stuck = true;
  #unseen = false;
  #top = 0;
  #height = 0;

  constructor(changed: () => void) {
    this.#changed = changed;
  }

  /** New content arrived while the reader was scrolled up. */
  get unseen(): boolean {
    return this.#unseen;
  }

  /** Watches `log` and its current entries; call after every render. */
  attach(log: HTMLElement): void {
    if (log !== this.#log) {
      this.#log = log;
      log.addEventListener("scroll", () => this.#scrolled(), { passive: true });
    }
    this.#observer ??= new ResizeObserver(() => this.#grew());
    this.#observer.disconnect();
    this.#observer.observe(log);
    for (const entry of log.children) this.#observer.observe(entry);
    this.#grew();
  }

  /** Jumps to the newest entry and follows again. */
  toEnd(): void {
    this.#stuck = true;
    this.#unseen = false;
    this.#grew();
    this.#changed();
  }

  /** Stops watching. */
  detach(): void {
    this.#observer?.disconnect();
  }

  #grew(): void {
    const log = this.#log;
    if (!log) return;
    const grown = log.scrollHeight > this.#height;
    this.#height = log.scrollHeight;
    if (this.#stuck) {
      log.scrollTop = log.scrollHeight;
      this.#top = log.scrollTop;
    } else if (grown && !this.#unseen && !this.#atEnd(log)) {
      this.#unseen = true;
      this.#changed();
    }
  }

  #atEnd(log: HTMLElement): boolean {
    return log.scrollHeight - log.scrollTop - log.clientHeight < NEAR;
  }

  #scrolled(): void {
    const log = this.#log!;
    const top = log.scrollTop;
    if (this.#atEnd(log)) {
      this.#stuck = true;
      if (this.#unseen) {
        this.#unseen = false;
        this.#changed();
      }
      // Only the reader scrolls up: content growing below never moves scrollTop back.
    } else if (top < this.#top - 1) this.#stuck = false;
    this.#top = top;
  }
}
