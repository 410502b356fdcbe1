/**
 * The server's engine for JSON Schema `pattern`: RE2 (through re2js), which
 * matches in time linear in the text, so a pattern like `^(a+)+$` from a
 * hostile schema cannot stall the process.
 *
 * @module
 */
import { RE2JS } from "re2js";
import type { PatternMatcher, PatternTest } from "../../protocol/mod.ts";

// Tool schemas repeat the same few patterns: compile each source once.
const compiled = new Map<string, PatternTest | null>();

// One match at load, so the first call's 50 ms validation deadline is not spent warming the engine.
RE2JS.compile("^(a+)+$").matcher("a".repeat(256)).find();

/**
 * Compiles a `pattern` with RE2; null when RE2 cannot (invalid, or a look-around or back-reference).
 *
 * @example
 * ```ts
 * validateJsonSchema(schema, args, { matcher: re2Matcher });
 * ```
 */
export const re2Matcher: PatternMatcher = (source) => {
  let test = compiled.get(source);
  if (test !== undefined) return test;
  try {
    const regex = RE2JS.compile(source);
    // JSON Schema patterns are not anchored: a match anywhere in the text counts.
    // The program's size prices each test (its work is the size times the text).
    test = Object.assign((text: string) => regex.matcher(text).find(), {
      size: regex.programSize(),
    });
  } catch {
    test = null;
  }
  if (compiled.size >= 256) compiled.clear();
  compiled.set(source, test);
  return test;
};
