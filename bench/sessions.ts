/**
 * `npm run bench -- sessions`: how long a principal's conversation list
 * takes with 10,000 sessions, per store. Each store gets 10,000 sessions of
 * one principal plus 10,000 of others (written through `SessionRepo.commit`,
 * as turns write them), then times `GET /api/sessions` through the real app
 * (`app.request`, no network) as the trusted local principal, for the first page, a page deep in the list
 * (past 5,000 sessions, through its cursor), a page of 100, and the empty
 * archived list. Memory, Deno KV (a temporary folder), Redis (`REDIS_URL`)
 * and Postgres (`DATABASE_URL`), each in a namespace of its own removed
 * after. The target is a page in under 20 ms on Deno KV, Redis and Postgres.
 *
 * @module
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { createRuntime } from "../server/app.ts";
import { denoKvStore } from "../server/kv/denokv.ts";
import { memoryStore } from "../server/kv/memory.ts";
import type { Store } from "../server/kv/store.ts";
import { newSessionRecord } from "../server/session/create.ts";
import { SessionRepo } from "../server/session/repo.ts";
import { ISSUE_CONTEXT } from "../server/testing/harness.ts";
import {
  dropNamespace,
  freshNamespace,
  openStore,
  sharedStores,
} from "../tests/multiprocess/_stores.ts";
import { ms, percentile, table, timeIt } from "./_stats.ts";

const SESSIONS = 10_000;
const OTHERS = 10_000;
const RUNS = 200;
const WRITERS = 32;

/** Writes `n` sessions of `owner` with `writers` commits at a time. */
async function fill(repo: SessionRepo, owner: string, n: number, prefix: string): Promise<void> {
  let next = 0;
  const writer = async () => {
    while (next < n) {
      const i = next++;
      const record = {
        ...newSessionRecord({ id: owner, roles: [] }, `${prefix}-${i}`),
        turn_number: 1,
        message_count: 2,
        host_context: ISSUE_CONTEXT as never,
        listing: { title: `Conversation number ${i} about the issue list` },
      };
      if (!(await repo.commit(record, null))) throw new Error(`session ${prefix}-${i} exists`);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
}

async function measure(name: string, store: Store): Promise<(string | number)[]> {
  const repo = new SessionRepo(store, "default");
  const started = performance.now();
  await Promise.all([
    fill(repo, "local", SESSIONS, "s"),
    fill(repo, "someone-else", OTHERS, "o"),
  ]);
  const filled = (performance.now() - started) / 1000;
  const app = createRuntime({ store, model: "offline", warn: () => {} });
  const get = async (query: string) => {
    const res = await app.request(`/api/sessions${query}`);
    if (res.status !== 200) throw new Error(`GET /api/sessions${query}: ${res.status}`);
    return await res.json() as { sessions: unknown[]; next_before: string | null };
  };
  // A cursor past half the list: walk there a hundred at a time.
  let deep: string | null = null;
  for (let page = 0; page < 51; page++) {
    deep = (await get(`?limit=100${deep ? `&before=${encodeURIComponent(deep)}` : ""}`))
      .next_before;
  }
  const cursor = encodeURIComponent(deep!);
  const first = await timeIt(RUNS, () => get("?limit=20"));
  const inside = await timeIt(RUNS, () => get(`?limit=20&before=${cursor}`));
  const hundred = await timeIt(RUNS, () => get("?limit=100"));
  const archived = await timeIt(RUNS, () => get("?archived=true"));
  const rows = (await get("?limit=20")).sessions.length;
  if (rows !== 20) throw new Error(`${name}: the first page held ${rows} sessions`);
  await app.close();
  const p = (values: number[]) => `${ms(percentile(values, 50))} / ${ms(percentile(values, 99))}`;
  return [name, `${filled.toFixed(1)} s`, p(first), p(inside), p(hundred), p(archived)];
}

/** Prints the listing latencies of every configured store. */
export async function benchSessions(): Promise<void> {
  console.log(
    `\n## Conversation list: ${SESSIONS.toLocaleString("en")} sessions of one principal ` +
      `(+${OTHERS.toLocaleString("en")} of another), GET /api/sessions through the app, ` +
      `${RUNS} runs each, p50 / p99\n`,
  );
  const rows: (string | number)[][] = [];
  rows.push(await measure("memory", memoryStore()));
  const dir = await mkdtemp(join(tmpdir(), "tether-bench-sessions-"));
  try {
    rows.push(await measure("denokv", await denoKvStore(join(dir, "store.db"))));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  for (const shared of sharedStores()) {
    if (!shared.url) {
      rows.push([shared.kind, `skipped: ${shared.variable} is not set`, "", "", "", ""]);
      continue;
    }
    const namespace = freshNamespace();
    try {
      rows.push(await measure(shared.kind, await openStore(shared.url, namespace)));
    } finally {
      await dropNamespace(shared.url, namespace);
    }
  }
  table(
    ["store", "fill", "first page (20)", "page past 5,000 (20)", "page of 100", "archived (empty)"],
    rows,
  );
  console.log("\nTarget: a page of 20 in under 20 ms on Deno KV, Redis and Postgres.");
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSessions();
