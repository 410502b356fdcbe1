// deno-lint-ignore-file no-explicit-any -- JSON read back from the runtime in tests and benchmarks
import process from "node:process";
/**
 * The runtime's own overhead per turn and per host-call round trip, against
 * the same scripted model called directly through the AI SDK, for the memory
 * and Deno KV stores.
 *
 * @module
 */
import { jsonSchema, streamText } from "ai";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRuntime } from "../server/app.ts";
import type { Store } from "../server/kv/store.ts";
import { memoryStore } from "../server/kv/memory.ts";
import { denoKvStore } from "../server/kv/denokv.ts";
import { scriptedModel } from "../server/testing/scripted_model.ts";
import { ISSUE_CONTEXT } from "../server/testing/harness.ts";
import { ms, percentile, table, timeIt } from "./_stats.ts";

const TOOLS = {
  select_issue: {
    description: "Select",
    inputSchema: jsonSchema({ type: "object", properties: { number: { type: "integer" } } }),
  },
};

async function direct(model: ReturnType<typeof scriptedModel>, withTools: boolean): Promise<void> {
  const result = streamText({
    model,
    messages: [{ role: "user", content: "select issue 42" }],
    tools: withTools ? TOOLS as never : undefined,
  });
  for await (const _ of result.fullStream) { /* drain */ }
  await result.response;
}

/** Script: even calls pend select_issue, odd calls answer. */
const roundTripModel = () =>
  scriptedModel((_o, i) =>
    i % 2 === 0
      ? { calls: [{ name: "select_issue", args: { number: 42 } }] }
      : { text: "Selected issue 42." }
  );

async function measure(name: string, makeStore: () => Promise<Store>, n: number) {
  const textModel = scriptedModel([{ text: "Here is a short answer for you." }]);
  const app = createRuntime({ store: await makeStore(), model: textModel, warn: () => {} });
  const post = async (body: unknown) => {
    const res = await app.request("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return await res.json() as any;
  };
  const baseTurn = await timeIt(n, () => direct(textModel, false));
  const turn = await timeIt(
    n,
    (i) => post({ session_id: `t${i}`, content: "hello", host_context: ISSUE_CONTEXT }),
  );
  await app.close();

  const rtModel = roundTripModel();
  const app2 = createRuntime({ store: await makeStore(), model: rtModel, warn: () => {} });
  const post2 = async (body: unknown) => {
    const res = await app2.request("/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return await res.json() as any;
  };
  const baseRt = await timeIt(n, async () => {
    await direct(rtModel, true);
    await direct(rtModel, true);
  });
  const rt = await timeIt(n, async (i) => {
    const first = await post2({
      session_id: `r${i}`,
      content: "select issue 42",
      host_context: ISSUE_CONTEXT,
    });
    await post2({
      session_id: `r${i}`,
      content: "",
      tool_call_id: first.pending_tool_call.call_id,
      tool_result: { ok: true },
    });
  });
  await app2.close();
  const row = (label: string, base: number[], ours: number[]) => {
    const b50 = percentile(base, 50),
      o50 = percentile(ours, 50),
      b99 = percentile(base, 99),
      o99 = percentile(ours, 99);
    return [
      name,
      label,
      `${ms(b50)} / ${ms(b99)}`,
      `${ms(o50)} / ${ms(o99)}`,
      ms(o50 - b50),
      (o50 / b50).toFixed(2),
    ];
  };
  return [row("turn", baseTurn, turn), row("host-call round trip", baseRt, rt)];
}

/**
 * Prints the core overhead table.
 *
 * @example
 * ```ts
 * await benchCore();
 * ```
 */
export async function benchCore(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "tether-bench-"));
  try {
    const rows = [
      ...(await measure("memory", () => Promise.resolve(memoryStore()), 1000)),
      ...(await measure("denokv", () => denoKvStore(join(dir, `s${Math.random()}.db`)), 200)),
    ];
    console.log("\n## Runtime overhead (full HTTP path via app.request, scripted model)\n");
    table([
      "store",
      "what",
      "AI SDK direct p50 / p99",
      "runtime p50 / p99",
      "overhead p50",
      "ratio p50",
    ], rows);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith("core.ts")) await benchCore();
