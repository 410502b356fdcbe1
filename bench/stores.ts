/**
 * Host-call round trips per store through the full HTTP path: a real
 * `startNode()` server on loopback, `fetch`, and the scripted model pending
 * one host call per message. A round trip is message in → pending out, then
 * continuation in → final out. Reports round trips (continuations) per second
 * with 8 concurrent clients, and p50/p99 of a sequential round trip, for
 * memory, Deno KV (a temp dir), Redis (`REDIS_URL`) and Postgres
 * (`DATABASE_URL`), each in a namespace of its own that is removed after.
 *
 * @module
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { denoKvStore } from "../server/kv/denokv.ts";
import { memoryStore } from "../server/kv/memory.ts";
import type { Store } from "../server/kv/store.ts";
import { startNode } from "../server/runtime/node.ts";
import { ISSUE_CONTEXT } from "../server/testing/harness.ts";
import { pendScript } from "../tests/multiprocess/_scripts.ts";
import {
  dropNamespace,
  freshNamespace,
  openStore,
  sharedStores,
} from "../tests/multiprocess/_stores.ts";
import { ms, percentile, table } from "./_stats.ts";

const CLIENTS = 8;
const THROUGHPUT_MS = 2_500;
const LATENCY_MS = 1_500;
const LATENCY_MAX = 400;
const WARMUP = 20;

interface Timing {
  pend: number;
  resume: number;
}

/** The fields of a chat answer the bench reads. */
interface Answer {
  content: string | null;
  pending_tool_call: { call_id: string } | null;
}

async function post(url: string, body: unknown): Promise<Answer> {
  const res = await fetch(`${url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const json = await res.json();
  if (res.status !== 200) {
    throw new Error(`POST /api/chat answered ${res.status}: ${JSON.stringify(json)}`);
  }
  return json;
}

/** One host-call round trip on a fresh session; returns both halves in ms. */
async function roundTrip(url: string, sessionId: string): Promise<Timing> {
  const t0 = performance.now();
  const pended = await post(url, {
    session_id: sessionId,
    content: "select issue 42",
    host_context: ISSUE_CONTEXT,
  });
  const t1 = performance.now();
  const call = pended.pending_tool_call?.call_id;
  if (!call) throw new Error(`the message did not pend a host call: ${JSON.stringify(pended)}`);
  const final = await post(url, {
    session_id: sessionId,
    content: "",
    tool_call_id: call,
    tool_result: { ok: true },
  });
  if (typeof final.content !== "string" || final.pending_tool_call) {
    throw new Error(`the continuation did not end the turn: ${JSON.stringify(final)}`);
  }
  return { pend: t1 - t0, resume: performance.now() - t1 };
}

async function measure(label: string, store: Store): Promise<string[]> {
  const server = await startNode({
    port: 0,
    env: {},
    store,
    model: pendScript("bench"),
    modelName: "scripted",
    socketIo: false,
    warn: () => {},
  });
  const run = crypto.randomUUID().slice(0, 8);
  try {
    for (let i = 0; i < WARMUP; i++) await roundTrip(server.url, `w-${run}-${i}`);
    let done = 0;
    const end = performance.now() + THROUGHPUT_MS;
    const started = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; performance.now() < end; i++) {
        await roundTrip(server.url, `c-${run}-${c}-${i}`);
        done++;
      }
    }));
    const rate = done / ((performance.now() - started) / 1000);
    const timings: Timing[] = [];
    const stop = performance.now() + LATENCY_MS;
    while (timings.length < LATENCY_MAX && (performance.now() < stop || timings.length < 20)) {
      timings.push(await roundTrip(server.url, `l-${run}-${timings.length}`));
    }
    const total = timings.map((t) => t.pend + t.resume);
    const p = (values: number[], q: number) => ms(percentile(values, q));
    return [
      label,
      rate.toFixed(0),
      p(total, 50),
      p(total, 99),
      p(timings.map((t) => t.pend), 50),
      p(timings.map((t) => t.resume), 50),
      String(timings.length),
    ];
  } finally {
    await server.close();
  }
}

/**
 * Prints, per store, continuations per second and host-call round-trip p50/p99 as a Markdown table.
 *
 * @example
 * ```ts
 * await benchStores();
 * ```
 */
export async function benchStores(): Promise<void> {
  const rows: string[][] = [];
  const notes: string[] = [];
  const dir = await mkdtemp(join(tmpdir(), "tether-bench-stores-"));
  try {
    rows.push(await measure("memory", memoryStore()));
    rows.push(await measure("denokv", await denoKvStore(join(dir, "store.db"))));
    for (const shared of sharedStores()) {
      if (!shared.url) {
        notes.push(`${shared.kind}: skipped, ${shared.variable} is not set`);
        rows.push([shared.kind, `skipped (${shared.variable} not set)`, "", "", "", "", ""]);
        continue;
      }
      const namespace = freshNamespace();
      try {
        rows.push(await measure(shared.kind, await openStore(shared.url, namespace)));
      } finally {
        await dropNamespace(shared.url, namespace);
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  console.log(
    `\n## Host-call round trips per store (startNode on loopback, fetch, scripted model; ${CLIENTS} clients for the rate)\n`,
  );
  table([
    "store",
    "continuations/s",
    "round trip p50",
    "round trip p99",
    "message→pending p50",
    "continuation→final p50",
    "samples",
  ], rows);
  for (const note of notes) console.log(`\nSKIPPED: ${note}`);
}

if (import.meta.main ?? process.argv[1]?.endsWith("stores.ts")) await benchStores();
