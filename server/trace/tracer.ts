/**
 * Spans of a turn: the turn itself, each model request, each tool call and
 * each policy gate decision, with the session id as an attribute. Message and
 * tool content (arguments, reasons) are recorded only when content capture
 * is on (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`).
 *
 * @module
 */
import type { AttributeValue, FinishedSpan, OtlpExporter } from "./otlp_exporter.ts";

const hex = (bytes: number) =>
  [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0"))
    .join("");

/** A span being recorded. */
export interface Span {
  readonly spanId: string;
  /** Adds attributes. */
  set(attrs: Record<string, AttributeValue>): void;
  /** Ends the span (with an error status when `error` is given). Ending twice does nothing. */
  end(error?: string): void;
}

/**
 * The spans of one turn.
 *
 * @example
 * ```ts
 * const trace = tracer.turn("s1", "offline");
 * trace.model("offline").end();
 * trace.end();
 * ```
 */
export class TurnTrace {
  readonly #tracer: Tracer;
  readonly #traceId = hex(16);
  readonly #root: Span;
  readonly #base: Record<string, AttributeValue>;
  #open = new Set<Span>();

  constructor(tracer: Tracer, sessionId: string, model: string) {
    this.#tracer = tracer;
    this.#base = {
      "session.id": sessionId,
      "gen_ai.conversation.id": sessionId,
      // The attribute agent host receivers (Zentinelle) read the session from.
      "vscode.agent_host.session.uri": sessionId,
    };
    this.#root = this.#span(`invoke_agent ${model}`, {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.request.model": model,
    });
  }

  /** Whether arguments and reasons may be recorded. */
  get capture(): boolean {
    return this.#tracer.capture;
  }

  #span(name: string, attrs: Record<string, AttributeValue>, parent?: string, kind = 1): Span {
    const spanId = hex(8);
    const startMs = performance.timeOrigin + performance.now();
    const all = { ...this.#base, ...attrs };
    let ended = false;
    const span: Span = {
      spanId,
      set: (more) => Object.assign(all, more),
      end: (error) => {
        if (ended) return;
        ended = true;
        this.#open.delete(span);
        const finished: FinishedSpan = {
          traceId: this.#traceId,
          spanId,
          ...(parent ? { parentSpanId: parent } : {}),
          name,
          kind,
          startMs,
          endMs: performance.timeOrigin + performance.now(),
          attributes: all,
          ...(error ? { error } : {}),
        };
        this.#tracer.exporter.push(finished);
      },
    };
    this.#open.add(span);
    return span;
  }

  /** A model request. */
  model(model: string): Span {
    return this.#span(
      `chat ${model}`,
      {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": model,
      },
      this.#root.spanId,
      3,
    );
  }

  /** A tool call (its arguments only with content capture). */
  tool(name: string, callId: string, category: string, args: unknown): Span {
    return this.#span(`execute_tool ${name}`, {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": name,
      "gen_ai.tool.call.id": callId,
      "tether.tool.category": category,
      ...(this.capture ? { "gen_ai.tool.call.arguments": JSON.stringify(args) ?? "" } : {}),
    }, this.#root.spanId);
  }

  /** A policy gate decision, recorded as a finished span. */
  gate(name: string, callId: string, decision: string, reason: string | null, startMs: number) {
    const span = this.#span(`policy ${decision}`, {
      "tether.policy.decision": decision,
      "gen_ai.tool.name": name,
      "gen_ai.tool.call.id": callId,
      ...(this.capture && reason ? { "tether.policy.reason": reason } : {}),
      "tether.policy.duration_ms": Math.round(performance.timeOrigin + performance.now() - startMs),
    }, this.#root.spanId);
    span.end();
  }

  /** Ends the turn, and every span it left open (they ended with it). */
  end(error?: string): void {
    for (const s of [...this.#open]) if (s !== this.#root) s.end(error ?? "the turn ended first");
    this.#root.end(error);
  }

  /** Adds attributes to the turn span. */
  set(attrs: Record<string, AttributeValue>): void {
    this.#root.set(attrs);
  }
}

/**
 * Makes the spans of turns and sends them to an exporter.
 *
 * @example
 * ```ts
 * const tracer = new Tracer(exporter, false);
 * ```
 */
export class Tracer {
  readonly exporter: OtlpExporter;
  readonly capture: boolean;

  constructor(exporter: OtlpExporter, capture: boolean) {
    this.exporter = exporter;
    this.capture = capture;
  }

  /** Starts the spans of one turn. */
  turn(sessionId: string, model: string): TurnTrace {
    return new TurnTrace(this, sessionId, model);
  }

  /** Sends what is queued and stops. */
  close(): Promise<void> {
    return this.exporter.close();
  }
}
