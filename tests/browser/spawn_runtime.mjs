/**
 * Starts `tests/browser/runtime.ts` in a child process and resolves with its
 * URL; `stop()` ends it. Plain JavaScript: the web-test-runner config uses it.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { tsArgs } from "../_ts_args.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * `stop()` asks the runtime to stop (SIGTERM, then SIGKILL after 5 s); `kill()` ends it at once
 * with SIGKILL, as a crash would, leaving whatever it held in the store. `env` adds variables.
 *
 * @param {{ port?: number, storeUrl?: string, timeout?: number, env?: Record<string, string> }} [options]
 * @returns {Promise<{ url: string, port: number, stop(): Promise<void>, kill(): Promise<void>, output(): string }>}
 */
export function spawnRuntime(options = {}) {
  const child = spawn(process.execPath, [...tsArgs(), "tests/browser/runtime.ts"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(options.port ?? 0),
      STORE__URL: options.storeUrl ?? "memory:",
      ...options.env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(
          `The test runtime did not start within ${options.timeout ?? 30_000} ms:\n${output}`,
        ),
      );
    }, options.timeout ?? 30_000);
    const exited = new Promise((r) => child.once("exit", r));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The test runtime exited with code ${code} before listening:\n${output}`));
    });
    const collect = (chunk) => {
      output += chunk.toString();
      const match = output.match(/TETHER_RUNTIME_URL=(\S+)/);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        port: Number(new URL(match[1]).port),
        output: () => output,
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill("SIGTERM");
          const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
          await exited;
          clearTimeout(killer);
        },
        async kill() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill("SIGKILL");
          await exited;
        },
      });
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", (chunk) => (output += chunk.toString()));
  });
}
