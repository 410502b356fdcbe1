/**
 * What the three local provider servers share: the request log, JSON and
 * server-sent-event responses (with the stalls tests need), and serving a
 * handler on loopback.
 *
 * @module
 */
import { serveLoopback } from "../../server/testing/loopback.ts";
import type { Brain, BrainReply } from "./_brain.ts";

/** A model a server knows: its window and output limit (and Anthropic's cache minimum). */
export interface ServerModel {
  contextTokens: number;
  maxOutputTokens: number;
  minCacheTokens?: number;
}

/** Options every provider server takes. */
export interface ProviderServerOptions {
  /** The key the server accepts (default `test-key`); `null` accepts any or none (a local server). */
  apiKey?: string | null;
  /** What the model does (default `defaultBrain`). */
  brain?: Brain;
  /** Models beyond (or instead of) the server's defaults, by id. */
  models?: Record<string, ServerModel>;
  /** Milliseconds between streamed events (default 0). */
  chunkDelayMs?: number;
}

/** One request the server answered, as a test reads it afterwards. */
export interface RecordedRequest {
  path: string;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  // deno-lint-ignore no-explicit-any -- the provider's JSON, read by tests
  body: any;
  /** The HTTP status answered. */
  status: number;
  /** The usage answered (the provider's own fields), when the request succeeded. */
  // deno-lint-ignore no-explicit-any -- the provider's JSON, read by tests
  usage?: any;
  /** The error body answered, when it failed (in the status or in the stream). */
  // deno-lint-ignore no-explicit-any -- the provider's JSON, read by tests
  error?: any;
  /** Tokens the server counted in the request's input. */
  inputTokens?: number;
}

/** A running provider server. */
export interface ProviderServer {
  /** The base URL to give the SDK (ends in `/v1`). */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** An error a handler throws to answer with this status and body. */
export class WireError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    super(`wire error ${status}`);
    this.status = status;
    this.body = body;
  }
}

/**
 * A JSON response.
 *
 * @example
 * ```ts
 * return json(200, { ok: true });
 * ```
 */
export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** One server-sent event: `event:` (when named) and `data:` lines. */
export interface SseEvent {
  event?: string;
  data: unknown;
}

/**
 * A `text/event-stream` response of `events`; `stall` keeps it open after the first event.
 *
 * @example
 * ```ts
 * return sse([{ event: "message_stop", data: { type: "message_stop" } }], { delayMs: 0 });
 * ```
 */
export function sse(
  events: SseEvent[],
  options: { delayMs: number; stall?: boolean; done?: boolean; signal?: AbortSignal },
): Response {
  const encoder = new TextEncoder();
  const frame = (e: SseEvent) =>
    encoder.encode(
      `${e.event ? `event: ${e.event}\n` : ""}data: ${
        typeof e.data === "string" ? e.data : JSON.stringify(e.data)
      }\n\n`,
    );
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const [i, event] of events.entries()) {
        if (options.delayMs && i) await new Promise((r) => setTimeout(r, options.delayMs));
        controller.enqueue(frame(event));
        if (options.stall) return; // nothing more, ever: the client must give up
      }
      if (options.done) controller.enqueue(encoder.encode("data: [DONE]\n\n"));
      controller.close();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}

/** Waits until the client gives up (its request aborts); a stall before any header. */
export function never(signal: AbortSignal): Promise<Response> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener("abort", () => reject(new Error("client gave up")), { once: true });
  });
}

/** Reads a request body as JSON, or null when it is not JSON. */
// deno-lint-ignore no-explicit-any -- request JSON, validated field by field by each server
export async function readJson(request: Request): Promise<any> {
  try {
    return JSON.parse(await request.text());
  } catch {
    return null;
  }
}

/** Header names and values, lower-cased names. */
export function headersOf(request: Request): Record<string, string> {
  const out: Record<string, string> = {};
  request.headers.forEach((value, key) => (out[key] = value));
  return out;
}

/**
 * Serves a provider handler on 127.0.0.1, port 0; the handler sees paths after `/v1`.
 *
 * @example
 * ```ts
 * const server = await serveProvider(handler, requests);
 * ```
 */
export async function serveProvider(
  handler: (request: Request) => Promise<Response>,
  requests: RecordedRequest[],
): Promise<ProviderServer> {
  const loop = await serveLoopback(handler);
  return { url: `${loop.url}/v1`, requests, close: () => loop.close() };
}

/**
 * A handler that records each request (headers, JSON body, status, error) and answers a thrown
 * `WireError` with its status and body.
 *
 * @example
 * ```ts
 * const handler = recorded(requests, async (request, record) => json(200, {}));
 * ```
 */
export function recorded(
  requests: RecordedRequest[],
  handle: (request: Request, record: RecordedRequest, url: URL) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const record: RecordedRequest = {
      path: url.pathname,
      headers: headersOf(request),
      body: null,
      status: 0,
    };
    requests.push(record);
    try {
      const response = await handle(request, record, url);
      record.status = response.status;
      return response;
    } catch (error) {
      if (!(error instanceof WireError)) throw error;
      record.status = error.status;
      record.error = error.body;
      return json(error.status, error.body);
    }
  };
}

/** Whether a JSON value is a plain object. */
export const isObject = (v: unknown): boolean =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The brain's reply, with a missing one read as an empty text. */
export async function think(brain: Brain, ...args: Parameters<Brain>): Promise<BrainReply> {
  return (await brain(...args)) ?? { text: "" };
}

/** Ids in each provider's own style. */
export function makeId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return prefix + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
