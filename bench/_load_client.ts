/**
 * The load process of `npm run bench -- load`: a process of its own, so the
 * server's CPU time holds only the server's work. Each stdin line
 * `{"url", "turns", "sessions"}` runs one round: `sessions` concurrent
 * workers send first messages on fresh sessions (with the ids the browser SDK
 * makes) until `turns` are answered; it prints
 * `{"wall_ms", "latencies", "error_count", "errors"}` as one line.
 *
 * @module
 */
import { Agent, request } from "node:http";
import process from "node:process";
import { createInterface } from "node:readline";
import { ISSUE_CONTEXT } from "../server/testing/harness.ts";
import { newId } from "../client/_id.ts";

/** One round's order. */
interface Round {
  url: string;
  turns: number;
  sessions: number;
}

// Plain node:http with kept-alive sockets: the cheapest client, so the load process steals little CPU.
const agent = new Agent({ keepAlive: true, maxSockets: 1_000 });

function post(url: URL, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: "POST",
      agent,
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      timeout: 60_000,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on(
        "end",
        () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
      );
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 60 s")));
    req.on("error", reject);
    req.end(body);
  });
}

async function round({ url, turns, sessions }: Round) {
  const target = new URL("/api/chat", url);
  const latencies: number[] = [];
  const errors: string[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: sessions }, async () => {
    while (next < turns) {
      next++;
      // The body the browser SDK sends (`client/host.ts`), its ids made as it makes them
      // (`client/_id.ts`), not a counter's: where a session's rows land in a store's tree
      // follows from its id, and a message id is one more row (kept against a retried send).
      const body = JSON.stringify({
        id: newId("m-"),
        session_id: newId("s-"),
        content: "select issue 42",
        host_context: ISSUE_CONTEXT,
      });
      const t0 = performance.now();
      try {
        const res = await post(target, body);
        if (res.status !== 200 || !JSON.parse(res.text).pending_tool_call) {
          errors.push(`${res.status} ${res.text.slice(0, 200)}`);
        }
      } catch (error) {
        errors.push(String(error));
      }
      latencies.push(performance.now() - t0);
    }
  }));
  return {
    wall_ms: performance.now() - started,
    latencies,
    error_count: errors.length,
    errors: errors.slice(0, 3),
  };
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  console.log(JSON.stringify(await round(JSON.parse(line))));
}
agent.destroy();
