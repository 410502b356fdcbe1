/**
 * Starts the Deno Deploy entry under a real `deno serve` on an ephemeral
 * loopback port, with the offline model, Deno's own default KV in `denoDir`,
 * and `env` on top of this process's environment. Node only (it spawns the
 * `deno` devDependency's binary itself, so stopping the child stops the server).
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const deno = join(dirname(createRequire(import.meta.url).resolve("deno/bin.cjs")), "deno");

/**
 * Spawns `deno serve … server/runtime/deploy.ts`.
 *
 * @example
 * ```ts
 * const child = spawnDeploy(denoDir, { ACCESS__TOKEN: "long-random-secret" });
 * ```
 */
export function spawnDeploy(denoDir: string, env: Record<string, string>): ChildProcess {
  const all: Record<string, string | undefined> = {
    ...process.env,
    DENO_DIR: denoDir,
    MODEL__DEFAULT: "offline",
    STORE__URL: "",
    NO_COLOR: "1",
    ...env,
  };
  delete all.NODE_OPTIONS;
  const args = ["serve", "-A", "--unstable-kv", "--host", "127.0.0.1", "--port", "0"];
  return spawn(deno, [...args, "server/runtime/deploy.ts"], {
    cwd: root,
    env: all,
    stdio: ["ignore", "pipe", "pipe"],
  });
}
