/**
 * A small JSON Schema validator for the subset tool schemas use. It compiles
 * nothing (no eval), so it runs under a strict Content-Security-Policy.
 *
 * Keywords: type (including integer, null and lists of types), enum, const,
 * properties, required, additionalProperties, items (a schema or a tuple list),
 * minItems, maxItems, uniqueItems, minimum, maximum, exclusiveMinimum,
 * exclusiveMaximum (numbers, or draft-4 booleans), multipleOf, minLength,
 * maxLength, pattern, anyOf, oneOf, allOf, not, and local `$ref`
 * ("#/$defs/..."). Other keywords (format, title, default, ...) are ignored.
 *
 * Schemas come from pages and host servers, so the work is bounded: every
 * schema node visited costs one step of a budget (a call that runs out fails
 * with an issue saying so), and `pattern` runs through an injectable matcher
 * on strings of bounded length (the server passes a linear-time engine), each
 * test charged its program's size times the text before it runs. A wall-clock
 * deadline (50 ms) stops a validation whatever its steps.
 *
 * @module
 */
import { codePoints, equal, hasType, resolvePointer } from "./_json_values.ts";
import { describe, grouped, isObject, label as fieldLabel } from "./_values.ts";
import type { Issue } from "./issues.ts";
import {
  type Budget,
  newBudget,
  OutOfSteps,
  patternCost,
  type PatternTest,
  spend,
  type ValidateOptions,
} from "./_json_schema_budget.ts";

export type { PatternMatcher, PatternTest, ValidateOptions } from "./_json_schema_budget.ts";

/**
 * A JSON schema: an object of keywords, or `true` (anything) / `false` (nothing).
 *
 * @example
 * ```ts
 * const schema: JsonSchema = { type: "object", properties: { x: { type: "number" } } };
 * ```
 */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

type Path = (string | number)[];

const label = (path: Path) => fieldLabel(path, "the value");

const MAX_DEPTH = 128;
const TYPE_NOUNS: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  null: "null",
};

class Run {
  readonly issues: Issue[] = [];
  readonly #root: JsonSchema;
  readonly #budget: Budget;
  constructor(root: JsonSchema, budget: Budget) {
    this.#root = root;
    this.#budget = budget;
  }

  /** Charges work to the budget shared by every sub-run; throws once it is spent. */
  #spend(steps: number): void {
    spend(this.#budget, steps);
  }

