/**
 * Where a process's CPU time went, by thread, for `npm run bench -- load`
 * (Linux only: it reads `/proc/self/task`). Node's threads fall into three
 * groups: the main thread (JavaScript, and what runs on it), the threads
 * Node names after itself (V8's platform workers: concurrent compilation,
 * marking, sweeping and scavenging; and libuv's pool), and every other named
 * thread, a native add-on's (Deno KV's `tokio-rt-worker` and SQLite `sw-0`).
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import process from "node:process";

/** CPU microseconds by thread group, `{}` where `/proc` is not there to read. */
export type ThreadTimes = Record<string, number>;

/** Microseconds in one clock tick of `/proc/<pid>/stat` (USER_HZ is 100 on Linux). */
const TICK_US = 10_000;

/**
 * One thread's CPU time so far in µs: from `schedstat` (nanoseconds on the CPU, where the
 * kernel keeps it), else from `stat`'s user and system ticks (10 ms each, too coarse to tell
 * 0.02 ms a turn apart over a round of 400 turns).
 */
function taskMicros(task: string): number {
  try {
    const ns = Number(readFileSync(`/proc/self/task/${task}/schedstat`, "utf8").split(" ")[0]);
    if (Number.isFinite(ns)) return ns / 1000;
  } catch {
    // No schedstat in this kernel: the ticks below.
  }
  // The fields after the command: state is [0], utime [11] and stime [12].
  const fields = readFileSync(`/proc/self/task/${task}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

/**
 * The CPU time of this process's threads so far, grouped: `main`, `node workers`, and the
 * other threads by name.
 *
 * @example
 * ```ts
 * const before = threadTimes();
 * // ... a round ...
 * const after = threadTimes(); // after.main - before.main: the main thread's µs in the round
 * ```
 */
export function threadTimes(): ThreadTimes {
  const times: ThreadTimes = {};
  let tasks: string[];
  try {
    tasks = readdirSync("/proc/self/task");
  } catch {
    return times;
  }
  for (const task of tasks) {
    try {
      const name = readFileSync(`/proc/self/task/${task}/comm`, "utf8").trim();
      const group = Number(task) === process.pid
        ? "main"
        : name === "node"
        ? "node workers"
        : name.replace(/-\d+$/, "");
      times[group] = (times[group] ?? 0) + taskMicros(task);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return times;
}
