// How many Tokio workers `@deno/kv`'s add-on runs once the store has loaded it (on Node 20; later
// lines open the file through node:sqlite) and opened a file, counted in a process of its own
// (the add-on makes its runtime once per process, when it loads).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const MODULE = fileURLToPath(new URL("./_denokv.ts", import.meta.url));

const SCRIPT = `
import { readdirSync, readFileSync } from "node:fs";
const { importDenoKv } = await import(${JSON.stringify(MODULE)});
const { openKv } = await importDenoKv();
const kv = await openKv(process.argv[1]);
await kv.get(["x"]);
const names = readdirSync("/proc/self/task")
  .map((t) => readFileSync("/proc/self/task/" + t + "/comm", "utf8").trim());
console.log(JSON.stringify({
  workers: names.filter((n) => n.startsWith("tokio-rt-worker")).length,
  env: process.env.TOKIO_WORKER_THREADS ?? null,
}));
kv.close();
`;

/** Opens a store's file in a new process with `env`; what that process saw. */
async function opened(
  env: Record<string, string>,
): Promise<{ workers: number; env: string | null }> {
  const dir = await mkdtemp(join(tmpdir(), "tether-tokio-"));
  try {
    const stdout = await new Promise<string>((resolve, reject) => {
      const { TOKIO_WORKER_THREADS: _, ...rest } = process.env;
      execFile(
        process.execPath,
        [...process.execArgv, "--input-type=module", "-e", SCRIPT, join(dir, "store.db")],
        { env: { ...rest, ...env } },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      );
    });
    return JSON.parse(stdout.trim().split("\n").at(-1)!);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const linux = process.platform === "linux";

test("the add-on runs one Tokio worker, and the variable that says so is gone once it has loaded", {
  skip: !linux && "threads are counted in /proc (Linux)",
}, async () => {
  assert.deepEqual(await opened({}), { workers: 1, env: null });
});

test("a TOKIO_WORKER_THREADS the process was given is kept, and used", {
  skip: !linux && "threads are counted in /proc (Linux)",
}, async () => {
  assert.deepEqual(await opened({ TOKIO_WORKER_THREADS: "2" }), { workers: 2, env: "2" });
});
