/**
 * `npm run bench -- instructions`: the load bench's turns counted in
 * instructions rather than seconds. The CPU time `npm run bench -- load`
 * reads moves with whatever else the machine does (on a shared machine the
 * floor's own rounds spread by 2x in one run); an instruction count does not.
 * Each server of the load bench (the floor, the runtime on memory, the runtime
 * on its default Deno KV file) runs under valgrind's callgrind with
 * instrumentation off while the load process sends `INSTR_WARMUP` (15) rounds
 * of 400 first messages, 200 sessions at a time, as the load bench does; then
 * `callgrind_control` turns instrumentation on for `INSTR_ROUNDS` (2) rounds,
 * and the count is every thread's (V8's compiler and collector threads
 * included) divided by the turns answered, less what the server does by the
 * clock alone (`IDLE_MS`). One server at a time, since counts need no
 * alternation. It takes about two minutes a server. The table also gives the
 * share of V8's optimizing compilers, which moves most from run to run.
 *
 * An instruction is not a nanosecond: a cache miss, a page fault or a system
 * call (SQLite's writes to its log) costs time that no count holds, so this is
 * for finding and weighing a change, best two builds side by side (counts of
 * one build still spread: a Deno KV turn read 3.4 to 4.5 million instructions
 * in three runs), and `npm run bench -- load` stays the figure of record.
 * `INSTR_NODES` names the Node lines (`24` unless set; `this` for the running
 * one). Without valgrind (Debian's package), the part prints a NOTE.
 *
 * @module
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { table } from "./_stats.ts";
import { answerOf, compiled, lineBinary, lineReader, NODE_FLAGS, RUNNING } from "./load.ts";

const WARMUP = Number(process.env.INSTR_WARMUP ?? 15);
const ROUNDS = Number(process.env.INSTR_ROUNDS ?? 2);
const TURNS = 400;
/**
 * The idle window after the measured rounds. Under valgrind a turn takes fifty times as long, so
 * work the server does by the clock (a Deno KV file's holder lists the presence keys every
 * 50 ms) weighs fifty times as much against each turn as it does outside. What the server
 * counts over this window, per millisecond, times the measured rounds' milliseconds, is taken
 * off their count.
 */
const IDLE_MS = 3_000;
const SESSIONS = 200;
const TARGETS = [
  { target: "floor", label: "floor: Hono + one streamText" },
  { target: "memory", label: "Tether, memory" },
  { target: "denokv", label: "Tether, Deno KV file" },
];

