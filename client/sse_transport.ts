/**
 * The HTTP transport: each message is a `POST /api/chat` whose answer streams
 * the turn as server-sent events. When a stream breaks before the turn
 * completed, it resumes from `GET /api/sessions/{id}/events` with
 * `Last-Event-ID`, so no event is lost or repeated. With `follow`, that
 * stream stays open, so turns started by another tab or client stream in too.
 *
 * @module
 */
import { errorFromResponse, headersOf, request, runtimeHref } from "./_http.ts";
import { sleep } from "./_sleep.ts";
import { readEventStream } from "./_sse.ts";
import type { Transport, TransportFactory, TransportLink } from "./transport.ts";

/**
 * Options of `sseTransport()`.
 *
 * @example
 * ```ts
 * sseTransport({ follow: true }); // also show turns that other tabs start
 * ```
 */
export interface SseTransportOptions {
  /** First delay before resuming a broken stream, in ms (doubles up to 10 s). Default 250. */
  retryDelay?: number;
  /** `false`: ask for the plain JSON result instead of a stream (for proxies that buffer SSE). Default true. */
  stream?: boolean;
  /**
   * Keep the session's event stream open once the session exists, resuming
   * it with `Last-Event-ID` whenever it breaks: turns started by another
   * tab or client stream into this host too. Needs `stream` (ignored with
   * `stream: false`). Default false (`<tether-chat>`: true).
   */
  follow?: boolean;
}

class SseTransport implements Transport {
  readonly name = "sse";
  #link: TransportLink;
  #options: SseTransportOptions;
  #closed = new AbortController();
  /** Resolves once the follower's stream answered (or failed) for the first time. */
  #following: Promise<void> | undefined;

  constructor(link: TransportLink, options: SseTransportOptions) {
    this.#link = link;
    this.#options = options;
  }

  connect(): Promise<void> {
    this.#link.state("open");
    return Promise.resolve();
  }

  follow(fromStart = false): Promise<void> | undefined {
    if (!this.#options.follow || this.#options.stream === false) return;
    return this.#following ??= new Promise<void>((opened) => {
      void this.#resume(null, opened, fromStart).finally(() => (this.#following = undefined));
    });
  }

  async send(body: Record<string, unknown>): Promise<void> {
    const stream = this.#options.stream ?? true;
    const response = await request(runtimeHref(this.#link.runtimeUrl, "api/chat"), {
      method: "POST",
      headers: {
        ...headersOf(this.#link.headers),
        "content-type": "application/json",
        accept: stream ? "text/event-stream" : "application/json",
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
    // A follower's own stream makes up for this one if it breaks.
    if (this.#following) void this.#read(response.body!, true);
    else void this.#resume(response.body);
  }

  /**
   * Reads `body`, then the session's event stream from the last event seen,
   * as often as it breaks: until the turn completed, or for good when
   * following (`follow` is called after each attempt to open it).
   */
  async #resume(
    body: ReadableStream<Uint8Array> | null,
    follow?: () => void,
    fromStart = false,
  ): Promise<void> {
    const signal = this.#closed.signal;
    let delay = this.#options.retryDelay ?? 250;
    while (!signal.aborted) {
      if (body) {
        if (await this.#read(body, !follow)) return;
        this.#link.state("reconnecting");
        await sleep(delay, signal);
        delay = Math.min(delay * 2, 10_000);
      }
      body = null;
      const seq = this.#link.lastSeq();
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
              // Without a seq (a follower that just arrived) the stream starts live, or at the
              // start of a turn running now; a session created after this page asked is read
              // from its first event.
              ...(seq || !follow || fromStart ? { "last-event-id": String(seq) } : {}),
            },
            signal,
          },
        );
        follow?.();
        if (response.ok) {
          this.#link.state("open");
          body = response.body;
          if (follow) delay = this.#options.retryDelay ?? 250;
          continue;
        }
        if (response.status < 500) {
          // The session is gone or not ours: nothing left to follow.
          this.#link.state("open");
          return;
        }
      } catch {
        // Not reachable yet: try again after the delay.
        follow?.();
      }
      this.#link.state("reconnecting");
      await sleep(delay, signal);
      delay = Math.min(delay * 2, 10_000);
    }
  }

  /** Delivers events until the turn completed (`once`: true) or the stream ended (false). */
  async #read(body: ReadableStream<Uint8Array>, once: boolean): Promise<boolean> {
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
        if (once && message.event === "assistant:status" && payload.status === "completed") {
          return true;
        }
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
