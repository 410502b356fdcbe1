/**
 * A clock for hold tests: time moves only when the test says so, and every
 * sleeper wakes when it does, so a 300-second window passes instantly.
 *
 * @module
 */
import type { HoldClock } from "../hold.ts";

/** A manual clock. */
export interface ManualClock extends HoldClock {
  /** Moves time forward and wakes every sleeper. */
  advance(ms: number): void;
  /** Resolves once at least `n` sleepers wait (a hold has polled and gone to sleep). */
  sleepers(n?: number): Promise<void>;
}

/**
 * Creates a manual clock starting at `start` (epoch ms).
 *
 * @example
 * ```ts
 * const clock = manualClock();
 * clock.advance(2_000);
 * ```
 */
export function manualClock(start = Date.now()): ManualClock {
  let now = start;
  const waiting = new Set<() => void>();
  return {
    now: () => now,
    sleep: (_ms, signal) =>
      new Promise<void>((resolve) => {
        const wake = () => {
          waiting.delete(wake);
          resolve();
        };
        if (signal?.aborted) return resolve();
        waiting.add(wake);
        signal?.addEventListener("abort", wake, { once: true });
      }),
    advance(ms) {
      now += ms;
      for (const wake of [...waiting]) wake();
    },
    async sleepers(n = 1) {
      for (let i = 0; i < 500 && waiting.size < n; i++) await new Promise((r) => setTimeout(r, 10));
      if (waiting.size < n) throw new Error(`No hold went to sleep (${waiting.size} of ${n}).`);
    },
  };
}
