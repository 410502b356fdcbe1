/**
 * Clients of a runtime over loopback: JSON requests, server-sent event
 * streams read with fetch, and a Socket.IO client; each records what it
 * receives and can wait for a matching event, always with a timeout.
 *
 * @module
 */
import { io } from "socket.io-client";

/**
 * A JSON answer or payload read loosely: the tests index into it and assert on what they find.
 *
 * @example
 * ```ts
 * const body: Loose = await res.json();
 * ```
 */
// deno-lint-ignore no-explicit-any
export type Loose = any;

/**
 * One received event: its name, its payload and (SSE) its id.
 *
 * @example
 * ```ts
 * const seqs = stream.events.map((e: Received) => e.payload.seq);
 * ```
 */
export interface Received {
  event: string;
  payload: Record<string, Loose>;
  id?: string;
  /** When it arrived (epoch milliseconds). */
  at?: number;
}

/**
 * A live event source that records everything it receives.
 *
 * @example
 * ```ts
 * const rec: Recorder = await sse(`${url}/api/sessions/s/events`);
 * ```
 */
export interface Recorder {
  events: Received[];
  /** Resolves with the first recorded event matching `match`; rejects after `timeoutMs`. */
  until(match: (e: Received) => boolean, timeoutMs?: number): Promise<Received>;
  close(): void;
}

/**
 * Matches the end of a turn.
 *
 * @example
 * ```ts
 * await stream.until(completed);
 * ```
 */
export const completed = (e: Received): boolean =>
  e.event === "assistant:status" && e.payload.status === "completed";

/**
 * Sends a JSON request and returns status and body; rejects after `timeoutMs`.
 *
 * @example
 * ```ts
 * const { status, body } = await request(`${a.url}/api/chat`, "POST", { session_id: "s", content: "hi" });
 * ```
 */
export async function request(
  url: string,
  method = "GET",
  body?: unknown,
  timeoutMs = 20_000,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Loose }> {
  const res = await fetch(url, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

function recorder(
  close: () => void,
): Recorder & { push(e: Received): void; fail(error: Error): void } {
  const events: Received[] = [];
  const waiters = new Set<() => void>();
  let failure: Error | undefined;
  const wake = () => {
    for (const w of [...waiters]) w();
  };
  return {
    events,
    close,
    push: (e) => (events.push({ ...e, at: Date.now() }), wake()),
    fail: (error) => (failure = error, wake()),
    until: (match, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found && !failure) return;
          waiters.delete(check);
          clearTimeout(timer);
          if (found) resolve(found);
          else {reject(
              new Error(
                `the stream ended (${failure!.message}) after ${events.length} events: ${
                  names(events)
                }`,
              ),
            );}
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no matching event within ${timeoutMs} ms; got ${events.length}: ${names(events)}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
  };
}

const names = (events: Received[]) =>
  events.map((e) => `${e.event.replace("assistant:", "")}#${e.payload.seq}`).join(" ");

/**
 * Opens a server-sent event stream (GET events, or POST /api/chat with a body) and records its events.
 *
 * @example
 * ```ts
 * const stream = await sse(`${a.url}/api/sessions/s/events?after=4`);
 * await stream.until(completed);
 * ```
 */
export async function sse(
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Recorder> {
  const abort = new AbortController();
  const rec = recorder(() => abort.abort());
  const res = await fetch(url, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.any([abort.signal, AbortSignal.timeout(60_000)]),
  });
  if (res.status !== 200 || !res.body) {
    throw new Error(
      `${url} answered ${res.status} instead of an event stream: ${await res.text()}`,
    );
  }
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of res.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const parsed = parseBlock(block);
          if (parsed) rec.push(parsed);
        }
      }
      rec.fail(new Error("closed by the server"));
    } catch (error) {
      rec.fail(error as Error);
    }
  })();
  return rec;
}

/** One SSE block (`event:`, `id:`, `data:` lines; `:` comments ignored) as an event, or null for a comment. */
function parseBlock(block: string): Received | null {
  let event = "message";
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":") || !line) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "id") id = value;
    else if (field === "data") data.push(value);
  }
  if (!data.length) return null;
  return { event, id, payload: JSON.parse(data.join("\n")) };
}

/**
 * Connects a Socket.IO client to `/assistant` and joins a session (from `after`); records every event.
 *
 * @example
 * ```ts
 * const socket = await socketClient(a.url, "s", 4);
 * await socket.until(completed);
 * ```
 */
export async function socketClient(
  url: string,
  sessionId: string,
  after?: number,
): Promise<Recorder> {
  const socket = io(`${url}/assistant`, {
    transports: ["websocket"],
    reconnection: false,
    forceNew: true,
    timeout: 10_000,
  });
  const rec = recorder(() => socket.close());
  socket.onAny((event: string, payload: Record<string, Loose>) => rec.push({ event, payload }));
  socket.on("disconnect", (reason) => rec.fail(new Error(`disconnected: ${reason}`)));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", (error) => reject(error));
  });
  const answer = await socket.timeout(10_000).emitWithAck("assistant_join_session", {
    session_id: sessionId,
    after,
  });
  if (!answer.ok) {
    socket.close();
    throw new Error(`joining ${sessionId} failed: ${JSON.stringify(answer.error)}`);
  }
  return rec;
}
