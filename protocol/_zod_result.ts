/**
 * Runs a zod schema without throwing and words its issues for people: one
 * sentence each, naming the field and saying what to do.
 *
 * @module
 */
import type * as z from "zod/mini";
import { describe, grouped, isObject, label } from "./_values.ts";
import type { Issue, Result } from "./issues.ts";

const NOUNS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a JSON object",
  record: "a JSON object",
  array: "an array",
};

function quantity(n: number | bigint, origin: string): string {
  if (origin === "string") return `${grouped(n)} characters`;
  if (origin === "array") return `${grouped(n)} entries`;
  return grouped(n);
}

function word(iss: z.core.$ZodRawIssue, root: string): string {
  const field = label(iss.path ?? [], root);
  switch (iss.code) {
    case "invalid_type":
    case "custom": {
      const expected = iss.code === "invalid_type" ? iss.expected : iss.params?.expected;
      if (typeof expected !== "string") {
        return `${field} is not valid; check it against the contract.`;
      }
      const noun = NOUNS[expected] ?? expected;
      if (iss.input === undefined) return `${field} is required; add it as ${noun}.`;
      return `${field} must be ${noun}, not ${describe(iss.input)}; send ${noun} instead.`;
    }
    case "invalid_value": {
      const values = iss.values.map((v) => JSON.stringify(v));
      const allowed = values.length === 1 ? values[0] : `one of ${values.join(", ")}`;
      return `${field} must be ${allowed}, not ${JSON.stringify(iss.input)}; use ${
        values.length === 1 ? "that value" : "one of those"
      }.`;
    }
    case "too_big":
      return iss.origin === "string" || iss.origin === "array"
        ? `${field} holds more than ${quantity(iss.maximum, iss.origin)}; send less.`
        : `${field} must be at most ${grouped(iss.maximum)}; lower it.`;
    case "too_small":
      if ((iss.origin === "string" || iss.origin === "array") && Number(iss.minimum) === 1) {
        return `${field} must not be empty; fill it in.`;
      }
      return iss.origin === "string" || iss.origin === "array"
        ? `${field} needs at least ${quantity(iss.minimum, iss.origin)}; add more.`
        : `${field} must be at least ${grouped(iss.minimum)}; raise it.`;
    case "invalid_format":
      return `${field} is not a valid ${iss.format}; correct its format.`;
    default:
      return `${field} is not valid; check it against the contract.`;
  }
}

/** How a parser names its input in messages. */
export interface Wording {
  /** The field name of the whole input ("host_context"). */
  readonly root: string;
  /** How a sentence refers to the whole input ("the message body"). */
  readonly subject: string;
}

function convert(issues: readonly z.core.$ZodIssue[], wording: Wording): Issue[] {
  const out: Issue[] = [];
  for (const iss of issues) {
    if (iss.code !== "unrecognized_keys") {
      out.push({ path: iss.path.map(String).join("."), message: iss.message });
      continue;
    }
    const parent = label(iss.path, wording.root);
    const inContext = wording.root === "host_context" || iss.path[0] === "host_context";
    const hint = inContext ? " (host-specific data belongs in extensions)" : "";
    for (const key of iss.keys) {
      out.push({
        path: [...iss.path, key].map(String).join("."),
        message: `${key} is not a field of ${parent}; remove it or correct its spelling${hint}.`,
      });
    }
  }
  return out;
}

/** Parses `input` with `schema`, returning a {@linkcode Result}; never throws. */
export function runSchema<T>(
  schema: z.ZodMiniType<T, unknown>,
  input: unknown,
  wording: Wording,
): Result<T> {
  if (!isObject(input)) {
    return {
      ok: false,
      issues: [{
        path: "",
        message: `${wording.subject} must be a JSON object, not ${
          describe(input)
        }; send an object.`,
      }],
    };
  }
  try {
    const parsed = schema.safeParse(input, { error: (iss) => word(iss, wording.root) });
    if (parsed.success) return { ok: true, value: parsed.data };
    return { ok: false, issues: convert(parsed.error.issues, wording) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      issues: [{
        path: "",
        message: `${wording.subject} could not be read (${reason}); send plain JSON.`,
      }],
    };
  }
}
