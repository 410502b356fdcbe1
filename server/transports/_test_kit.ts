/**
 * Test helpers for the transports: a runtime on a loopback port (the real
 * node:http server with Socket.IO, on Node and on Deno), real Socket.IO
 * clients that record what they receive, and a reader for real SSE answers.
 *
 * @module
 */
// deno-lint-ignore-file no-explicit-any -- tests read wire payloads field by field
import { io, type ManagerOptions, type Socket, type SocketOptions } from "socket.io-client";
import { eventIssues } from "../../protocol/mod.ts";
import type { Engine } from "../engine.ts";
import { type Started, startNode, type StartOptions } from "../runtime/node.ts";

/**
 * A runtime under test, on 127.0.0.1 with a memory store.
 *
 * @example
 * ```ts
 * const rt: TestRuntime = await runtime();
 * await rt.engine.repo.record("s1");
 * ```
 */
export interface TestRuntime extends Started {
  engine: Engine;
}

/**
 * Starts a runtime on a free loopback port.
 *
 * @example
 * ```ts
 * const rt = await runtime({ model: scriptedModel([{ text: "hi" }]) });
 * await rt.close();
 * ```
 */
export async function runtime(
  options: StartOptions & { env?: Record<string, string> } = {},
): Promise<TestRuntime> {
  const started = await startNode({
    port: 0,
    warn: () => {},
    ...options,
    env: { STORE__URL: "memory:", MODEL__DEFAULT: "offline", ...options.env },
  });
  return Object.assign(started, { engine: await started.app.engine() });
}

/**
 * One event a client received.
 *
 * @example
 * ```ts
 * const e: Received = { event: "assistant:status", payload: { type: "agent_status", status: "started", seq: 1 } };
 * ```
 */
export interface Received {
  event: string;
  payload: Record<string, any>;
}

/**
 * A connected Socket.IO client that records every server event.
 *
 * @example
 * ```ts
 * const a: TestClient = await client(rt.url);
 * await a.until(completed);
 * ```
 */
export interface TestClient {
  socket: Socket;
  events: Received[];
  /** Resolves once an event matching `match` arrived (checks what already arrived first). */
  until(match: (e: Received) => boolean, timeoutMs?: number): Promise<Received>;
  /** Emits with an acknowledgement and resolves with the answer. */
  ask(event: string, payload?: unknown): Promise<any>;
  /** Closes the socket; throws when a payload it received broke its event's schema. */
  close(): void;
}

/**
 * Matches the end of a turn.
 *
 * @example
 * ```ts
 * await a.until(completed);
 * ```
 */
export const completed = (e: Received) =>
  e.event === "assistant:status" && e.payload.status === "completed";

/**
 * Connects a Socket.IO client to `/assistant`; rejects with the `connect_error` when refused.
 *
 * @example
 * ```ts
 * const a = await client(rt.url);
 * await a.ask("assistant_join_session", { session_id: "s1" });
 * ```
 */
export function client(
  url: string,
  options: Partial<ManagerOptions & SocketOptions> = {},
): Promise<TestClient> {
  const socket = io(`${url}/assistant`, {
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    ...options,
  });
  const events: Received[] = [];
  const waiters = new Set<() => void>();
  // The Socket.IO edge: every payload is checked against its event's schema as it arrives.
  const issues: string[] = [];
  socket.onAny((event: string, payload: Record<string, any>) => {
    if (event.startsWith("assistant:")) issues.push(...eventIssues(event, payload));
    events.push({ event, payload });
    for (const w of [...waiters]) w();
  });
  const conform = () => {
    if (issues.length) throw new Error(`payloads broke the event schemas: ${issues.join("; ")}`);
  };
  const until = (match: (e: Received) => boolean, timeoutMs = 5_000) =>
    new Promise<Received>((resolve, reject) => {
      const check = () => {
        try {
          conform();
        } catch (error) {
          waiters.delete(check);
          clearTimeout(timer);
          return reject(error);
        }
        const found = events.find(match);
        if (!found) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(
            `timed out; received ${
              events.map((e) => `${e.event}:${e.payload.seq ?? e.payload.type}`).join(" ")
            }`,
          ),
        );
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  const ask = (event: string, payload?: unknown) =>
    socket.timeout(10_000).emitWithAck(event, payload);
  const close = () => {
    socket.close();
    conform();
  };
  const api: TestClient = { socket, events, until, ask, close };
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(api));
    socket.once("connect_error", (error) => {
      socket.close();
      reject(error);
    });
  });
}

/**
 * One server-sent event, its data parsed as JSON.
 *
 * @example
 * ```ts
 * const last = (events: SseEvent[]) => events.at(-1)?.id;
 * ```
 */
export interface SseEvent {
  event: string;
  data: any;
  id?: string;
}

/**
 * Reads an SSE body to its end (or until `stop` says so), parsing JSON data.
 *
 * @example
 * ```ts
 * const events = await readSse(await fetch(url, { headers: { accept: "text/event-stream" } }));
 * ```
 */
export async function readSse(
  response: Response,
  stop: (e: SseEvent) => boolean = () => false,
): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return out;
      buffer += value;
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const e: SseEvent = { event: "message", data: "" };
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line.startsWith(":")) continue;
          const [field, ...rest] = line.split(": ");
          if (field === "event") e.event = rest.join(": ");
          else if (field === "id") e.id = rest.join(": ");
          else if (field === "data") data.push(rest.join(": "));
        }
        if (!data.length) continue;
        e.data = JSON.parse(data.join("\n"));
        // The SSE edge: a Tether event's payload must follow its schema.
        const issues = e.event.startsWith("assistant:") ? eventIssues(e.event, e.data) : [];
        if (issues.length) throw new Error(`SSE payload broke its schema: ${issues.join("; ")}`);
        out.push(e);
        if (stop(e)) return out;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** The contract's example context (one `select_issue` action), shared with the HTTP tests. */
export { ISSUE_CONTEXT } from "../testing/harness.ts";

/**
 * A short pause.
 *
 * @example
 * ```ts
 * await sleep(50);
 * ```
 */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let ids = 0;
/**
 * A fresh message id.
 *
 * @example
 * ```ts
 * a.ask("assistant_message", { id: mid(), session_id: "s1", content: "hi" });
 * ```
 */
export const mid = () => `m${++ids}-${Date.now().toString(36)}`;
