/**
 * The runtime's one logger: every line is one JSON object (`time`, `level`,
 * `msg`, then fields), so a value can never start a line of its own (control
 * characters, ANSI escapes and line separators are escaped), and every
 * configured secret is replaced by `[redacted]` before the line is written.
 *
 * @module
 */

/** How serious a line is. */
export type LogLevel = "info" | "warn" | "error";

/** Structured values of a line; an `Error` is written as its name, message and stack. */
export type LogFields = Record<string, unknown>;

/** Where finished lines go (one JSON object per call, no trailing newline). */
export type LogSink = (line: string, level: LogLevel) => void;

/**
 * Writes structured lines.
 *
 * @example
 * ```ts
 * const logger: Logger = createLogger();
 * logger.warn("turn failed", { session_id: "s1", error: new Error("boom") });
 * ```
 */
export interface Logger {
  /** Something an operator may want to know (startup, configuration). */
  info(msg: string, fields?: LogFields): void;
  /** Something went wrong but the runtime carried on. */
  warn(msg: string, fields?: LogFields): void;
  /** A failure that lost work (a turn, a request). */
  error(msg: string, fields?: LogFields): void;
}

const REDACTED = "[redacted]";
// Shorter values would redact ordinary words; no real key or password is this short.
const MIN_SECRET = 6;
const secrets = new Set<string>();
let sorted: string[] = [];

/**
 * Registers a value that must never appear in a log line (an API key, a token, a password).
 * Remote-tool secrets learnt at run time are registered the same way.
 *
 * @example
 * ```ts
 * registerSecret(env.OPENAI_API_KEY);
 * ```
 */
export function registerSecret(secret: string | undefined | null): void {
  if (typeof secret !== "string" || secret.length < MIN_SECRET || secrets.has(secret)) return;
  secrets.add(secret);
  // Longest first, so a secret that contains another is replaced whole.
  sorted = [...secrets].sort((a, b) => b.length - a.length);
}

/**
 * Replaces every registered secret in `text` by `[redacted]`.
 *
 * @example
 * ```ts
 * registerSecret("sk-test-123456");
 * redact("key sk-test-123456 refused"); // "key [redacted] refused"
 * ```
 */
export function redact(text: string): string {
  let out = text;
  for (const secret of sorted) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

// JSON.stringify escapes U+0000..U+001F; these remain: DEL, the C1 controls and the line separators.
const UNSAFE = /[\u007f-\u009f\u2028\u2029]/g;
const escapeRest = (json: string) =>
  json.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

function plain(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redact(value);
  if (value instanceof Error) {
    return { name: value.name, message: redact(value.message), stack: redact(value.stack ?? "") };
  }
  if (value === null || typeof value !== "object") {
    return typeof value === "bigint" ? String(value) : value;
  }
  if (depth > 8) return "[nested too deep]";
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => plain(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value).slice(0, 100)) {
    out[redact(key)] = plain(v, depth + 1);
  }
  return out;
}

/**
 * One log line as JSON text: control characters escaped, secrets redacted.
 *
 * @example
 * ```ts
 * formatLogLine("warn", "bad\r\nline", { session_id: "s1" });
 * // '{"time":"…","level":"warn","msg":"bad\\r\\nline","session_id":"s1"}'
 * ```
 */
export function formatLogLine(level: LogLevel, msg: string, fields: LogFields = {}): string {
  const body = plain(fields) as Record<string, unknown>;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg: redact(msg), ...body });
  return redact(escapeRest(line));
}

const consoleSink: LogSink = (line, level) => {
  if (level === "info") console.log(line);
  else console.error(line);
};

/**
 * A logger writing to `sink` (default: standard error, info on standard output).
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * const logger = createLogger((line) => lines.push(line));
 * ```
 */
export function createLogger(sink: LogSink = consoleSink): Logger {
  const write = (level: LogLevel) => (msg: string, fields?: LogFields) => {
    try {
      sink(formatLogLine(level, msg, fields), level);
    } catch {
      // A broken sink must not take a request down with it.
    }
  };
  return { info: write("info"), warn: write("warn"), error: write("error") };
}

/**
 * The process-wide logger, for code that has no runtime options at hand (stores, entries).
 *
 * @example
 * ```ts
 * log.error("Redis store connection error", { error });
 * ```
 */
export const log: Logger = createLogger();
