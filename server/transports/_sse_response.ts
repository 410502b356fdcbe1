/**
 * A server-sent events Response built on a plain ReadableStream: writes never
 * block the publisher (the hub calls listeners synchronously), and a client
 * that goes away aborts `signal` so followers unsubscribe.
 *
 * @module
 */

/**
 * Writes to an open event stream; every method is a no-op once it closed.
 *
 * @example
 * ```ts
 * const send = (sink: SseSink) => sink.send({ event: "ping", data: "{}" });
 * ```
 */
export interface SseSink {
  /** Sends one event; `data` is written as one or more `data:` lines. */
  send(message: { event?: string; data: string; id?: string }): void;
  /** Sends a comment line (keeps proxies from closing an idle stream). */
  comment(text: string): void;
  /** Ends the stream. */
  close(): void;
  readonly closed: boolean;
}

const encoder = new TextEncoder();

/**
 * The response headers of an event stream.
 *
 * @example
 * ```ts
 * new Response(body, { headers: SSE_HEADERS });
 * ```
 */
export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
};

/**
 * Creates an event-stream Response; `start` gets the sink and a signal aborted when the client leaves.
 *
 * @example
 * ```ts
 * return sseResponse((sink) => {
 *   sink.send({ event: "assistant:status", data: '{"type":"agent_status","status":"started"}', id: "1" });
 *   sink.close();
 * });
 * ```
 */
export function sseResponse(
  start: (sink: SseSink, signal: AbortSignal) => void | Promise<void>,
): Response {
  const gone = new AbortController();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  const write = (text: string) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      closed = true;
    }
  };
  const sink: SseSink = {
    send({ event, data, id }) {
      const lines = data.split(/\r\n|\r|\n/).map((line) => `data: ${line}`).join("\n");
      write(`${event ? `event: ${event}\n` : ""}${lines}\n${id ? `id: ${id}\n` : ""}\n`);
    },
    comment: (text) => write(`: ${text}\n\n`),
    close() {
      if (closed) return;
      closed = true;
      try {
        controller.close();
      } catch { /* already closed by the client */ }
      gone.abort();
    },
    get closed() {
      return closed;
    },
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      queueMicrotask(async () => {
        try {
          await start(sink, gone.signal);
        } catch {
          sink.close();
        }
      });
    },
    cancel() {
      closed = true;
      gone.abort();
    },
  });
  return new Response(body, { status: 200, headers: SSE_HEADERS });
}
