// deno-lint-ignore-file no-explicit-any -- wire payloads are read field by field
/**
 * The hostile-input kit: a real runtime on loopback (node:http with
 * Socket.IO, memory store, offline model) whose log lines are captured, a
 * watcher that keeps asking `/health` while an attack runs, and the bounds
 * every answer is held to.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import process from "node:process";
import { runtime, type TestRuntime } from "../../server/transports/_test_kit.ts";

/** Every hostile request is answered within this many milliseconds. */
export const ANSWER_BOUND_MS = 3_000;
/** `/health` answers within this many milliseconds while an attack runs. */
export const HEALTH_BOUND_MS = 2_000;
/**
 * The stricter bound of issue 25's attacks: no request blocks the event loop this long. It is
 * read as processor time: the most the event loop's thread ran between two ticks of a 10 ms
 * timer while the attack ran. Wall time on these shared cores grows with every other process's
 * load (a 30 ms slice can take 200 ms to run), processor time only with the work the attack
 * made.
 */
export const EVENT_LOOP_BOUND_MS = 100;

/**
 * `bound` (ms of wall time) on this machine now: times how many runnable processes wait for each
 * core when there are more of them than cores (the wait for a core is not the runtime's doing).
 * Said once per bound when it is widened, so a loaded run does not pass silently.
 *
 * @example
 * ```ts
 * assert.ok(slowest < underLoad(HEALTH_BOUND_MS));
 * ```
 */
export function underLoad(bound: number): number {
  const queue = loadavg()[0] / availableParallelism();
  if (queue <= 1) return bound;
  const widened = Math.round(bound * queue);
  if (!widenedOnce.has(bound)) {
    widenedOnce.add(bound);
    console.log(
      `NOTE: a ${bound} ms bound widened to ${widened} ms: load ${queue.toFixed(1)} per core`,
    );
  }
  return widened;
}
const widenedOnce = new Set<number>();

/** A runtime under attack, with its log lines. */
export interface Target extends TestRuntime {
  logs: string[];
}

/**
 * Starts a runtime on a free loopback port; `env` adds `SECTION__KEY` settings.
 *
 * @example
 * ```ts
 * const target = await startTarget({ LIMITS__BODY_TIMEOUT_MS: "1000" });
 * ```
 */
export async function startTarget(
  env: Record<string, string> = {},
  options: Omit<Parameters<typeof runtime>[0] & object, "env" | "warn"> = {},
): Promise<Target> {
  const logs: string[] = [];
  const rt = await runtime({ ...options, env, warn: (line) => logs.push(line) });
  return Object.assign(rt, { logs });
}

/**
 * Runs a few ordinary turns (one calling a page action) on throwaway sessions, so the modules a
 * runtime imports on its first turns are loaded and compiled before an attack is timed against
 * EVENT_LOOP_BOUND_MS.
 *
 * @example
 * ```ts
 * await warmUp(target);
 * ```
 */
