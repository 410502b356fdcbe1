/**
 * One runtime process for the multi-process tests: `startNode()` on a free
 * loopback port with a scripted model (`TEST_SCRIPT`: pend or slow) and the
 * never-finishing `wait_forever` backend tool. The store comes from
 * `STORE__URL`, inside `TEST_STORE_NAMESPACE` when set. Prints
 * `{"url", "pid", "name"}` as one JSON line on stdout once it listens, and
 * exits on SIGTERM or SIGINT.
 *
 * Run: `node --import tsx tests/multiprocess/_process.ts`.
 *
 * @module
 */
import process from "node:process";
import { startNode } from "../../server/runtime/node.ts";
import { modelFor, waitForever } from "./_scripts.ts";
import { openStore } from "./_stores.ts";

const env = { ...process.env } as Record<string, string | undefined>;
const name = env.TEST_NAME ?? `p${process.pid}`;
const url = env.STORE__URL;
if (!url) throw new Error("STORE__URL is not set; the multi-process runtime needs a shared store.");

const started = await startNode({
  port: 0,
  env,
  store: await openStore(url, env.TEST_STORE_NAMESPACE || undefined),
  model: modelFor(env.TEST_SCRIPT ?? "pend", name, Number(env.TEST_DELAY_MS ?? 150)),
  modelName: "scripted",
  backendTools: [waitForever],
  warn: (message) => console.error(`[${name}] ${message}`),
});
console.log(JSON.stringify({ url: started.url, pid: process.pid, name }));

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  // A stuck close must not keep the process alive: the parent waits for the exit.
  setTimeout(() => process.exit(1), 3_000).unref();
  await started.close().catch((error) => console.error(`[${name}] close failed: ${error}`));
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
// The parent died without killing us: stdin closes, and we leave too.
process.stdin.on("end", stop);
process.stdin.resume();
