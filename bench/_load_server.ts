/**
 * One server process of `npm run bench -- load`: the floor
 * (`LOAD_TARGET=floor`) or the runtime over one store (`memory`, `denokv`,
 * `redis`, `postgres`), with the scripted model of `_load_model.ts` (a first
 * message pends `select_issue`). Prints `{"url", "pid"}` as one JSON line once it listens.
 *
 * Its stdin is a small debug channel: the line `cpu` answers
 * `{"cpu": <user+system µs of this process>, "threads": {...}, "faults": n}`
 * (the same time by thread group, `_threads.ts`, and the minor page faults
 * so far), so the bench reads the server's own CPU time around each round;
 * `profile` starts a CPU profile and allocation sampling, `profile-to <file>`
 * writes them (the allocations beside it, as `.heapprofile`); stdin closing
 * stops the process.
 *
 * Variables: `LOAD_TARGET`, `LOAD_FLOOR_YIELDS` (the floor gives the event loop back that many
 * times a request), `LOAD_STORE_URL` (Deno KV path, or the Redis or
 * Postgres URL), `LOAD_NAMESPACE` (Redis namespace or Postgres table).
 *
 * @module
 */
import process from "node:process";
import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { loadModel } from "./_load_model.ts";
import { startFloor } from "./_load_floor.ts";
import { threadTimes } from "./_threads.ts";

const target = process.env.LOAD_TARGET ?? "memory";
const storeUrl = process.env.LOAD_STORE_URL ?? "";
const namespace = process.env.LOAD_NAMESPACE || undefined;

async function start(): Promise<{ url: string; close(): Promise<void> }> {
  const model = loadModel("load");
  if (target === "floor") {
    return await startFloor(model, Number(process.env.LOAD_FLOOR_YIELDS ?? 0));
  }
  const { startNode } = await import("../server/runtime/node.ts");
  const { openStore } = await import("../tests/multiprocess/_stores.ts");
  const store = target === "memory"
    ? (await import("../server/kv/memory.ts")).memoryStore()
    : target === "denokv"
    ? await (await import("../server/kv/denokv.ts")).denoKvStore(storeUrl)
    : await openStore(storeUrl, namespace);
  return await startNode({
    port: 0,
    env: {},
    store,
    model,
    modelName: "scripted",
    warn: (message) => console.error(`[load ${target}] ${message}`),
  });
}

const server = await start();
console.log(JSON.stringify({ url: server.url, pid: process.pid }));

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(1), 3_000).unref();
  await server.close().catch((error) => console.error(`[load ${target}] close: ${error}`));
  process.exit(0);
};
/** How long the event loop was held up between two `cpu` lines (sampled every 10 ms). */
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const profiler = new Session();
/** Whether a profile samples allocations too (`LOAD_PROF_ALLOCATIONS=0`: the CPU profile alone, undisturbed). */
const allocations = process.env.LOAD_PROF_ALLOCATIONS !== "0";
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const order = line.trim();
  if (order === "cpu") {
    const { user, system } = process.cpuUsage();
    const faults = process.resourceUsage().minorPageFault;
    const held = delay.max / 1e6;
    delay.reset();
    console.log(JSON.stringify({ cpu: user + system, threads: threadTimes(), faults, held }));
  } else if (order === "profile") {
    startProfile().then(() => console.log("{}"));
  } else if (order.startsWith("profile-to ")) {
    writeProfile(order.slice(11)).then(
      () => console.log(JSON.stringify({ error: null })),
      (error) => console.log(JSON.stringify({ error: String(error) })),
    );
  }
});

async function startProfile(): Promise<void> {
  profiler.connect();
  await profiler.post("Profiler.enable");
  // Sampled every 100 µs (V8's default is 1 ms): a turn costs well under a millisecond, so
  // the default sees a function only when it takes a noticeable share of all turns together.
  await profiler.post("Profiler.setSamplingInterval", { interval: 100 });
  await profiler.post("Profiler.start");
  if (!allocations) return;
  await profiler.post("HeapProfiler.startSampling", {
    samplingInterval: 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
}

/** The CPU profile to `file`, the sampled allocations to `file` without .cpuprofile, .heapprofile. */
async function writeProfile(file: string): Promise<void> {
  const { profile } = await profiler.post("Profiler.stop");
  await writeFile(file, JSON.stringify(profile));
  if (!allocations) return;
  const heap = await profiler.post("HeapProfiler.stopSampling");
  await writeFile(file.replace(/\.cpuprofile$/, ".heapprofile"), JSON.stringify(heap.profile));
}
lines.on("close", stop);
process.on("SIGTERM", stop);
