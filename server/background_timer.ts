/**
 * Timers for upkeep (rescans, file checks, exporter flushes) that must never
 * keep a process alive on their own: a runtime that is dropped without
 * `close()`, as a crash test does, still lets its process exit.
 *
 * @module
 */

/**
 * Calls `fn` every `ms` milliseconds in the background; returns the function that stops it.
 *
 * @example
 * ```ts
 * const stop = backgroundInterval(() => console.log("tick"), 1_000);
 * stop();
 * ```
 */
export function backgroundInterval(fn: () => void, ms: number): () => void {
  const timer = setInterval(fn, ms);
  // Node's timers have unref(); Deno's are numbers, which its test sanitizer tracks instead.
  (timer as unknown as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}
