/**
 * What a tool server answers, checked as hostile input: the contract's
 * shapes, and bounds on sizes, counts and nesting, so a server can neither
 * confuse the runtime nor make it do unbounded work.
 *
 * @module
 */
import { checkJsonSchema, type Verb } from "../../protocol/mod.ts";

/** Bounds on what a tool server may send. */
export const BOUNDS = {
  /** Bytes of one response body. */
  bodyBytes: 1_000_000,
  tools: 64,
  nameChars: 64,
  descriptionChars: 1_024,
  /** Characters of one tool's input schema as JSON. */
  schemaChars: 16_000,
  /** Characters of the context as JSON (as much as a host_context's data may carry). */
  contextChars: 32_000,
  previewChars: 2_000,
  /** Characters of one execute output as JSON. */
  outputChars: 64_000,
  depth: 24,
} as const;

const VERBS: readonly Verb[] = ["get", "create", "update", "delete"];
const NAME = /^[A-Za-z0-9_-]+$/;
// Control characters other than tab and newline, and bidirectional overrides, in text a person reads.
// deno-lint-ignore no-control-regex -- removing control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** A tool as a server lists it, after checking. */
export interface RemoteToolSpec {
  name: string;
  description: string;
  verb: Verb;
  inputSchema: Record<string, unknown>;
}

/** A server's answer that breaks the contract. */
export class ShapeError extends Error {
  override name = "ShapeError";
}

/**
 * How deeply `value` nests objects and arrays, counting at most to `max + 1`.
 *
 * @example
 * ```ts
 * depthOf({ a: [1] }, 10); // 2
 * ```
 */
export function depthOf(value: unknown, max: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (d + 1 > deepest) deepest = d + 1;
    if (deepest > max) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}

/**
 * Plain one-paragraph text for a person: control characters removed, trimmed, at most `max` characters.
 *
 * @example
 * ```ts
 * plainText("  Create \u0007task ", 100); // "Create task"
 * ```
 */
export function plainText(value: string, max: number): string {
  const text = value.replace(CONTROL, "").trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Checks `GET /tools`: the tools that pass, and why each other one was skipped.
 * Throws `ShapeError` when the body is not `{tools: [...]}`.
 *
 * @example
 * ```ts
 * const { tools, skipped } = parseTools({ tools: [{ name: "find", description: "Find.", verb: "get",
 *   inputSchema: { type: "object" } }] });
 * ```
 */
export function parseTools(body: unknown): { tools: RemoteToolSpec[]; skipped: string[] } {
  if (!isObject(body) || !Array.isArray(body.tools)) {
    throw new ShapeError("GET /tools must answer an object with a tools array.");
  }
  const tools: RemoteToolSpec[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const [i, raw] of body.tools.entries()) {
    if (tools.length >= BOUNDS.tools) {
      skipped.push(`tools beyond the first ${BOUNDS.tools}`);
      break;
    }
    const why = toolProblem(raw, seen);
    if (why) {
      skipped.push(`tools[${i}]: ${why}`);
      continue;
    }
    const t = raw as Record<string, unknown>;
    seen.add(t.name as string);
    tools.push({
      name: t.name as string,
      description: plainText(t.description as string, BOUNDS.descriptionChars),
      verb: t.verb as Verb,
      inputSchema: t.inputSchema as Record<string, unknown>,
    });
  }
  return { tools, skipped };
}

function toolProblem(raw: unknown, seen: Set<string>): string | null {
  if (!isObject(raw)) return "not an object";
  const { name, description, verb, inputSchema } = raw;
  if (typeof name !== "string" || !NAME.test(name) || name.length > BOUNDS.nameChars) {
    return `name must be 1..${BOUNDS.nameChars} letters, digits, _ or -`;
  }
  if (seen.has(name)) return `name ${name} is listed twice`;
  if (typeof description !== "string") return "description must be a string";
  if (!VERBS.includes(verb as Verb)) return "verb must be get, create, update or delete";
  if (!isObject(inputSchema) || inputSchema.type !== "object") {
    return "inputSchema must be a JSON schema of type object";
  }
  if (JSON.stringify(inputSchema).length > BOUNDS.schemaChars) {
    return `inputSchema is over ${BOUNDS.schemaChars} characters`;
  }
  if (depthOf(inputSchema, BOUNDS.depth) > BOUNDS.depth) {
    return `inputSchema nests deeper than ${BOUNDS.depth}`;
  }
  // The same bounds as a page's action schemas: no endless references, no exponential alternatives.
  const [issue] = checkJsonSchema(inputSchema);
  if (issue) return `inputSchema${issue.path ? `.${issue.path}` : ""}: ${issue.message}`;
  return null;
}

/**
 * Checks `GET /context`: any JSON object within the bounds.
 *
 * @example
 * ```ts
 * parseContext({ project: "Apollo" });
 * ```
 */
export function parseContext(body: unknown): Record<string, unknown> {
  if (!isObject(body)) throw new ShapeError("GET /context must answer a JSON object.");
  if (JSON.stringify(body).length > BOUNDS.contextChars) {
    throw new ShapeError(`GET /context answered over ${BOUNDS.contextChars} characters of JSON.`);
  }
  if (depthOf(body, BOUNDS.depth) > BOUNDS.depth) {
    throw new ShapeError(`GET /context nests deeper than ${BOUNDS.depth}.`);
  }
  return body;
}

/**
 * Checks `POST /tools/preview`: `{preview: string}`, returned as plain text.
 *
 * @example
 * ```ts
 * parsePreview({ preview: "Create a task" }); // "Create a task"
 * ```
 */
export function parsePreview(body: unknown): string {
  if (!isObject(body) || typeof body.preview !== "string" || !body.preview.trim()) {
    throw new ShapeError("POST /tools/preview must answer {preview: <non-empty string>}.");
  }
  return plainText(body.preview, BOUNDS.previewChars);
}

/**
 * Checks `POST /tools/execute`: `{output: <JSON>}` within the bounds.
 *
 * @example
 * ```ts
 * parseOutput({ output: { id: "task_789" } }); // { id: "task_789" }
 * ```
 */
export function parseOutput(body: unknown): unknown {
  if (!isObject(body) || !("output" in body)) {
    throw new ShapeError("POST /tools/execute must answer {output: ...}.");
  }
  if ((JSON.stringify(body.output) ?? "").length > BOUNDS.outputChars) {
    throw new ShapeError(`POST /tools/execute answered over ${BOUNDS.outputChars} characters.`);
  }
  if (depthOf(body.output, BOUNDS.depth) > BOUNDS.depth) {
    throw new ShapeError(`POST /tools/execute nests deeper than ${BOUNDS.depth}.`);
  }
  return body.output ?? null;
}
