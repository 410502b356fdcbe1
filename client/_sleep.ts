/**
 * A delay that ends early when its signal aborts (a host closing, a nudge).
 *
 * @module
 */

/**
 * Resolves after `ms`, or as soon as `signal` aborts; never rejects.
 *
 * @example
 * ```ts
 * await sleep(500, closed.signal);
 * ```
 */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
