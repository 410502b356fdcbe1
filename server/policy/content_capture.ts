/**
 * What an approval request keeps of a call's context, by the capture mode
 * (`POLICY__CONTENT_CAPTURE`), as Zentinelle's content capture does:
 * `metadata` keeps who, where and which tool but no content (`tool_input`,
 * `tool_args`, prompts, outputs), `redacted` keeps content with secrets and
 * personal data masked, `full` (the embedded engine's default: Tether's
 * extension, since an approver must see what they release) keeps it as sent.
 * Secret fields (`approval_token`, keys, passwords) and `_`-prefixed
 * internals are never kept. Other content is bounded (Tether's own limit).
 *
 * The call's input (`tool_input`, `tool_args`) is kept whole or not at all:
 * never clipped, since an approval releases all of it. When it is not kept
 * (metadata capture, or longer than `MAX_INPUT_CHARS`) the request says so,
 * `input_withheld` with `input_withheld_reason`, and cannot be approved.
 * Secret fields inside it show as `[REDACTED]`, so the approver sees they are there.
 *
 * @module
 */
import { redact } from "../log.ts";

/** A capture mode. */
export type CaptureMode = "metadata" | "redacted" | "full";

/** The capture modes, for validation. */
export const CAPTURE_MODES: readonly CaptureMode[] = ["metadata", "redacted", "full"];

const CONTENT_KEYS = new Set([
  "input",
  "output",
  "input_text",
  "output_text",
  "input_content",
  "output_content",
  "request_body",
  "response_body",
  "messages",
  "prompt",
  "system_prompt",
  "tool_args",
  "tool_input",
  "tool_calls",
  "tool_outputs",
  "rag_context",
  "extracted_text",
  "content",
]);
const SECRET_KEYS = new Set([
  "api_key",
  "apikey",
  "authorization",
  "password",
  "secret",
  "token",
  "approval_token",
]);

// Each pattern is linear: bounded runs, no nested quantifiers.
const MASKS: RegExp[] = [
  /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[\s\S]{0,20000}?-----END [A-Z ]{0,40}PRIVATE KEY-----/g,
  /\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,255}\.[A-Za-z]{2,24}\b/g,
  /\b(?:sk|pk|rk|ghp|gho|xox[abp])[-_][A-Za-z0-9_-]{12,200}\b/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\b(?:\d[ -]?){13,19}\b/g,
];
const MASK = "[REDACTED]";
const MAX_TEXT = 2_000;
const MAX_DEPTH = 8;
const MAX_ENTRIES = 100;

/**
 * The patterns first, then the configured secrets: a configured secret's piece inside a key
 * that looks secret, redacted first, would break the key's pattern and leave the rest of it
 * (`sk-live[redacted]abcdef0123`) for the approver to read.
 */
function maskText(text: string): string {
  let out = text;
  for (const pattern of MASKS) out = out.replace(pattern, MASK);
  return redact(out);
}

function keep(value: unknown, mode: CaptureMode, depth: number): unknown {
  if (typeof value === "string") {
    const text = mode === "redacted" ? maskText(value) : value;
    return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
  }
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[nested too deep]";
  if (Array.isArray(value)) {
    return value.slice(0, MAX_ENTRIES).map((v) => keep(v, mode, depth + 1));
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value).slice(0, MAX_ENTRIES)) {
    const lower = key.toLowerCase();
    if (SECRET_KEYS.has(lower) || key.startsWith("_")) continue;
    if (mode === "metadata" && CONTENT_KEYS.has(lower)) continue;
    out[key] = keep(v, mode, depth + 1);
  }
  return out;
}

/** The longest input (as JSON text) an approval request keeps; a longer one is withheld, never clipped. */
export const MAX_INPUT_CHARS = 65_536;
const INPUT_KEYS = ["tool_input", "tool_args"];

/** The input as sent (masked under `redacted`), whole: no clipping, secret fields shown masked. */
function whole(value: unknown, mode: CaptureMode): unknown {
  if (typeof value === "string") return mode === "redacted" ? maskText(value) : value;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => whole(v, mode));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEYS.has(key.toLowerCase()) ? MASK : whole(v, mode);
  }
  return out;
}

/**
 * The part of a context an approval request keeps under a capture mode.
 *
 * @example
 * ```ts
 * captureContext({ tool_name: "Bash", tool_input: { command: "ls" } }, "metadata"); // { tool_name: "Bash" }
 * ```
 */
export function captureContext(
  context: Record<string, unknown>,
  mode: CaptureMode,
): Record<string, unknown> {
  const rest = { ...context };
  for (const key of INPUT_KEYS) delete rest[key];
  const out = keep(rest, mode, 0) as Record<string, unknown>;
  let withheld = "";
  for (const key of INPUT_KEYS) {
    if (context[key] === undefined) continue;
    if (mode === "metadata") {
      withheld =
        "the call's input was not kept (POLICY__CONTENT_CAPTURE is metadata), so nobody can see it";
    } else if ((JSON.stringify(context[key]) ?? "").length > MAX_INPUT_CHARS) {
      withheld =
        `the call's input is longer than ${MAX_INPUT_CHARS} characters, too long to show whole`;
    } else out[key] = whole(context[key], mode);
  }
  if (withheld) {
    for (const key of INPUT_KEYS) delete out[key];
    out.input_withheld = true;
    out.input_withheld_reason = withheld;
  }
  return out;
}
