/**
 * The HTTP transport: each message is a `POST /api/chat` whose answer streams
 * the turn as server-sent events. When a stream breaks before the turn
 * completed, it resumes from `GET /api/sessions/{id}/events` with
 * `Last-Event-ID`, so no event is lost or repeated.
 *
 * @module
 */
import { errorFromResponse, headersOf, request, runtimeHref } from "./_http.ts";
import { readEventStream } from "./_sse.ts";
import type { Transport, TransportFactory, TransportLink } from "./transport.ts";

/**
 * Options of `sseTransport()`.
 *
 * @example
 * ```ts
 * sseTransport({ stream: false }); // plain JSON through a proxy that buffers streams
 * ```
 */
export interface SseTransportOptions {
  /** First delay before resuming a broken stream, in ms (doubles up to 10 s). Default 250. */
  retryDelay?: number;
  /** `false`: ask for the plain JSON result instead of a stream (for proxies that buffer SSE). Default true. */
  stream?: boolean;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

class SseTransport implements Transport {
  #link: TransportLink;
  #retryDelay: number;
  #stream: boolean;
  #closed = new AbortController();

  constructor(link: TransportLink, options: SseTransportOptions) {
    this.#link = link;
    this.#retryDelay = options.retryDelay ?? 250;
    this.#stream = options.stream ?? true;
  }

  connect(): Promise<void> {
    this.#link.state("open");
    return Promise.resolve();
  }

  async send(body: Record<string, unknown>): Promise<void> {
    const response = await request(runtimeHref(this.#link.runtimeUrl, "api/chat"), {
      method: "POST",
      headers: {
        ...headersOf(this.#link.headers),
        "content-type": "application/json",
        accept: this.#stream ? "text/event-stream" : "application/json",
      },
      body: JSON.stringify(body),
      signal: this.#closed.signal,
    });
    if (!response.ok) throw await errorFromResponse(response);
    if (!response.headers.get("content-type")?.includes("text/event-stream")) {
      // The plain JSON result: replay it as the events of the turn.
      const result = await response.json();
      const call = result.pending_tool_call;
      if (call) {
        this.#link.event("assistant:tool_call", { type: "tool_call", category: "host", ...call });
      }
      this.#link.event("assistant:final_response", { type: "final_response", ...result });
      this.#link.event("assistant:status", { type: "agent_status", status: "completed" });
      return;
    }
    this.#follow(response.body!);
  }

  /** Reads a turn's stream to its end, resuming it as often as it breaks. */
  async #follow(body: ReadableStream<Uint8Array> | null): Promise<void> {
    const signal = this.#closed.signal;
    let delay = this.#retryDelay;
    while (!signal.aborted) {
      if (body && await this.#read(body)) return;
      this.#link.state("reconnecting");
      await sleep(delay, signal);
      delay = Math.min(delay * 2, 10_000);
      body = null;
      try {
        const response = await request(
          runtimeHref(
            this.#link.runtimeUrl,
            `api/sessions/${encodeURIComponent(this.#link.sessionId)}/events`,
          ),
          {
            headers: {
              ...headersOf(this.#link.headers),
              accept: "text/event-stream",
              "last-event-id": String(this.#link.lastSeq()),
            },
            signal,
          },
        );
        if (response.ok) {
          this.#link.state("open");
          body = response.body;
        } else if (response.status < 500) {
          // The session is gone or not ours: nothing left to follow.
          this.#link.state("open");
          return;
        }
      } catch {
        // Not reachable yet: try again after the delay.
      }
    }
  }

  /** Delivers events until the turn completed (true) or the stream ended early (false). */
  async #read(body: ReadableStream<Uint8Array>): Promise<boolean> {
    try {
      for await (const message of readEventStream(body)) {
        let payload: Record<string, unknown>;
        try {
          payload = JSON.parse(message.data);
        } catch {
          continue;
        }
        if (payload.seq === undefined && message.id) payload.seq = Number(message.id);
        this.#link.event(message.event, payload);
        if (message.event === "assistant:status" && payload.status === "completed") return true;
      }
    } catch {
      // The connection broke mid-stream.
    }
    return false;
  }

  async cancel(): Promise<void> {
    const response = await request(
      runtimeHref(
        this.#link.runtimeUrl,
        `api/chat/${encodeURIComponent(this.#link.sessionId)}/cancel`,
      ),
      { method: "POST", headers: headersOf(this.#link.headers) },
    );
    if (!response.ok && response.status !== 404) throw await errorFromResponse(response);
  }

  close(): void {
    this.#closed.abort();
    this.#link.state("closed");
  }
}

/**
 * The HTTP + server-sent events transport (the default): works wherever
 * fetch streaming works, including runtimes deployed as fetch handlers.
 *
 * @example
 * ```ts
 * const host = createHost({ runtimeUrl: "http://127.0.0.1:7100", transport: sseTransport() });
 * ```
 */
export function sseTransport(options: SseTransportOptions = {}): TransportFactory {
  return (link) => new SseTransport(link, options);
}
