/**
 * The budget of one JSON Schema validation and the pattern engine it uses.
 *
 * @module
 */
import { pattern } from "./_json_values.ts";
import { JSON_SCHEMA_LIMITS } from "./json_schema_bounds.ts";

/**
 * Compiles a `pattern` into a test, or returns null when the source is not a valid expression.
 *
 * @example
 * ```ts
 * const native: PatternMatcher = (source) => {
 *   const re = new RegExp(source, "u");
 *   return (text) => re.test(text);
 * };
 * ```
 */
export type PatternMatcher = (source: string) => ((text: string) => boolean) | null;

/**
 * Bounds and engines of one validation.
 *
 * @example
 * ```ts
 * const options: ValidateOptions = { maxSteps: 5_000, maxPatternInput: 1_000 };
 * ```
 */
export interface ValidateOptions {
  /** Compiles `pattern` (default: the platform's RegExp, with the `u` flag). */
  matcher?: PatternMatcher;
  /** Schema nodes one validation may visit (default {@linkcode JSON_SCHEMA_LIMITS}.steps). */
  maxSteps?: number;
  /** Longest string checked against a `pattern` (default {@linkcode JSON_SCHEMA_LIMITS}.pattern_input). */
  maxPatternInput?: number;
}

/** The platform's RegExp (with the `u` flag), compiled once per source. */
export const nativeMatcher: PatternMatcher = (source) => {
  const regex = pattern(source);
  return regex ? (text) => regex.test(text) : null;
};

/** Thrown through the recursion when the budget is spent; caught once at the top. */
export class OutOfSteps extends Error {}

/** What one validation may still spend, and the engine its patterns run on. */
export interface Budget {
  left: number;
  readonly max: number;
  readonly matcher: PatternMatcher;
  readonly maxPatternInput: number;
}

/** The budget of one validation from its options. */
export function newBudget(options: ValidateOptions): Budget {
  const max = options.maxSteps ?? JSON_SCHEMA_LIMITS.steps;
  return {
    left: max,
    max,
    matcher: options.matcher ?? nativeMatcher,
    maxPatternInput: options.maxPatternInput ?? JSON_SCHEMA_LIMITS.pattern_input,
  };
}
