/**
 * Small helpers for benchmarks: timing loops and percentiles.
 *
 * @module
 */

/** Percentile (0..100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

/** Runs `fn` `warmup + n` times and returns the last `n` durations in ms. */
export async function timeIt(
  n: number,
  fn: (i: number) => Promise<unknown>,
  warmup = Math.min(50, n),
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

/** Formats ms with 3 decimals. */
export const ms = (v: number) => `${v.toFixed(3)} ms`;

/** Prints a Markdown table. */
export function table(header: string[], rows: (string | number)[][]): void {
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
}
