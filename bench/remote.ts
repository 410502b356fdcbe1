/**
 * `npm run bench -- remote`: the turn overhead of remote tool discovery.
 * A one-step turn (scripted model, memory store) with no tool server, then
 * with one on loopback (the host kit: four tools and a context), then with
 * one that takes 20 ms per request: tools and context are fetched in
 * parallel while the rest of the turn is set up, so the overhead stays near
 * one request, not two.
 *
 * @module
 */
import { Hono } from "hono";
import { createRuntime } from "../server/app.ts";
import { memoryStore } from "../server/kv/memory.ts";
import { remoteToolsHost } from "../server/remote-tools/host.ts";
import { serveLoopback } from "../server/testing/loopback.ts";
import { scriptedModel } from "../server/testing/scripted_model.ts";
import { ms, percentile, table, timeIt } from "./_stats.ts";

const SECRET = "bench-secret-0123456789abcdef";
const TURNS = 300;

function host(delayMs: number): Hono {
  const schema = { type: "object", properties: { q: { type: "string" } } };
  const kit = remoteToolsHost({
    secret: SECRET,
    context: () => ({ project: "Apollo", open: 12 }),
    tools: (["get", "create", "update", "delete"] as const).map((verb) => ({
      name: `${verb}_item`,
      description: `${verb} an item`,
      verb,
      inputSchema: schema,
      execute: () => ({ ok: true }),
    })),
  });
  if (!delayMs) return kit;
  const slow = new Hono();
  slow.all("*", async (c) => {
    await new Promise((r) => setTimeout(r, delayMs));
    return kit.fetch(c.req.raw);
  });
  return slow;
}

async function turns(baseUrl: string | null): Promise<number[]> {
  const app = createRuntime({
    store: memoryStore(),
    model: scriptedModel([{ text: "ok" }]),
    remoteTools: { allowedHosts: ["127.0.0.1"], timeoutMs: 5_000, workspace: "default" },
    warn: () => {},
  });
  const engine = await app.engine();
  if (baseUrl) {
    await engine.remote.integrations.add({
      provider: "generic-rest",
      workspace_id: "default",
      base_url: baseUrl,
      secret: SECRET,
      allowed_tools: [],
    });
  }
  const principal = { id: "local", roles: [] };
  const times = await timeIt(
    TURNS,
    (i) => engine.chat(principal, { session_id: `b${i}`, content: "hi" } as never),
    30,
  );
  await app.close();
  return times;
}

/**
 * Prints the figures.
 *
 * @example
 * ```ts
 * await benchRemote();
 * ```
 */
export async function benchRemote(): Promise<void> {
  console.log(`\n## Remote tools: turn overhead of discovery (${TURNS} one-step turns each)\n`);
  const fast = await serveLoopback(host(0).fetch);
  const slow = await serveLoopback(host(20).fetch);
  const base = await turns(null);
  const rows: (string | number)[][] = [];
  const row = (label: string, t: number[]) => {
    const p50 = percentile(t, 50);
    const p99 = percentile(t, 99);
    rows.push([
      label,
      ms(p50),
      ms(p99),
      ms(p50 - percentile(base, 50)),
      ms(p99 - percentile(base, 99)),
    ]);
  };
  row("no tool server", base);
  row("loopback tool server (kit)", await turns(fast.url));
  row("loopback tool server, 20 ms per request", await turns(slow.url));
  table(["turn", "p50", "p99", "overhead p50", "overhead p99"], rows);
  await fast.close();
  await slow.close();
}
