/**
 * A server-sent events parser over a fetch body (EventSource cannot POST or
 * set Last-Event-ID on the first request, so the SDK reads the stream itself).
 *
 * @module
 */

/** One event of the stream. */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/** Yields the events of an SSE body in order; ends when the body ends. */
export async function* readEventStream(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "message";
  let data: string[] = [];
  let id: string | undefined;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        // A CR at the end of a chunk may be the first half of a CRLF.
        if (newline === buffer.length - 1 && buffer[newline] === "\r") break;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
        if (line === "") {
          if (data.length) yield { event, data: data.join("\n"), id };
          event = "message";
          data = [];
          id = undefined;
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? "" : line.slice(colon + (line[colon + 1] === " " ? 2 : 1));
        if (field === "event") event = text;
        else if (field === "data") data.push(text);
        else if (field === "id") id = text;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