  /**
   * A pattern test costs its program's size times the text it reads, charged before it runs (a test
   * the budget cannot pay is never started); the clock is read after it.
   */
  #matches(test: PatternTest, source: string, text: string): boolean {
    // An engine that does not say its program's size is charged the pattern's length.
    spend(this.#budget, patternCost(test.size ?? source.length + 2, text));
    const matched = test(text);
    spend(this.#budget, 0, true);
    return matched;
  }

  report(path: Path, message: string): void {
    this.issues.push({ path: path.join("."), message });
  }

  check(schema: unknown, value: unknown, path: Path, depth: number): void {
    if (schema === true || schema === undefined) return;
    const field = label(path);
    if (schema === false) return this.report(path, `${field} is not allowed here; remove it.`);
    if (!isObject(schema)) return;
    this.#spend(1);
    if (depth > MAX_DEPTH) {
      return this.report(
        path,
        `${field} is nested more than ${MAX_DEPTH} levels deep; flatten it.`,
      );
    }
    if (typeof schema.$ref === "string") {
      const target = resolvePointer(this.#root, schema.$ref);
      if (target === undefined) {
        return this.report(
          path,
          `the schema for ${field} refers to ${schema.$ref}, which it does not define; fix the schema.`,
        );
      }
      this.check(target, value, path, depth + 1);
    }
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (!types.some((type) => hasType(value, type))) {
        const nouns = types.map((type) => TYPE_NOUNS[String(type)] ?? String(type)).join(" or ");
        return this.report(
          path,
          `${field} must be ${nouns}, not ${describe(value)}; send ${nouns}.`,
        );
      }
    }
    if (Array.isArray(schema.enum)) this.#spend(Math.ceil(schema.enum.length / 16));
    if (Array.isArray(schema.enum) && !schema.enum.some((option) => equal(option, value))) {
      const options = schema.enum.map((option) => JSON.stringify(option)).join(", ");
      this.report(
        path,
        `${field} must be one of ${options}, not ${JSON.stringify(value)}; pick one of those.`,
      );
    }
    if (Object.hasOwn(schema, "const") && !equal(schema.const, value)) {
      this.report(
        path,
        `${field} must be ${JSON.stringify(schema.const)}; send exactly that value.`,
      );
    }
    if (typeof value === "string") this.#string(schema, value, path, field);
    else if (typeof value === "number") this.#number(schema, value, path, field);
    else if (Array.isArray(value)) this.#array(schema, value, path, field, depth);
    else if (isObject(value)) this.#object(schema, value, path, field, depth);
    this.#combinators(schema, value, path, field, depth);
  }

  #string(schema: Record<string, unknown>, value: string, path: Path, field: string): void {
    const { minLength, maxLength } = schema;
    if (typeof minLength === "number" || typeof maxLength === "number") {
      const length = codePoints(value);
      if (typeof minLength === "number" && length < minLength) {
        this.report(
          path,
          `${field} must be at least ${grouped(minLength)} characters long; lengthen it.`,
        );
      }
      if (typeof maxLength === "number" && length > maxLength) {
        this.report(
          path,
          `${field} must be at most ${grouped(maxLength)} characters long; shorten it.`,
        );
      }
    }
    if (typeof schema.pattern === "string") {
      const { matcher, maxPatternInput } = this.#budget;
      const test = value.length > maxPatternInput ? undefined : matcher(schema.pattern);
      if (test === undefined) {
        this.report(
          path,
          `${field} is longer than ${
            grouped(maxPatternInput)
          } characters, too long to check against its pattern; shorten it.`,
        );
      } else if (test === null) {
        this.report(
          path,
          `the schema's pattern for ${field} is not a valid regular expression; fix the schema.`,
        );
      } else if (!this.#matches(test, schema.pattern, value)) {
        this.report(path, `${field} must match the pattern ${schema.pattern}; change it to fit.`);
      }
    }
  }

