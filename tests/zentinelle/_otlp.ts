/**
 * Zentinelle's OTLP/HTTP JSON receiver rules (`services/otlp.py`, #378),
 * ported: the whole batch is validated before any span is kept; at most
 * 1,000 spans a request (and entries per list); trace and span ids are
 * nonzero hex of 32 and 16 digits; times are Unix nanoseconds (a string or
 * a whole number, never a boolean) and a span may not end before it starts;
 * attribute keys take 255 characters, span names 1,000, the session id
 * (`vscode.agent_host.session.uri`, else `session_id`) 255.
 *
 * @module
 */

/** A batch the receiver refuses; the message is its 400 body's only entry. */
export class OtlpRejected extends Error {
  override name = "OtlpRejected";
}

/** One span as the receiver keeps it: an `agent_host.span` telemetry event. */
export interface SpanEvent {
  event_id: string;
  timestamp_ms: number;
  payload: {
    context: { session_id: string };
    trace_id: string;
    span_id: string;
    parent_span_id: string;
    duration_ms: number;
    status: unknown;
    content: { name: string; attributes: Record<string, unknown> };
  };
}

export const MAX_SPANS = 1000;
const SESSION_ATTRIBUTE = "vscode.agent_host.session.uri";

const reject = (message: string): never => {
  throw new OtlpRejected(message);
};

function object(value: unknown, label: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    reject(`${label} must be an object`);
  }
  return value as Record<string, unknown>;
}

function entries(value: unknown, label: string): unknown[] {
  if (!Array.isArray(value) || value.length > MAX_SPANS) {
    reject(`${label} must be a list of at most ${MAX_SPANS} entries`);
  }
  return value as unknown[];
}

function attributes(value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const raw of entries(value ?? [], "attributes")) {
    const item = object(raw, "attribute");
    if (typeof item.key !== "string" || item.key.length > 255) {
      reject("attribute keys must be strings of at most 255 characters");
    }
    const data = object(item.value, "attribute value");
    out[item.key as string] = data.stringValue ?? data.intValue ?? data.boolValue ??
      data.doubleValue;
  }
  return out;
}

function id(value: unknown, size: number, label: string): string {
  if (
    typeof value !== "string" || value.length !== size || !/^[0-9a-fA-F]+$/.test(value) ||
    /^0+$/.test(value)
  ) {
    reject(`${label} must be a nonzero ${size}-digit hex string`);
  }
  return (value as string).toLowerCase();
}

function time(value: unknown): bigint {
  const bad = () => reject("span timestamps must be valid Unix nanoseconds");
  if (typeof value === "boolean" || (typeof value !== "string" && typeof value !== "number")) {
    return bad();
  }
  if (typeof value === "number" && !Number.isInteger(value)) return bad();
  const text = String(value).trim();
  if (!/^[+-]?\d+$/.test(text)) return bad();
  const nanos = BigInt(text);
  // Python's datetime tops out at year 9999.
  if (nanos < 0n || nanos > 253402300799999999999n) return bad();
  return nanos;
}

/**
 * Validates a whole OTLP request, then turns its spans into events.
 *
 * @example
 * ```ts
 * const events = traceEvents(JSON.parse(body));
 * ```
 */
export function traceEvents(payload: unknown): SpanEvent[] {
  const request = object(payload, "OTLP request");
  const events: SpanEvent[] = [];
  for (const rawResource of entries(request.resourceSpans ?? [], "resourceSpans")) {
    const resource = object(rawResource, "resourceSpans entry");
    const resourceAttrs = attributes(object(resource.resource ?? {}, "resource").attributes ?? []);
    for (const rawScope of entries(resource.scopeSpans ?? [], "scopeSpans")) {
      const scope = object(rawScope, "scopeSpans entry");
      for (const rawSpan of entries(scope.spans ?? [], "spans")) {
        if (events.length >= MAX_SPANS) reject(`at most ${MAX_SPANS} spans per request`);
        const span = object(rawSpan, "span");
        const traceId = id(span.traceId, 32, "traceId");
        const spanId = id(span.spanId, 16, "spanId");
        const attrs = { ...resourceAttrs, ...attributes(span.attributes ?? []) };
        const session = attrs[SESSION_ATTRIBUTE] ?? attrs.session_id ?? "";
        if (typeof session !== "string" || session.length > 255) {
          reject("session id must be a string of at most 255 characters");
        }
        const name = span.name ?? "";
        if (typeof name !== "string" || name.length > 1000) {
          reject("span name must be a string of at most 1000 characters");
        }
        const start = time(span.startTimeUnixNano);
        const end = time(span.endTimeUnixNano);
        if (end < start) reject("span end precedes its start");
        // Python's datetime keeps microseconds: the duration is read at that precision.
        const duration = Number((end / 1000n) - (start / 1000n)) / 1000;
        events.push({
          event_id: `otlp:${traceId}:${spanId}`,
          timestamp_ms: Number(start / 1_000_000n),
          payload: {
            context: { session_id: session as string },
            trace_id: traceId,
            span_id: spanId,
            parent_span_id: String(span.parentSpanId ?? ""),
            duration_ms: duration,
            status: object(span.status ?? {}, "span status").code ?? 0,
            content: { name: name as string, attributes: attrs },
          },
        });
      }
    }
  }
  return events;
}
