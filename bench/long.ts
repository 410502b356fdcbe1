/**
 * `npm run bench -- long`: whether a turn's cost grows with the session's
 * length. One session of `LONG_TURNS` (200) turns, each a first message that
 * pends a host call (`select_issue`) and its continuation, driven in-process
 * through the real app (`app.request`) with the load bench's model, on the
 * memory store and on a Deno KV file. For turns 2-11 and the last ten it
 * prints the process's CPU (user+system) per turn, the ratio of the two
 * (target: 1.2x at most), and what the store was asked per turn: reads
 * (`get`, `getMany` keys, `list` calls and the entries they answered),
 * commits and bytes written. Counts are exact where times are noisy, so a
 * growing count points at the cause. `LONG_WARM` (2) sessions run first so
 * the JIT has settled; `LONG_RUNS` (5) measured sessions each, and the
 * ratio is of the least early window to the least late one over them (each
 * session's own ratio in brackets; the store counts are the first session's). `LONG_PROF=<dir>` writes a CPU profile of the
 * first measured session's early and late turns.
 *
 * @module
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { denoKvStore } from "../server/kv/denokv.ts";
import { memoryStore } from "../server/kv/memory.ts";
import type { Store } from "../server/kv/store.ts";
import { harness, ISSUE_CONTEXT } from "../server/testing/harness.ts";
import { loadModel } from "./_load_model.ts";
import { table } from "./_stats.ts";

const TURNS = Number(process.env.LONG_TURNS ?? 200);
const WARM = Number(process.env.LONG_WARM ?? 2);
const RUNS = Number(process.env.LONG_RUNS ?? 5);

/** What the store was asked, summed. */
export interface Ops {
  gets: number;
  keysRead: number;
  lists: number;
  listed: number;
  commits: number;
  keysWritten: number;
  bytes: number;
}

export const zero = (): Ops => ({
  gets: 0,
  keysRead: 0,
  lists: 0,
  listed: 0,
  commits: 0,
  keysWritten: 0,
  bytes: 0,
});

