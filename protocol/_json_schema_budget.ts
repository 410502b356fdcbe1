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
export type PatternMatcher = (source: string) => PatternTest | null;

/**
 * One compiled pattern's test; `size` is its program's instruction count when the engine knows it
 * (otherwise the pattern's length stands for it). A test costs its text's length times its size.
 *
 * @example
 * ```ts
 * const test: PatternTest = Object.assign((text: string) => text === "a", { size: 3 });
 * ```
 */
export type PatternTest = ((text: string) => boolean) & { readonly size?: number };

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
  /** Milliseconds one validation may run (default {@linkcode JSON_SCHEMA_LIMITS}.deadline_ms). */
  deadlineMs?: number;
  /** The clock the deadline is read from, in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** The platform's RegExp (with the `u` flag), compiled once per source. */
export const nativeMatcher: PatternMatcher = (source) => {
  const regex = pattern(source);
  return regex ? (text) => regex.test(text) : null;
};

/** Thrown through the recursion when the budget (steps, or time) is spent; caught once at the top. */
export class OutOfSteps extends Error {
  readonly spent: "steps" | "time";
  constructor(spent: "steps" | "time") {
    super(spent);
    this.spent = spent;
  }
}

/** What one validation may still spend, and the engine its patterns run on. */
export interface Budget {
  left: number;
  readonly max: number;
  readonly matcher: PatternMatcher;
  readonly maxPatternInput: number;
  readonly deadlineMs: number;
  /** The clock's reading past which the validation stops. */
  readonly until: number;
  readonly now: () => number;
  /** Charges since the clock was last read. */
  unclocked: number;
}

/** The budget of one validation from its options. */
export function newBudget(options: ValidateOptions): Budget {
  const max = options.maxSteps ?? JSON_SCHEMA_LIMITS.steps;
  const now = options.now ?? (() => performance.now());
  const deadlineMs = options.deadlineMs ?? JSON_SCHEMA_LIMITS.deadline_ms;
  return {
    left: max,
    max,
    matcher: options.matcher ?? nativeMatcher,
    maxPatternInput: options.maxPatternInput ?? JSON_SCHEMA_LIMITS.pattern_input,
    deadlineMs,
    until: now() + deadlineMs,
    now,
    unclocked: 0,
  };
}

/**
 * Charges `steps`; throws once the steps are spent, or the deadline has passed (the clock is read
 * every 32 charges, and on every charge of a pattern test: `clock` true).
 */
export function spend(budget: Budget, steps: number, clock = false): void {
  budget.left -= steps;
  if (budget.left < 0) throw new OutOfSteps("steps");
  if (clock || ++budget.unclocked >= 32) {
    budget.unclocked = 0;
    if (budget.now() > budget.until) throw new OutOfSteps("time");
  }
}

/** Steps a pattern test costs: its program's size (plus a per-character overhead) times the text. */
export function patternCost(size: number, text: string): number {
  return 1 + Math.ceil(text.length * (size + 16) / JSON_SCHEMA_LIMITS.pattern_step);
}
