/**
 * The tracer the standard OpenTelemetry variables ask for, or null:
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`),
 * `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_SERVICE_NAME` and
 * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`.
 *
 * @module
 */
import { type Logger, registerSecret } from "../log.ts";
import { OtlpExporter } from "./otlp_exporter.ts";
import { Tracer } from "./tracer.ts";

/**
 * The traces URL: a traces endpoint as given; a base endpoint gets `/v1/traces`
 * unless it already ends with it (Zentinelle's receiver URL does).
 *
 * @example
 * ```ts
 * tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }); // "http://127.0.0.1:4318/v1/traces"
 * ```
 */
export function tracesUrl(env: Record<string, string | undefined>): string | null {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, "");
  if (!base) return null;
  return base.endsWith("/v1/traces") ? base : `${base}/v1/traces`;
}

/**
 * Parses `key=value,key2=value2` (values URL-decoded).
 *
 * @example
 * ```ts
 * parseHeaders("X-Zentinelle-Key=sk_agent_1"); // { "X-Zentinelle-Key": "sk_agent_1" }
 * ```
 */
export function parseHeaders(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    let value = pair.slice(at + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch { /* kept as written */ }
    if (key) out[key] = value;
  }
  return out;
}

/**
 * A tracer when an OTLP endpoint is configured, else null (no spans are made).
 *
 * @example
 * ```ts
 * const tracer = tracerFromEnv(process.env, log);
 * ```
 */
export function tracerFromEnv(
  env: Record<string, string | undefined>,
  logger: Logger,
): Tracer | null {
  const url = tracesUrl(env);
  if (!url) return null;
  const headers = parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS);
  for (const value of Object.values(headers)) registerSecret(value);
  const exporter = new OtlpExporter({
    url,
    headers,
    serviceName: env.OTEL_SERVICE_NAME || "tether",
    logger,
  });
  const capture = (env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT ?? "").toLowerCase() ===
    "true";
  return new Tracer(exporter, capture);
}