export async function warmUp(target: Target): Promise<void> {
  const host_context = {
    version: 1,
    actions: [action({ type: "object", properties: { name: { type: "string" } } })],
  };
  for (let i = 0; i < 4; i++) {
    const session_id = `warm-up-${crypto.randomUUID()}`;
    const res = await post(target.url, "/api/chat", {
      session_id,
      content: 'check name "Ada"',
      host_context,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
    await fetch(`${target.url}/api/sessions/${session_id}`, { method: "DELETE" }).then((r) =>
      r.body?.cancel()
    );
  }
}

/**
 * Polls `/health` one request at a time until stopped; resolves with the slowest answer in ms.
 *
 * @example
 * ```ts
 * const stop = watchHealth(url);
 * await attack();
 * assert.ok((await stop()) < HEALTH_BOUND_MS);
 * ```
 */
export function watchHealth(url: string): () => Promise<number> {
  let running = true;
  let slowest = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${url}/health`);
      await res.body?.cancel();
      assert.equal(res.status, 200);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return slowest;
  };
}

/**
 * `bound` (ms), or more when this machine is slow to answer `/health` right now, before any
 * attack: four times the slowest of five requests, one after another. The attack's own effect
 * on a responsive loop is what the bound is for; a machine that takes 300 ms to schedule a
 * process (seen with a load of 7 per core) says nothing about it. Said when widened.
 *
 * @example
 * ```ts
 * const bound = await measuredBound(target.url, HEALTH_BOUND_MS);
 * ```
 */
export async function measuredBound(url: string, bound: number): Promise<number> {
  let slowest = 0;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await (await fetch(`${url}/health`)).body?.cancel();
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((r) => setTimeout(r, 20));
  }
  const widened = Math.max(underLoad(bound), Math.round(4 * slowest));
  if (widened > bound) {
    console.log(
      `NOTE: /health bound ${bound} ms taken as ${widened} ms: /health took up to ${
        slowest.toFixed(0)
      } ms before the attack`,
    );
  }
  return widened;
}

/**
 * The processor time (µs) the calling thread has run: the event loop's own time, not the
 * collector's or the thread pool's. `process.threadCpuUsage()` where Node has it (22 and
 * later); on Node 20, `/proc/thread-self/stat` (in 10 ms ticks); elsewhere the whole
 * process's time, which counts every thread.
 */
function threadCpu(): number {
  const own = (process as { threadCpuUsage?: () => { user: number; system: number } })
    .threadCpuUsage;
  if (own) {
    const { user, system } = own();
    return user + system;
  }
  try {
    const stat = readFileSync("/proc/thread-self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    const { user, system } = process.cpuUsage();
    return user + system;
  }
}

/**
 * Watches the event loop with a 10 ms timer until stopped; returns the most processor time (ms)
 * the event loop's thread ran between two ticks, which is how long the loop was held at once.
 * Other threads (the collector marking in the background, the thread pool) are not counted: a
 * loaded machine runs them longer, and they hold nothing.
 *
 * @example
 * ```ts
 * const stop = watchLoop();
 * await attack();
 * assert.ok(stop() < EVENT_LOOP_BOUND_MS);
 * ```
 */
export function watchLoop(): () => number {
  let last = threadCpu();
  let longest = 0;
  const tick = () => {
    const now = threadCpu();
    longest = Math.max(longest, (now - last) / 1_000);
    last = now;
  };
  const timer = setInterval(tick, 10);
  return () => {
    clearInterval(timer);
    tick();
    return longest;
  };
}

/**
 * Runs `attack` while `/health` is watched; checks both bounds and that the process still answers,
 * and with `eventLoop` that no stretch of the attack held the loop for EVENT_LOOP_BOUND_MS.
 * Resolves with what the attack returned.
 *
 * @example
 * ```ts
 * const res = await underAttack(target, () => postChat(target.url, body));
 * ```
 */
export async function underAttack<T>(
  target: Target,
  attack: () => Promise<T>,
  bounds: { eventLoop?: boolean } = {},
): Promise<T> {
  const healthBound = await measuredBound(target.url, HEALTH_BOUND_MS);
  const stop = watchHealth(target.url);
  const loop = bounds.eventLoop ? watchLoop() : undefined;
  const started = performance.now();
  let result: T;
  try {
    result = await attack();
  } finally {
    const slowest = await stop();
    const stall = loop?.() ?? 0;
    assert.ok(
      slowest < healthBound,
      `/health took ${slowest.toFixed(0)} ms during the attack`,
    );
    assert.ok(
      stall < EVENT_LOOP_BOUND_MS,
      `the event loop was held for ${stall.toFixed(0)} ms of processor time during the attack`,
    );
  }
  const took = performance.now() - started;
  assert.ok(took < underLoad(ANSWER_BOUND_MS), `the attack was answered in ${took.toFixed(0)} ms`);
  return result;
}

/**
 * POSTs JSON (or raw text) to a path; resolves with the status and the parsed body.
 *
 * @example
 * ```ts
 * const { status, body } = await post(url, "/api/chat", { session_id: "s", content: "hi" });
 * ```
 */
export async function post(
  url: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Left as text: the assertion shows it.
  }
  return { status: res.status, body: parsed };
}

/**
 * JSON text of `leaf` inside `levels` objects under `key`. Built as text: a
 * client's own JSON.stringify would overflow its stack on such a value.
 *
 * @example
 * ```ts
 * nest(3, "a", "1"); // '{"a":{"a":{"a":1}}}'
 * ```
 */
export function nest(levels: number, key: string, leaf: string): string {
  return `{${JSON.stringify(key)}:`.repeat(levels) + leaf + "}".repeat(levels);
}

/**
 * JSON text of `template` with `"@@"` replaced by raw JSON text (a deeply nested part).
 *
 * @example
 * ```ts
 * splice({ session_id: "s", host_context: "@@" }, nest(5_000, "a", "1"));
 * ```
 */
export function splice(template: unknown, raw: string): string {
  return JSON.stringify(template).replace('"@@"', raw);
}

/**
 * Asserts a refusal: a 4xx whose issues (or message) name `field`.
 *
 * @example
 * ```ts
 * assertRefused(res, 422, "session_id");
 * ```
 */
export function assertRefused(res: { status: number; body: any }, status: number, field: string) {
  assert.equal(res.status, status, JSON.stringify(res.body).slice(0, 400));
  const named = JSON.stringify(res.body?.error ?? res.body);
  assert.ok(named.includes(field), `the refusal names ${field}: ${named.slice(0, 400)}`);
}

/** The action of the contract's example, with `parameters` replaced. */
export const action = (parameters: unknown, name = "check_name") => ({
  name,
  description: "An action whose schema comes from a hostile page.",
  parameters,
});
