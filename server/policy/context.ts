/**
 * Checks an evaluation body before any policy reads it: a host tool call
 * missing `harness`, `session_id` or `tool_name`, or with a malformed field,
 * is refused with the contract's 400 answer naming each field.
 *
 * @module
 */
import type { EvaluateBody } from "./contract.ts";

/** The 400 body: `{"error": ..., "context": {"session_id": ["This field is required."]}}`. */
export interface ContextRefusal {
  error: string;
  [field: string]: unknown;
}

const REQUIRED = "This field is required.";
const SLUG = /^[a-z0-9][a-z0-9._-]{0,49}$/;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Validates an evaluation body; returns it typed, or the refusal to answer with 400.
 *
 * @example
 * ```ts
 * const checked = checkEvaluateBody({ action: "tool_call", context: { harness: "claude", session_id: "s", tool_name: "Bash" } });
 * if ("error" in checked) console.log(checked.context);
 * ```
 */
export function checkEvaluateBody(value: unknown): EvaluateBody | ContextRefusal {
  if (!isObject(value)) return { error: "The evaluation request must be a JSON object." };
  const top: Record<string, string[]> = {};
  if (value.action !== "tool_call") top.action = ['Only "tool_call" is evaluated here.'];
  if (value.user_id !== undefined && !text(value.user_id, 255)) {
    top.user_id = ["Give a string of up to 255 characters."];
  }
  if (Object.keys(top).length) return { error: "Invalid evaluation request", ...top };
  const ctx = value.context;
  if (!isObject(ctx)) {
    return { error: "Invalid agent host tool_call context", context: { context: [REQUIRED] } };
  }
  const issues: Record<string, string[]> = {};
  const need = (field: string, ok: (v: unknown) => boolean, what: string) => {
    if (ctx[field] === undefined || ctx[field] === null || ctx[field] === "") {
      issues[field] = [REQUIRED];
    } else if (!ok(ctx[field])) issues[field] = [what];
  };
  const may = (field: string, max: number) => {
    if (ctx[field] !== undefined && !text(ctx[field], max)) {
      issues[field] = [`Give a string of up to ${max} characters.`];
    }
  };
  need(
    "harness",
    (v) => typeof v === "string" && SLUG.test(v),
    "Use a lowercase slug of up to 50 characters.",
  );
  need("session_id", (v) => text(v, 255), "Give a string of up to 255 characters.");
  need("tool_name", (v) => text(v, 255), "Give a string of up to 255 characters.");
  may("chat_id", 255);
  may("tool_call_id", 255);
  may("cwd", 4_096);
  may("approval_token", 1_024);
  if (Object.keys(issues).length) {
    return { error: "Invalid agent host tool_call context", context: issues };
  }
  return value as unknown as EvaluateBody;
}

function text(v: unknown, max: number): boolean {
  return typeof v === "string" && v.length > 0 && v.length <= max;
}
