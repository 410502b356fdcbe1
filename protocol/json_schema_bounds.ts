/**
 * The bounds of a JSON schema a page or a host server submits, checked once
 * when it arrives, so that no schema can make validation run without end:
 * its size and nesting, the length of its patterns, and its `$ref` graph
 * (every reference local and defined, and no loop that comes back to the
 * same value without reading any of it, like `{"anyOf": [{"$ref": "#"}]}`).
 * Alternatives that multiply (`anyOf` of `anyOf` of ...) are counted too.
 *
 * @module
 */
import { resolvePointer } from "./_json_values.ts";
import { grouped, isObject } from "./_values.ts";
import type { Issue } from "./issues.ts";
import { patternSize } from "./_pattern_size.ts";

/**
 * The bounds of a submitted schema and of one validation against it.
 *
 * @example
 * ```ts
 * JSON_SCHEMA_LIMITS.steps; // 10000
 * ```
 */
export const JSON_SCHEMA_LIMITS = {
  /** Objects and arrays in one schema. */
  nodes: 2_000,
  /** Nesting of objects and arrays in one schema. */
  depth: 32,
  /** Characters of one `pattern`. */
  pattern_chars: 1_000,
  /** Instructions a `pattern` compiles to (a linear-time engine's work is this times the text). */
  pattern_program: 2_000,
  /** The count of one counted repeat in a `pattern` (`x{n}`, `x{n,m}`). */
  pattern_repeat: 1_000,
  /** Schema nodes one validation may visit; also the most ways alternatives may combine. */
  steps: 10_000,
  /** Characters of a string checked against a `pattern`. */
  pattern_input: 4_096,
  /** Program instructions times characters of text that cost one step of a pattern test. */
  pattern_step: 32,
  /** Milliseconds one validation may run, whatever its steps. */
  deadline_ms: 50,
} as const;

type Node = Record<string, unknown>;
// Keywords that apply another schema to the same value: only these can loop without reading it.
const SAME_VALUE_LISTS = ["allOf", "anyOf", "oneOf"] as const;

function sameValueTargets(root: unknown, node: Node): { to: unknown; via: string }[] {
  const out: { to: unknown; via: string }[] = [];
  if (typeof node.$ref === "string") out.push({ to: resolvePointer(root, node.$ref), via: "$ref" });
  for (const keyword of SAME_VALUE_LISTS) {
    const list = node[keyword];
    if (Array.isArray(list)) list.forEach((to, i) => out.push({ to, via: `${keyword}.${i}` }));
  }
  if (node.not !== undefined) out.push({ to: node.not, via: "not" });
  return out.filter((t) => isObject(t.to));
}

/** Why a pattern's text is refused (too long, repeats too much, compiles too big), or null. */
function patternProblem(source: string): string | null {
  const { pattern_chars, pattern_repeat, pattern_program } = JSON_SCHEMA_LIMITS;
  if (source.length > pattern_chars) {
    return `the pattern is longer than ${grouped(pattern_chars)} characters; shorten it.`;
  }
  const { program, repeat } = patternSize(source);
  if (repeat > pattern_repeat) {
    return `the pattern repeats something ${grouped(repeat)} times, over the ${
      grouped(pattern_repeat)
    } a counted repeat may ask; lower the count.`;
  }
  if (program > pattern_program) {
    return `the pattern compiles to about ${grouped(program)} instructions, over ${
      grouped(pattern_program)
    } (counted repeats copy what they repeat); simplify it.`;
  }
  return null;
}

/** Walks the schema once: size, nesting, patterns and references; the path of every schema object. */
function walk(schema: unknown, issues: Issue[]): Map<Node, string> | null {
  const paths = new Map<Node, string>();
  const stack: { value: unknown; path: string; depth: number }[] = [
    { value: schema, path: "", depth: 1 },
  ];
  let nodes = 0;
  const at = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (value === null || typeof value !== "object") continue;
    if (++nodes > JSON_SCHEMA_LIMITS.nodes || depth > JSON_SCHEMA_LIMITS.depth) {
      const what = depth > JSON_SCHEMA_LIMITS.depth
        ? `is nested more than ${JSON_SCHEMA_LIMITS.depth} levels deep`
        : `has more than ${grouped(JSON_SCHEMA_LIMITS.nodes)} objects and arrays`;
      issues.push({ path, message: `the schema ${what}; make it smaller.` });
      return null;
    }
    if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push({ value: item, path: at(path, i), depth: depth + 1 }));
      continue;
    }
    const node = value as Node;
    if (!paths.has(node)) paths.set(node, path);
    if (typeof node.pattern === "string") {
      const problem = patternProblem(node.pattern);
      if (problem) issues.push({ path: at(path, "pattern"), message: problem });
    }
    if (node.$ref !== undefined) {
      const ref = node.$ref;
      if (typeof ref !== "string" || resolvePointer(schema, ref) === undefined) {
        issues.push({
          path: at(path, "$ref"),
          message: `the reference ${
            JSON.stringify(ref)
          } does not point inside this schema (use "#/$defs/name" with a definition there); fix it.`,
        });
      }
    }
    for (const [key, child] of Object.entries(node)) {
      stack.push({ value: child, path: at(path, key), depth: depth + 1 });
    }
  }
  return paths;
}

/**
 * Checks a submitted schema against {@linkcode JSON_SCHEMA_LIMITS}; an empty list means it is safe
 * to validate against. Paths are relative to the schema ("" for the schema itself).
 *
 * @example
 * ```ts
 * checkJsonSchema({ type: "object", anyOf: [{ $ref: "#" }] });
 * // [{ path: "anyOf.0", message: "... refers back to the same value ..." }]
 * ```
 */
export function checkJsonSchema(schema: unknown): Issue[] {
  const issues: Issue[] = [];
  const paths = walk(schema, issues);
  if (!paths || issues.length) return issues;
  // Ways of applying schemas to one value, per node; -1 marks a node on the current path (a loop).
  const ways = new Map<Node, number>();
  const visit = (node: Node): number => {
    const known = ways.get(node);
    if (known !== undefined) {
      if (known === -1) throw node;
      return known;
    }
    ways.set(node, -1);
    let total = 1;
    for (const { to } of sameValueTargets(schema, node)) {
      total = Math.min(total + visit(to as Node), Number.MAX_SAFE_INTEGER);
    }
    ways.set(node, total);
    return total;
  };
  for (const [node, path] of paths) {
    let total: number;
    try {
      total = visit(node);
    } catch (loop) {
      if (!isObject(loop)) throw loop;
      return [{
        path: paths.get(loop) ?? path,
        message:
          "the schema refers back to itself for the same value (through $ref, allOf, anyOf, oneOf or not) without reading any of it, so checking it would never end; make every loop go through properties or items.",
      }];
    }
    if (total > JSON_SCHEMA_LIMITS.steps) {
      return [{
        path,
        message: `the schema's alternatives combine in more than ${
          grouped(JSON_SCHEMA_LIMITS.steps)
        } ways for one value; simplify its anyOf, oneOf, allOf and $ref chains.`,
      }];
    }
  }
  return [];
}