/** Whether valgrind's callgrind can be run here. */
function haveCallgrind(): boolean {
  try {
    execFileSync("callgrind_control", ["--version"], { stdio: "ignore" });
    execFileSync("valgrind", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * V8's optimizing compilers at work on their own threads (TurboFan's and Maglev's jobs): the
 * part of a count that moves most from run to run, as functions reach their next tier when
 * they do.
 */
const COMPILERS =
  /OptimizingCompile\w*::CompileTask::Run\w*\(|MaglevConcurrentDispatcher::JobTask::Run\(/;

/** Inclusive instructions of the optimizing compilers' jobs in a callgrind file. */
function compilers(file: string): number {
  const annotated = execFileSync(
    "callgrind_annotate",
    ["--inclusive=yes", "--threshold=100", file],
    {
      encoding: "utf8",
      maxBuffer: 256 << 20,
    },
  );
  let total = 0;
  for (const line of annotated.split("\n")) {
    const m = /^\s*([\d,]+)\s/.exec(line);
    if (m && COMPILERS.test(line)) total += Number(m[1].replaceAll(",", ""));
  }
  return total;
}

/** Instructions per answered turn of one server on one Node binary, and its compilers' share. */
async function count(
  node: string,
  target: string,
  dir: string,
): Promise<{ all: number; compilers: number; clock: number }> {
  const out = join(dir, `${target}.callgrind`);
  const server = spawn("valgrind", [
    "--tool=callgrind",
    "--instr-atstart=no",
    // V8 writes and rewrites its machine code: valgrind must notice code that changed.
    "--smc-check=all-non-file",
    `--callgrind-out-file=${out}`,
    node,
    ...NODE_FLAGS,
    await compiled("./_load_server.ts"),
  ], {
    env: { ...process.env, LOAD_TARGET: target, LOAD_STORE_URL: join(dir, `${target}.db`) },
    stdio: ["pipe", "pipe", "ignore"],
  });
  const client = spawn(node, [await compiled("./_load_client.ts")], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  try {
    const { url } = await answerOf(lineReader(server), "the server") as { url: string };
    const answer = lineReader(client);
    const round = async () => {
      client.stdin!.write(`${JSON.stringify({ url, turns: TURNS, sessions: SESSIONS })}\n`);
      const result = await answerOf(answer, "the load process") as { error_count: number };
      return TURNS - result.error_count;
    };
    for (let i = 0; i < WARMUP; i++) await round();
    const pid = String(server.pid);
    const control = (arg: string) =>
      execFileSync("callgrind_control", [arg, pid], { stdio: "ignore" });
    control("--instr=on");
    let answered = 0;
    const started = performance.now();
    for (let i = 0; i < ROUNDS; i++) answered += await round();
    const loadedMs = performance.now() - started;
    control("--dump"); // <out>.1: the measured rounds (a dump zeroes the counts)
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    control("--dump"); // <out>.2: what the server does by the clock alone
    control("--instr=off");
    const totals = async (file: string) => {
      const text = await readFile(file, "utf8");
      return Math.max(0, ...[...text.matchAll(/^totals: (\d+)/gm)].map((m) => Number(m[1])));
    };
    const load = join(dir, `${target}.callgrind.1`);
    const idle = (await totals(join(dir, `${target}.callgrind.2`))) / IDLE_MS;
    return {
      all: ((await totals(load)) - idle * loadedMs) / answered,
      compilers: compilers(load) / answered,
      clock: idle * loadedMs / answered,
    };
  } finally {
    client.stdin!.end();
    server.stdin!.end();
    await new Promise((resolve) =>
      server.exitCode === null ? server.once("exit", resolve) : resolve(0)
    );
  }
}

export async function benchInstructions(): Promise<void> {
  if (!haveCallgrind()) {
    console.log("\nNOTE: instructions not counted: valgrind (Debian's package) is not installed");
    return;
  }
  for (const asked of (process.env.INSTR_NODES ?? "24").split(",").map((l) => l.trim())) {
    const node = lineBinary(asked === "this" ? RUNNING : Number(asked), "instructions not counted");
    if (node === null) continue;
    const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
    console.log(
      `\n## Instructions per turn on Node ${version}: the load bench's turns under callgrind (${ROUNDS} rounds of ${TURNS} after ${WARMUP}; Node flags: ${
        NODE_FLAGS.join(" ") || "none"
      })\n`,
    );
    const dir = await mkdtemp(join(tmpdir(), "tether-bench-instr-"));
    try {
      const rows: (string | number)[][] = [];
      let floor = { all: 0, compilers: 0, clock: 0 };
      const millions = (n: number) => `${(n / 1e6).toFixed(3)} M`;
      for (const { target, label } of TARGETS) {
        const n = await count(node, target, dir);
        if (target === "floor") floor = n;
        const rest = n.all - n.compilers;
        rows.push([
          label,
          millions(n.all),
          `${(n.all / floor.all).toFixed(2)}x`,
          millions(n.compilers),
          `${(rest / (floor.all - floor.compilers)).toFixed(2)}x`,
          millions(n.clock),
        ]);
      }
      table([
        "server",
        "instructions per turn",
        "ratio to the floor",
        "of them V8's optimizing compilers",
        "ratio without them",
        "taken off: work by the clock",
      ], rows);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
