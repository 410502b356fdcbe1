/**
 * The bounds of the second hardening round: every answer within 3 s, and
 * `/health` within 100 ms during every attack. Work the set-up left running
 * is let settle and `/health` is asked once before the attack, so neither
 * that nor a fresh connection's setup is counted as the attack's cost (a
 * test also warms the route it attacks: a process's first use of a code path
 * compiles it, once).
 *
 * @module
 */
import assert from "node:assert/strict";
import { ANSWER_BOUND_MS, measuredBound, underLoad, watchHealth } from "./_kit.ts";

/** `/health` answers within this many milliseconds while an attack runs. */
export const HEALTH_DURING_ATTACK_MS = 100;

/**
 * The bound this machine is held to now: 100 ms, widened by the load on the cores
 * (`underLoad()`).
 *
 * @example
 * ```ts
 * assert.ok(slowest < healthBound());
 * ```
 */
export function healthBound(): number {
  return underLoad(HEALTH_DURING_ATTACK_MS);
}

/**
 * Runs `attack` while `/health` is watched; asserts both bounds and resolves with what it returned.
 *
 * @example
 * ```ts
 * const res = await withinBounds(target.url, () => fetch(`${target.url}/api/sessions/x`));
 * ```
 */
export async function withinBounds<T>(url: string, attack: () => Promise<T>): Promise<T> {
  await new Promise((r) => setTimeout(r, 200));
  const bound = await measuredBound(url, HEALTH_DURING_ATTACK_MS);
  const health = watchHealth(url);
  const started = performance.now();
  let result: T;
  try {
    result = await attack();
  } finally {
    const slowest = await health();
    assert.ok(
      slowest < bound,
      `/health took ${slowest.toFixed(0)} ms during the attack`,
    );
  }
  const took = performance.now() - started;
  assert.ok(
    took < underLoad(ANSWER_BOUND_MS),
    `the attack was answered in ${took.toFixed(0)} ms`,
  );
  return result;
}