/** The store, counting what it is asked into `ops`. */
export function counted(store: Store, ops: Ops): Store {
  const size = (value: unknown) => value === undefined ? 0 : JSON.stringify(value).length;
  const writes = (mutations: readonly { value?: unknown }[]) => {
    ops.commits++;
    ops.keysWritten += mutations.length;
    for (const m of mutations) ops.bytes += size(m.value);
  };
  const own: Record<string, unknown> = {
    get: (key: never) => {
      ops.gets++;
      ops.keysRead++;
      return store.get(key);
    },
    getMany: (keys: never[]) => {
      ops.gets++;
      ops.keysRead += keys.length;
      return store.getMany(keys);
    },
    list: async (prefix: never, options: never) => {
      const out = await store.list(prefix, options);
      ops.lists++;
      ops.listed += out.length;
      return out;
    },
    set: (key: never, value: unknown, options: never) => {
      writes([{ value }]);
      return store.set(key, value, options);
    },
    atomic: (checks: never, mutations: { value?: unknown }[]) => {
      writes(mutations);
      return store.atomic(checks, mutations as never);
    },
    commit: (checks: never, mutations: { value?: unknown }[]) => {
      writes(mutations);
      return store.commit(checks, mutations as never);
    },
  };
  return new Proxy(store, {
    get(target, prop) {
      if (typeof prop === "string" && prop in own) return own[prop];
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** One window of turns: CPU ms and store ops, summed. */
interface Window {
  ms: number;
  ops: Ops;
}

async function measureStore(label: string, store: Store): Promise<string[]> {
  const ops = zero();
  const h = harness({
    store: counted(store, ops),
    model: loadModel("long"),
    modelName: "scripted",
  });
  const profiler = process.env.LONG_PROF ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post("Profiler.enable");
    // Ten turns are a few milliseconds of CPU: sample every 50 µs, not every millisecond.
    await profiler.post("Profiler.setSamplingInterval", { interval: 50 });
    await mkdir(process.env.LONG_PROF!, { recursive: true });
  }
  const early = { from: 2, to: 11 };
  const late = { from: TURNS - 9, to: TURNS };
  const session = async (id: string, profile: boolean) => {
    const windows = { early: { ms: 0, ops: zero() }, late: { ms: 0, ops: zero() } };
    for (let t = 1; t <= TURNS; t++) {
      const window = t >= early.from && t <= early.to
        ? windows.early
        : t >= late.from && t <= late.to
        ? windows.late
        : undefined;
      if (profile && (t === early.from || t === late.from)) await profiler!.post("Profiler.start");
      const before = { ...ops };
      const c0 = cpu();
      const a = await h.chat({
        session_id: id,
        content: "select issue 42",
        host_context: ISSUE_CONTEXT,
      });
      const callId = a.body.pending_tool_call?.call_id;
      if (!callId) throw new Error(`turn ${t}: ${JSON.stringify(a.body).slice(0, 300)}`);
      const b = await h.chat({
        session_id: id,
        content: "",
        tool_call_id: callId,
        tool_result: { ok: true },
      });
      if (b.status !== 200) throw new Error(`turn ${t}: ${JSON.stringify(b.body).slice(0, 300)}`);
      if (window) {
        window.ms += cpu() - c0;
        for (const k of Object.keys(ops) as (keyof Ops)[]) window.ops[k] += ops[k] - before[k];
      }
      if (profile && (t === early.to || t === late.to)) {
        const { profile: p } = await profiler!.post("Profiler.stop");
        const file = join(
          process.env.LONG_PROF!,
          `${label.replace(/\W+/g, "-")}-${t === early.to ? "early" : "late"}.cpuprofile`,
        );
        await writeFile(file, JSON.stringify(p));
      }
    }
    return windows;
  };
  try {
    for (let w = 0; w < WARM; w++) await session(`warm-${w}`, false);
    const runs: { early: Window; late: Window }[] = [];
    for (let r = 0; r < RUNS; r++) runs.push(await session(`long-${r}`, r === 0 && !!profiler));
    // The least window of each kind over the sessions, as the load bench takes the least round:
    // ten turns are a few milliseconds of CPU, and one collection in them moves a window by half.
    const least = (kind: "early" | "late") => Math.min(...runs.map((r) => r[kind].ms));
    const ratio = least("late") / least("early");
    const ratios = runs.map((r) => r.late.ms / r.early.ms);
    const per = (w: Window, k: keyof Ops) => (w.ops[k] / 10).toFixed(k === "bytes" ? 0 : 1);
    const shown = (w: Window) =>
      `${per(w, "keysRead")} keys in ${per(w, "gets")} reads, ${per(w, "lists")} lists of ${
        per(w, "listed")
      }, ${per(w, "commits")} commits of ${per(w, "keysWritten")} keys, ${per(w, "bytes")} B`;
    const { early: e, late: l } = runs[0];
    return [
      label,
      `${(least("early") / 10).toFixed(2)} ms`,
      `${(least("late") / 10).toFixed(2)} ms`,
      `${ratio.toFixed(2)}x (${ratios.map((r) => r.toFixed(2)).join(", ")})`,
      shown(e),
      shown(l),
    ];
  } finally {
    profiler?.disconnect();
    await h.close();
  }
}

/**
 * Prints the long-session table: CPU per turn early and late, their ratio, store ops per turn.
 *
 * @example
 * ```ts
 * await benchLong();
 * ```
 */
export async function benchLong(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "tether-bench-long-"));
  const rows: string[][] = [];
  const wanted = (process.env.LONG_STORES ?? "memory,denokv").split(",");
  try {
    if (wanted.includes("memory")) rows.push(await measureStore("memory", memoryStore()));
    if (wanted.includes("denokv")) {
      rows.push(await measureStore("Deno KV file", await denoKvStore(join(dir, "long.db"))));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  console.log(
    `\n## Long sessions: one session of ${TURNS} turns (a host call and its continuation each), ` +
      `CPU per turn, turns 2-11 against ${
        TURNS - 9
      }-${TURNS} (median of ${RUNS} sessions after ${WARM})\n`,
  );
  table([
    "store",
    "turns 2-11",
    `turns ${TURNS - 9}-${TURNS}`,
    "ratio (each session)",
    "store per turn, 2-11",
    `store per turn, ${TURNS - 9}-${TURNS}`,
  ], rows);
}

if (import.meta.main ?? process.argv[1]?.endsWith("long.ts")) await benchLong();
