/**
 * The Deno Deploy entry (`server/runtime/deploy.ts`) under a real
 * `deno serve` on an ephemeral loopback port, for tests that run it as the
 * platform would: one process, several on one Deno KV file, or
 * `deno serve --parallel` (several isolates in one process). Node only: it
 * spawns Deno from the `deno` devDependency.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
// The binary itself, not the npm wrapper, so stopping the child stops the server.
const deno = join(dirname(createRequire(import.meta.url).resolve("deno/bin.cjs")), "deno");

/**
 * A running `deno serve` of the Deploy entry.
 *
 * @example
 * ```ts
 * const served: DenoServe = await denoServe({ STORE__URL: "denokv:/tmp/kv.db" });
 * await served.stop();
 * ```
 */
export interface DenoServe {
  url: string;
  /** Everything it wrote so far, stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `deno serve` of the Deploy entry with `env` added to this process's environment;
 * `parallel` runs that many isolates (`--parallel` with `DENO_JOBS`). Resolves once every
 * isolate said it serves.
 *
 * @example
 * ```ts
 * const served = await denoServe({ DENO_DIR: dir, ACCESS__TOKEN: "t" }, 2);
 * ```
 */
export function denoServe(env: Record<string, string>, parallel = 0): Promise<DenoServe> {
  const full: Record<string, string | undefined> = {
    ...process.env,
    MODEL__DEFAULT: "offline",
    NO_COLOR: "1",
    ...env,
    ...(parallel ? { DENO_JOBS: String(parallel) } : {}),
  };
  delete full.NODE_OPTIONS;
  const args = ["serve", "-A", "--unstable-kv", "--host", "127.0.0.1", "--port", "0"];
  if (parallel) args.push("--parallel");
  const child: ChildProcess = spawn(deno, [...args, "server/runtime/deploy.ts"], {
    cwd: root,
    env: full,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    // deno serve drains open connections on SIGTERM; do not wait for keep-alive ones.
    const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
    await exited;
    clearTimeout(timer);
  };
  process.once("exit", () => child.kill("SIGKILL"));
  return new Promise<DenoServe>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`deno serve did not start within 60 s:\n${output}`));
    }, 60_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const found = /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      const serving = output.split("\n").filter((l) => l.includes("tether: serving")).length;
      if (found && serving >= Math.max(1, parallel)) {
        clearTimeout(timer);
        resolve({ url: found[1], output: () => output, stop });
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`deno serve exited (${code}):\n${output}`));
    });
  });
}
