/**
 * Live transports on loopback against the scripted model: how many events
 * per second one runtime process delivers to 200 attached Socket.IO clients
 * (the clients run in the same process, so their decoding shares the CPU and
 * the figure is a floor), and the time from a message to its first text
 * event, p50 and p99, over Socket.IO and over SSE.
 *
 * @module
 */
import process from "node:process";
import { io, type Socket } from "socket.io-client";
import { startNode } from "../server/runtime/node.ts";
import { scriptedModel } from "../server/testing/scripted_model.ts";
import { ms, percentile, table } from "./_stats.ts";

const CLIENTS = 200;
const WORDS = 500;
const SAMPLES = 200;

const connect = (url: string) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = io(`${url}/assistant`, {
      transports: ["websocket"],
      reconnection: false,
      forceNew: true,
    });
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });

/** Sends one message per turn to a session `clients` sockets joined; returns events/s delivered over `turns` turns. */
async function fanOut(
  url: string,
  clients: number,
  turns: number,
): Promise<{ rate: number; perTurn: number; seconds: number }> {
  const sockets = await Promise.all(Array.from({ length: clients }, () => connect(url)));
  const session = `fan-${clients}`;
  await Promise.all(
    sockets.map((s) =>
      s.timeout(10_000).emitWithAck("assistant_join_session", { session_id: session })
    ),
  );
  let received = 0;
  let onDone = () => {};
  let finished = 0;
  for (const s of sockets) {
    s.onAny((name: string, payload: { status?: string }) => {
      received++;
      if (name === "assistant:status" && payload.status === "completed" && ++finished === clients) {
        onDone();
      }
    });
  }
  const turn = () =>
    new Promise<void>((resolve) => {
      finished = 0;
      onDone = resolve;
      sockets[0].emit("assistant_message", {
        id: crypto.randomUUID(),
        session_id: session,
        content: "go",
      });
    });
  await turn(); // warm-up
  received = 0;
  const t0 = performance.now();
  for (let i = 0; i < turns; i++) await turn();
  const seconds = (performance.now() - t0) / 1000;
  for (const s of sockets) s.close();
  return { rate: received / seconds, perTurn: received / clients / turns, seconds };
}

/** Message to first `assistant:text_delta` over Socket.IO, one fresh session per message. */
async function firstTextSocket(url: string, n: number): Promise<number[]> {
  const socket = await connect(url);
  const out: number[] = [];
  for (let i = -20; i < n; i++) {
    const session = `lat-sio-${i}`;
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      let first = 0;
      const on = (
        name: string,
        payload: { session_id?: string; status?: string; seq?: number },
      ) => {
        if (!first && name === "assistant:text_delta") first = performance.now();
        if (name === "assistant:status" && payload.status === "completed") {
          socket.offAny(on);
          if (i >= 0) out.push(first - t0);
          resolve();
        }
      };
      socket.onAny(on);
      socket.emit("assistant_message", {
        id: crypto.randomUUID(),
        session_id: session,
        content: "hi",
      });
    });
  }
  socket.close();
  return out;
}

/** Message to first `assistant:text_delta` over SSE (POST /api/chat, Accept: text/event-stream). */
async function firstTextSse(url: string, n: number): Promise<number[]> {
  const out: number[] = [];
  const decoder = new TextDecoder();
  for (let i = -20; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ id: crypto.randomUUID(), session_id: `lat-sse-${i}`, content: "hi" }),
    });
    const reader = res.body!.getReader();
    let text = "";
    let first = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (!first && text.includes("event: assistant:text_delta")) first = performance.now();
    }
    if (i >= 0) out.push(first - t0);
  }
  return out;
}

/**
 * Prints the live transport figures.
 *
 * @example
 * ```ts
 * await benchTransports();
 * ```
 */
export async function benchTransports(): Promise<void> {
  const words = Array.from({ length: WORDS }, (_, i) => `w${i}`).join(" ");
  // The first (warm-up) turn is short; every later turn streams WORDS text deltas.
  const model = scriptedModel((_o, i) => (i === 0 ? { text: "warm up" } : { text: words }));
  const fan = await startNode({ port: 0, env: { STORE__URL: "memory:" }, model, warn: () => {} });
  const many = await fanOut(fan.url, CLIENTS, 2);
  const one = await fanOut(fan.url, 1, 4);
  await fan.close();
  const lat = await startNode({
    port: 0,
    env: { STORE__URL: "memory:" },
    model: scriptedModel([{ text: "Hello there." }]),
    warn: () => {},
  });
  const sio = await firstTextSocket(lat.url, SAMPLES);
  const sse = await firstTextSse(lat.url, SAMPLES);
  await lat.close();
  const rate = (r: { rate: number; perTurn: number; seconds: number }, clients: number) =>
    `${Math.round(r.rate).toLocaleString("en")} events/s (${
      Math.round(r.perTurn)
    } events per turn × ${clients} client${clients === 1 ? "" : "s"}, ${r.seconds.toFixed(2)} s)`;
  console.log("\n## Live transports (loopback, scripted model, clients in the same process)\n");
  table(["what", "figure"], [
    [`Socket.IO fan-out, ${CLIENTS} clients on one session`, rate(many, CLIENTS)],
    ["Socket.IO fan-out, 1 client (engine-bound)", rate(one, 1)],
    [
      "message to first text event, Socket.IO",
      `p50 ${ms(percentile(sio, 50))}, p99 ${ms(percentile(sio, 99))} (${SAMPLES} messages)`,
    ],
    [
      "message to first text event, SSE",
      `p50 ${ms(percentile(sse, 50))}, p99 ${ms(percentile(sse, 99))} (${SAMPLES} messages)`,
    ],
  ]);
}

if ((import.meta as { main?: boolean }).main ?? process.argv[1]?.endsWith("transports.ts")) {
  await benchTransports();
}
