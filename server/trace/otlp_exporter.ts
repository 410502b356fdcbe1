/**
 * Exports finished spans as OTLP/HTTP JSON: batched, from a bounded queue
 * (spans beyond it are dropped and counted), sent in the background so a
 * turn never waits for the collector.
 *
 * @module
 */
import type { Logger } from "../log.ts";
import { backgroundInterval } from "../background_timer.ts";

/** An OTLP attribute value. */
export type AttributeValue = string | number | boolean;

/** A finished span, ready to send. */
export interface FinishedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 3 client. */
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, AttributeValue>;
  error?: string;
}

/** Where and how spans go. */
export interface ExporterOptions {
  /** The traces URL (`.../v1/traces`). */
  url: string;
  headers: Record<string, string>;
  serviceName: string;
  logger: Logger;
  /** Most spans held while waiting to be sent (default 2,048). */
  maxQueue?: number;
  /** Most spans per request (default 512). */
  maxBatch?: number;
  /** How often the queue is sent (ms, default 1,000). */
  intervalMs?: number;
  fetch?: typeof fetch;
}

const nanos = (ms: number) => `${Math.round(ms * 1000)}000`;

function attributes(attrs: Record<string, AttributeValue>) {
  return Object.entries(attrs).map(([key, v]) => ({
    key,
    value: typeof v === "string"
      ? { stringValue: v }
      : typeof v === "boolean"
      ? { boolValue: v }
      : Number.isInteger(v)
      ? { intValue: String(v) }
      : { doubleValue: v },
  }));
}

/**
 * The exporter.
 *
 * @example
 * ```ts
 * const exporter = new OtlpExporter({ url: "http://127.0.0.1:4318/v1/traces", headers: {}, serviceName: "tether", logger: log });
 * ```
 */
export class OtlpExporter {
  #o: Required<Omit<ExporterOptions, "fetch">> & { fetch: typeof fetch };
  #queue: FinishedSpan[] = [];
  #stopTimer: () => void;
  #sending: Promise<void> = Promise.resolve();
  #dropped = 0;
  #warned = 0;

  constructor(options: ExporterOptions) {
    this.#o = { maxQueue: 2_048, maxBatch: 512, intervalMs: 1_000, fetch, ...options };
    this.#stopTimer = backgroundInterval(() => void this.flush(), this.#o.intervalMs);
  }

  /** Queues a span; never blocks (a full queue drops it). */
  push(span: FinishedSpan): void {
    if (this.#queue.length >= this.#o.maxQueue) {
      this.#dropped++;
      return;
    }
    this.#queue.push(span);
    if (this.#queue.length >= this.#o.maxBatch) void this.flush();
  }

  /** Sends what is queued, one batch after another. */
  flush(): Promise<void> {
    this.#sending = this.#sending.then(async () => {
      while (this.#queue.length) await this.#send(this.#queue.splice(0, this.#o.maxBatch));
    });
    return this.#sending;
  }

  /** Sends the rest and stops the timer. */
  async close(): Promise<void> {
    this.#stopTimer();
    await this.flush();
  }

  async #send(spans: FinishedSpan[]): Promise<void> {
    const body = {
      resourceSpans: [{
        resource: { attributes: attributes({ "service.name": this.#o.serviceName }) },
        scopeSpans: [{
          scope: { name: "tether" },
          spans: spans.map((s) => ({
            traceId: s.traceId,
            spanId: s.spanId,
            ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
            name: s.name,
            kind: s.kind,
            startTimeUnixNano: nanos(s.startMs),
            endTimeUnixNano: nanos(s.endMs),
            attributes: attributes(s.attributes),
            status: s.error ? { code: 2, message: s.error } : { code: 1 },
          })),
        }],
      }],
    };
    try {
      const res = await this.#o.fetch(this.#o.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...this.#o.headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`the collector answered ${res.status}`);
    } catch (error) {
      // One warning a minute at most: a collector that is down must not flood the log.
      if (Date.now() - this.#warned > 60_000) {
        this.#warned = Date.now();
        this.#o.logger.warn("OTLP spans were not exported", {
          error: (error as Error).message,
          spans: spans.length,
          dropped_before: this.#dropped,
        });
      }
    }
  }
}
