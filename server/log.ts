/**
 * The runtime's one logger: every line is one JSON object (`time`, `level`,
 * `msg`, then fields), so a value can never start a line of its own (control
 * characters, ANSI escapes and line separators are escaped), and every
 * configured secret, and every piece of one of `SECRET_FRAGMENT` characters
 * or more, is replaced by `[redacted]` before the line is written. The same
 * redaction runs on events and on what tool servers answer (`redactValue`).
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
/**
 * Characters of a secret that are redacted wherever they appear, not only the whole secret: a
 * provider's parse error may quote a piece of a key (`"bad":sk-live-LE`). Shorter pieces are left.
 */
export const SECRET_FRAGMENT = 8;
const secrets = new Set<string>();
// Every piece of SECRET_FRAGMENT characters of every secret, and their rolling hashes.
const pieces = new Set<string>();
const pieceHashes = new Set<number>();
// A quick filter before the set: one byte per 16-bit fold of a hash.
const FILTER = new Uint8Array(1 << 16);
const fold = (h: number) => (h ^ (h >>> 16)) & 0xffff;
// Secrets shorter than a piece are matched whole, longest first.
let short: string[] = [];

// A rolling hash of SECRET_FRAGMENT UTF-16 units: h = sum(c[i] * B^(K-1-i)) mod 2^32.
const B = 131;
let B_TOP = 1; // B^(K-1) mod 2^32
for (let i = 1; i < SECRET_FRAGMENT; i++) B_TOP = Math.imul(B_TOP, B);
const hashAt = (text: string, at: number) => {
  let h = 0;
  for (let i = at; i < at + SECRET_FRAGMENT; i++) h = (Math.imul(h, B) + text.charCodeAt(i)) | 0;
  return h;
};

/**
 * Registers a value that must never appear in a log line, an event or an answer (an API key, a
 * token, a password), whole or in pieces of {@linkcode SECRET_FRAGMENT} characters.
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
  if (secret.length < SECRET_FRAGMENT) {
    short = [...short, secret].sort((a, b) => b.length - a.length);
    return;
  }
  for (let i = 0; i + SECRET_FRAGMENT <= secret.length; i++) {
    pieces.add(secret.slice(i, i + SECRET_FRAGMENT));
    const h = hashAt(secret, i);
    pieceHashes.add(h);
    FILTER[fold(h)] = 1;
  }
}

/**
 * Replaces every registered secret in `text`, and every run of characters made of pieces of one
 * (any {@linkcode SECRET_FRAGMENT} characters of a secret), by `[redacted]`. Linear in the text.
 *
 * @example
 * ```ts
 * registerSecret("sk-live-0123456789abcdef");
 * redact("key sk-live-0123456789abcdef refused"); // "key [redacted] refused"
 * redact('Unexpected token in {"bad":sk-live-01'); // 'Unexpected token in {"bad":[redacted]'
 * ```
 */
export function redact(text: string): string {
  let out = text;
  for (const secret of short) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  if (!pieces.size || out.length < SECRET_FRAGMENT) return out;
  // Marks [start, end) runs covered by pieces, then writes the text with each run replaced.
  let result = "";
  let kept = 0; // end of the text already written
  let runStart = -1;
  let runEnd = -1;
  let h = hashAt(out, 0);
  for (let i = 0; i + SECRET_FRAGMENT <= out.length; i++) {
    if (i > 0) {
      const gone = Math.imul(out.charCodeAt(i - 1), B_TOP);
      h = (Math.imul(h - gone, B) + out.charCodeAt(i + SECRET_FRAGMENT - 1)) | 0;
    }
    if (!FILTER[fold(h)] || !pieceHashes.has(h)) continue;
    if (!pieces.has(out.slice(i, i + SECRET_FRAGMENT))) continue;
    if (i <= runEnd) runEnd = i + SECRET_FRAGMENT;
    else {
      if (runStart >= 0) result += out.slice(kept, runStart) + REDACTED, kept = runEnd;
      runStart = i;
      runEnd = i + SECRET_FRAGMENT;
    }
  }
  if (runStart < 0) return out;
  return result + out.slice(kept, runStart) + REDACTED + out.slice(runEnd);
}

/**
 * A JSON value with {@linkcode redact} applied to every string in it (keys too); the value itself
 * when nothing needed it. Used on what leaves the server: events, and what tool servers answer.
 *
 * @example
 * ```ts
 * redactValue({ result: { echoed: "Bearer s3cret-value" } }); // { result: { echoed: "Bearer [redacted]" } }
 * ```
 */
export function redactValue<T>(value: T): T {
  if (!secrets.size) return value;
  return redactIn(value) as T;
}

function redactIn(value: unknown): unknown {
  if (typeof value === "string") return redact(value);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = redactIn(v);
      if (r !== v) changed = true;
      return r;
    });
    return changed ? out : value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const k = redact(key);
    const r = redactIn(v);
    if (k !== key || r !== v) changed = true;
    out[k] = r;
  }
  return changed ? out : value;
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