  #number(schema: Record<string, unknown>, value: number, path: Path, field: string): void {
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema;
    if (typeof minimum === "number") {
      if (exclusiveMinimum === true ? value <= minimum : value < minimum) {
        const bound = exclusiveMinimum === true ? "greater than" : "at least";
        this.report(path, `${field} must be ${bound} ${minimum}; raise it.`);
      }
    }
    if (typeof maximum === "number") {
      if (exclusiveMaximum === true ? value >= maximum : value > maximum) {
        const bound = exclusiveMaximum === true ? "less than" : "at most";
        this.report(path, `${field} must be ${bound} ${maximum}; lower it.`);
      }
    }
    if (typeof exclusiveMinimum === "number" && value <= exclusiveMinimum) {
      this.report(path, `${field} must be greater than ${exclusiveMinimum}; raise it.`);
    }
    if (typeof exclusiveMaximum === "number" && value >= exclusiveMaximum) {
      this.report(path, `${field} must be less than ${exclusiveMaximum}; lower it.`);
    }
    if (typeof multipleOf === "number" && multipleOf > 0) {
      const quotient = value / multipleOf;
      if (Math.abs(quotient - Math.round(quotient)) > 1e-9) {
        this.report(path, `${field} must be a multiple of ${multipleOf}; round it.`);
      }
    }
  }

  #array(
    schema: Record<string, unknown>,
    value: unknown[],
    path: Path,
    field: string,
    depth: number,
  ): void {
    const { minItems, maxItems, items } = schema;
    if (typeof minItems === "number" && value.length < minItems) {
      this.report(path, `${field} must hold at least ${minItems} items; add more.`);
    }
    if (typeof maxItems === "number" && value.length > maxItems) {
      this.report(path, `${field} must hold at most ${maxItems} items; remove some.`);
    }
    if (schema.uniqueItems === true) {
      this.#spend(Math.ceil((value.length * value.length) / 64));
      const repeated = value.findIndex((item, i) =>
        value.findIndex((other) => equal(item, other)) !== i
      );
      if (repeated >= 0) {
        this.report(
          [...path, repeated],
          `${label([...path, repeated])} repeats an earlier item; items must be unique.`,
        );
      }
    }
    if (Array.isArray(items)) {
      // Draft-4 tuple form: one schema per position, extra items governed by additionalItems.
      value.forEach((item, i) => {
        this.check(
          i < items.length ? items[i] : schema.additionalItems,
          item,
          [...path, i],
          depth + 1,
        );
      });
    } else if (items !== undefined) {
      value.forEach((item, i) => this.check(items, item, [...path, i], depth + 1));
    }
  }

  #object(
    schema: Record<string, unknown>,
    value: Record<string, unknown>,
    path: Path,
    field: string,
    depth: number,
  ): void {
    const properties = isObject(schema.properties) ? schema.properties : {};
    if (Array.isArray(schema.required)) {
      for (const key of schema.required) {
        if (typeof key === "string" && !Object.hasOwn(value, key)) {
          this.report([...path, key], `${key} is required in ${field}; add it.`);
        }
      }
    }
    const extra = schema.additionalProperties;
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(properties, key)) {
        this.check(properties[key], value[key], [...path, key], depth + 1);
      } else if (extra === false) {
        this.report([...path, key], `${key} is not a property ${field} accepts; remove it.`);
      } else if (extra !== undefined && extra !== true) {
        this.check(extra, value[key], [...path, key], depth + 1);
      }
    }
  }

  #combinators(
    schema: Record<string, unknown>,
    value: unknown,
    path: Path,
    field: string,
    depth: number,
  ): void {
    if (Array.isArray(schema.allOf)) {
      for (const part of schema.allOf) this.check(part, value, path, depth + 1);
    }
    for (const keyword of ["anyOf", "oneOf"] as const) {
      const options = schema[keyword];
      if (!Array.isArray(options)) continue;
      const results = options.map((option) => {
        const run = new Run(this.#root, this.#budget);
        run.check(option, value, path, depth + 1);
        return run.issues;
      });
      const passed = results.filter((issues) => issues.length === 0).length;
      if (passed === 0) {
        const nearest = results.reduce((a, b) => (b.length < a.length ? b : a), results[0] ?? []);
        const hint = nearest[0] ? ` The nearest fails because ${nearest[0].message}` : "";
        this.report(
          path,
          `${field} matches none of the allowed alternatives (${keyword}); change it to fit one.${hint}`,
        );
      } else if (keyword === "oneOf" && passed > 1) {
        this.report(
          path,
          `${field} matches ${passed} alternatives of oneOf but must match exactly one; make it unambiguous.`,
        );
      }
    }
    if (schema.not !== undefined) {
      const run = new Run(this.#root, this.#budget);
      run.check(schema.not, value, path, depth + 1);
      if (run.issues.length === 0) {
        this.report(path, `${field} matches a form the schema forbids (not); change it.`);
      }
    }
  }
}

/**
 * Validates `value` against `schema`; returns the issues, an empty list when valid.
 *
 * Paths use dots for keys and numbers for indexes ("items.0.id"), "" for the value itself.
 *
 * @example
 * ```ts
 * const issues = validateJsonSchema(
 *   { type: "object", properties: { number: { type: "integer" } }, required: ["number"] },
 *   { number: "42" },
 * );
 * // [{ path: "number", message: "number must be an integer, not a string; send an integer." }]
 * ```
 */
export function validateJsonSchema(
  schema: JsonSchema,
  value: unknown,
  options: ValidateOptions = {},
): Issue[] {
  const budget = newBudget(options);
  const run = new Run(schema, budget);
  try {
    run.check(schema, value, [], 0);
  } catch (error) {
    if (!(error instanceof OutOfSteps)) throw error;
    const within = error.spent === "time"
      ? `${grouped(budget.deadlineMs)} ms`
      : `${grouped(budget.max)} steps of their schema`;
    return [{
      path: "",
      message:
        `the arguments could not be checked within ${within}; the schema is too complex, so simplify it.`,
    }];
  }
  return run.issues;
}
