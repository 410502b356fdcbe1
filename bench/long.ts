/**
 * `npm run bench -- long`: whether a turn's cost grows with the session's
 * length. Sessions of `LONG_TURNS` (200) turns, each a first message that
 * pends a host call (`select_issue`) and its continuation, driven in-process
 * through the real app (`app.request`) with the load bench's model, on the
 * memory store and on a Deno KV file. It compares turns 2-11 with the last
 * ten, in `LONG_RUNS` (10) pairs of sessions: a young one and one made up to
 * its last ten turns, whose measured turns alternate (young, old, young, ...),
 * so the machine's drift and noise fall on both windows alike. It prints the
 * process's CPU (user+system) per turn in each window over all pairs, their
 * ratio (target: 1.2x at most; each pair's own in brackets), and what the
 * store was asked per turn: reads (`get`, `getMany` keys, `list` calls and
 * the entries they answered), commits and bytes written (the first pair's).
 * Counts are exact where times are noisy, so a growing count points at the
 * cause. `LONG_WARM` (2) whole sessions run first so the JIT has settled.
 * `LONG_PROF=<dir>` writes CPU profiles of one more session's early and late
 * turns.
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
const RUNS = Number(process.env.LONG_RUNS ?? 10);

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

/** One turn of a session: a first message that pends `select_issue`, then its continuation. */
async function turn(h: ReturnType<typeof harness>, id: string, t: number): Promise<void> {
  const a = await h.chat({
    session_id: id,
    content: "select issue 42",
    host_context: ISSUE_CONTEXT,
  });
  const callId = a.body.pending_tool_call?.call_id;
  if (!callId) throw new Error(`${id} turn ${t}: ${JSON.stringify(a.body).slice(0, 300)}`);
  const b = await h.chat({
    session_id: id,
    content: "",
    tool_call_id: callId,
    tool_result: { ok: true },
  });
  if (b.status !== 200) throw new Error(`${id} turn ${t}: ${JSON.stringify(b.body).slice(0, 300)}`);
}

async function measureStore(label: string, store: Store): Promise<string[]> {
  const ops = zero();
  const h = harness({
    store: counted(store, ops),
    model: loadModel("long"),
    modelName: "scripted",
  });
  const early = { from: 2, to: 11 };
  const late = { from: TURNS - 9, to: TURNS };
  try {
    // Warm-up: whole sessions, so the JIT has met every turn a session makes.
    for (let w = 0; w < WARM; w++) {
      for (let t = 1; t <= TURNS; t++) await turn(h, `warm-${w}`, t);
    }
    // Each pair: a young session (its first turn made) and an old one (made up to turn
    // TURNS - 10). Their measured turns alternate, young then old, so whatever the machine
    // does meanwhile (another process, the JIT, the collector's pace) falls on both windows.
    const pairs: { young: Window; old: Window }[] = [];
    for (let r = 0; r < RUNS; r++) {
      const young = `young-${r}`;
      const old = `old-${r}`;
      await turn(h, young, 1);
      for (let t = 1; t < late.from; t++) await turn(h, old, t);
      const pair = { young: { ms: 0, ops: zero() }, old: { ms: 0, ops: zero() } };
      for (let k = 0; k <= late.to - late.from; k++) {
        for (
          const [id, t, w] of [[young, early.from + k, pair.young], [
            old,
            late.from + k,
            pair.old,
          ]] as const
        ) {
          const before = { ...ops };
          const c0 = cpu();
          await turn(h, id, t);
          w.ms += cpu() - c0;
          for (const key of Object.keys(ops) as (keyof Ops)[]) w.ops[key] += ops[key] - before[key];
        }
      }
      pairs.push(pair);
    }
    if (process.env.LONG_PROF) await profileSession(h, label);
    const sum = (kind: "young" | "old") => pairs.reduce((n, p) => n + p[kind].ms, 0);
    const ratio = sum("old") / sum("young");
    const ratios = pairs.map((p) => p.old.ms / p.young.ms);
    const per = (w: Window, k: keyof Ops) => (w.ops[k] / 10).toFixed(k === "bytes" ? 0 : 1);
    const shown = (w: Window) =>
      `${per(w, "keysRead")} keys in ${per(w, "gets")} reads, ${per(w, "lists")} lists of ${
        per(w, "listed")
      }, ${per(w, "commits")} commits of ${per(w, "keysWritten")} keys, ${per(w, "bytes")} B`;
    const turns = RUNS * 10;
    return [
      label,
      `${(sum("young") / turns).toFixed(2)} ms`,
      `${(sum("old") / turns).toFixed(2)} ms`,
      `${ratio.toFixed(2)}x (${ratios.map((r) => r.toFixed(2)).join(", ")})`,
      shown(pairs[0].young),
      shown(pairs[0].old),
    ];
  } finally {
    await h.close();
  }
}

/** With `LONG_PROF=<dir>`: one more session, with CPU profiles of its early and late windows. */
async function profileSession(h: ReturnType<typeof harness>, label: string): Promise<void> {
  const dir = process.env.LONG_PROF!;
  await mkdir(dir, { recursive: true });
  const profiler = new Session();
  profiler.connect();
  try {
    await profiler.post("Profiler.enable");
    // Ten turns are a few milliseconds of CPU: sample every 50 µs, not every millisecond.
    await profiler.post("Profiler.setSamplingInterval", { interval: 50 });
    for (let t = 1; t <= TURNS; t++) {
      const window = t === 2 ? "early" : t === TURNS - 9 ? "late" : null;
      if (window) await profiler.post("Profiler.start");
      await turn(h, "profiled", t);
      if (t === 11 || t === TURNS) {
        const { profile } = await profiler.post("Profiler.stop");
        const name = `${label.replace(/\W+/g, "-")}-${t === 11 ? "early" : "late"}.cpuprofile`;
        await writeFile(join(dir, name), JSON.stringify(profile));
      }
    }
  } finally {
    profiler.disconnect();
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
      }-${TURNS} (${RUNS} pairs of sessions, their windows alternating, after ${WARM})\n`,
  );
  table([
    "store",
    "turns 2-11",
    `turns ${TURNS - 9}-${TURNS}`,
    "ratio (each pair)",
    "store per turn, 2-11",
    `store per turn, ${TURNS - 9}-${TURNS}`,
  ], rows);
}

if (import.meta.main ?? process.argv[1]?.endsWith("long.ts")) await benchLong();
