/**
 * Starts and stops runtime processes (`_process.ts`) that share one store.
 * Every process started here is remembered and killed by `stopAll()`, and by
 * this process's exit, so a failing test never leaves one behind.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { tsArgs } from "../_ts_args.mjs";

const ENTRY = fileURLToPath(new URL("./_process.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const STARTUP_MS = 30_000;

/**
 * A running runtime process.
 *
 * @example
 * ```ts
 * const a: Proc = await startProcess("A", env);
 * await a.kill("SIGKILL");
 * ```
 */
export interface Proc {
  name: string;
  url: string;
  pid: number;
  child: ChildProcess;
  /** What the process wrote on stderr so far (for failure messages). */
  log(): string;
  /** Sends a signal and resolves once the process exited. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const running = new Set<Proc>();

process.on("exit", () => {
  for (const p of running) p.child.kill("SIGKILL");
});

/**
 * Starts one runtime process with `env` added to this process's environment; resolves once it listens.
 * `entry` is the script to run (default `_process.ts`); it prints the same JSON line.
 *
 * @example
 * ```ts
 * const a = await startProcess("A", { STORE__URL: url, TEST_STORE_NAMESPACE: ns, TEST_SCRIPT: "pend" });
 * ```
 */
export function startProcess(
  name: string,
  env: Record<string, string>,
  entry: string = ENTRY,
): Promise<Proc> {
  const child = spawn(process.execPath, [...tsArgs(), entry], {
    cwd: ROOT,
    env: { ...process.env, ...env, TEST_NAME: name },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr = (stderr + chunk).slice(-8_000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const proc = { name, child, log: () => stderr, url: "", pid: child.pid ?? 0 } as Proc;
  proc.kill = async (signal = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      const hard = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(hard);
    }
    running.delete(proc);
  };
  running.add(proc);
  return new Promise<Proc>((resolve, reject) => {
    let stdout = "";
    const fail = (why: string) => {
      clearTimeout(timer);
      void proc.kill("SIGKILL");
      reject(new Error(`Runtime process ${name} ${why}.\n--- its stderr ---\n${stderr}`));
    };
    const timer = setTimeout(() => fail(`did not start within ${STARTUP_MS} ms`), STARTUP_MS);
    const early = (code: number | null, signal: string | null) =>
      fail(`exited before listening (code ${code}, signal ${signal})`);
    child.once("exit", early);
    child.stdout!.on("data", (chunk) => {
      stdout += chunk;
      const line = stdout.split("\n").find((l) => l.startsWith("{"));
      if (!line || proc.url) return;
      const info = JSON.parse(line) as { url: string; pid: number };
      clearTimeout(timer);
      child.removeListener("exit", early);
      proc.url = info.url;
      resolve(proc);
    });
  });
}

/**
 * Starts several processes with the same environment, named A, B, C…
 *
 * @example
 * ```ts
 * const [a, b] = await startCluster(2, { STORE__URL: url, TEST_STORE_NAMESPACE: ns });
 * ```
 */
export async function startCluster(count: number, env: Record<string, string>): Promise<Proc[]> {
  const names = Array.from({ length: count }, (_, i) => String.fromCharCode(65 + i));
  const settled = await Promise.allSettled(names.map((n) => startProcess(n, env)));
  const failed = settled.find((s) => s.status === "rejected");
  if (failed) {
    await stopAll();
    throw (failed as PromiseRejectedResult).reason;
  }
  return settled.map((s) => (s as PromiseFulfilledResult<Proc>).value);
}

/**
 * Stops every process started here that is still running.
 *
 * @example
 * ```ts
 * after(stopAll);
 * ```
 */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.kill()));
}
