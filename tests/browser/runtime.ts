/**
 * A real runtime for the browser tests: the offline model, a memory store
 * (or the Deno KV file in STORE__URL), on loopback. Prints
 * `TETHER_RUNTIME_URL=<url>` once it listens; exits when its stdin closes
 * (so it never outlives the test run that spawned it) or on SIGTERM.
 *
 * Run: `node --import tsx tests/browser/runtime.ts` (PORT=0 picks a free port).
 *
 * @module
 */
import process from "node:process";
import { startNode } from "../../server/runtime/node.ts";

const runtime = await startNode({
  port: Number(process.env.PORT ?? 0),
  hostname: "127.0.0.1",
  env: {
    STORE__URL: process.env.STORE__URL ?? "memory:",
    MODEL__DEFAULT: "offline",
  },
});
console.log(`TETHER_RUNTIME_URL=${runtime.url}`);

let closing = false;
const stop = async () => {
  if (closing) return;
  closing = true;
  await Promise.race([runtime.close(), new Promise((resolve) => setTimeout(resolve, 3_000))]);
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
process.stdin.on("end", stop);
process.stdin.on("close", stop);
process.stdin.resume();
