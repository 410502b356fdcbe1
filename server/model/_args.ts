/**
 * Fills an action's arguments from the words that follow its name, guided by
 * its JSON schema: enum values by word match, quoted text for strings (and a
 * title, name or subject unquoted after "about", "called", "titled" or
 * "named"), numbers in order for number and integer properties, yes/no words
 * for booleans. What cannot be filled is left out: the planner asks for a
 * missing item or title (`_plan.ts`), and the runtime's validation reports
 * anything else back.
 *
 * @module
 */

import { capital, inside, type Quote, quotes, type Token, tokenize } from "./_text.ts";

/** The part of a JSON schema the planner reads; everything else is ignored. */
export interface Schema {
  type?: unknown;
  properties?: Record<string, unknown>;
  enum?: unknown;
  const?: unknown;
}

interface Span {
  start: number;
  end: number;
}

const TRUE_WORDS = new Set(["true", "yes", "on"]);
const FALSE_WORDS = new Set(["false", "no", "off"]);
const NUMBER = /(?<![\p{L}\p{N}_.])-?\d+(?:\.\d+)?(?![\p{L}\p{N}_])/gu;

function typesOf(schema: Schema): unknown[] {
  const t = schema.type;
  return t === undefined ? [] : Array.isArray(t) ? t : [t];
}

function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}

/** Finds the earliest enum value whose words appear in `tokens`, outside `used`. */
function matchEnum(
  values: readonly unknown[],
  tokens: Token[],
  used: Span[],
  quoted: readonly Quote[] = [],
): { value: unknown; span: Span } | undefined {
  let best: { value: unknown; span: Span } | undefined;
  for (const value of values) {
    if (typeof value !== "string" && typeof value !== "number") continue;
    const words = tokenize(String(value));
    if (words.length === 0) continue;
    for (let i = 0; i + words.length <= tokens.length; i++) {
      if (best && tokens[i].start >= best.span.start) break;
      let ok = true;
      for (let j = 0; j < words.length && ok; j++) ok = tokens[i + j].stem === words[j].stem;
      if (!ok) continue;
      const span = { start: tokens[i].start, end: tokens[i + words.length - 1].end };
      if (used.some((u) => overlaps(u, span))) continue;
      // A word inside a longer quoted title ("Docs typo") is the title's, not a value.
      const quote = quoted.find((q) => overlaps(q, span));
      if (quote && quote.text.trim().toLowerCase() !== String(value).toLowerCase()) continue;
      best = { value, span };
      break;
    }
  }
  return best;
}

/**
 * Builds an argument object for `schema` from `segment`, the text between an
 * action's name and the next named action.
 *
 * @example
 * ```ts
 * const schema = { type: "object", properties: { n: { type: "integer" }, q: { type: "string" } } };
 * fillArguments(schema, ` 42 as "urgent"`); // { n: 42, q: "urgent" }
 * ```
 */
export function fillArguments(schema: unknown, segment: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const properties = asSchema(schema)?.properties;
  if (!properties || typeof properties !== "object") return args;
  const entries: [string, Schema][] = [];
  for (const [key, value] of Object.entries(properties)) {
    const prop = asSchema(value);
    if (prop) entries.push([key, prop]);
  }

  const quoted = quotes(segment);
  const tokens = tokenize(segment);
  const used: Span[] = [];

  // Enum and const properties first, so a quoted "bug" that names an enum value
  // is not also taken by a free-text string property.
  for (const [key, prop] of entries) {
    if (prop.const !== undefined) {
      args[key] = prop.const;
    } else if (Array.isArray(prop.enum)) {
      const hit = matchEnum(prop.enum, tokens, used, quoted);
      if (hit) {
        args[key] = hit.value;
        used.push(hit.span);
      }
    }
  }

  const freeQuotes: Quote[] = quoted.filter((q) => !used.some((u) => overlaps(u, q)));
  const numbers: { value: number; span: Span }[] = [];
  for (const m of segment.matchAll(NUMBER)) {
    const span = { start: m.index, end: m.index + m[0].length };
    if (inside(span.start, quoted) || used.some((u) => overlaps(u, span))) continue;
    numbers.push({ value: Number(m[0]), span });
  }
  const booleans: boolean[] = [];
  for (const t of tokens) {
    if (inside(t.start, quoted)) continue;
    if (TRUE_WORDS.has(t.word)) booleans.push(true);
    else if (FALSE_WORDS.has(t.word)) booleans.push(false);
  }

  // Unquoted values a string property's shape picks out: a date ("due 2027-05-01"), an id ("m1").
  for (const [key, prop] of entries) {
    if (key in args || Array.isArray(prop.enum) || !typesOf(prop).includes("string")) continue;
    const shape = isDate(key, prop) ? DATE : /^(?:id|\w+_id)$/.test(key) ? ID : undefined;
    const found = shape &&
      [...segment.matchAll(shape)].find((m) =>
        !inside(m.index, quoted) && !used.some((u) => overlaps(u, spanOf(m)))
      );
    if (found) {
      args[key] = found[0];
      used.push(spanOf(found));
      numbers.splice(0, numbers.length, ...numbers.filter((n) => !overlaps(n.span, spanOf(found))));
    }
  }

  for (const [key, prop] of entries) {
    if (key in args || Array.isArray(prop.enum)) continue;
    const types = typesOf(prop);
    if (types.includes("integer") || types.includes("number")) {
      const next = types.includes("integer")
        ? numbers.findIndex((n) => Number.isInteger(n.value))
        : numbers.length > 0
        ? 0
        : -1;
      if (next >= 0) args[key] = numbers.splice(next, 1)[0].value;
    } else if (types.includes("string")) {
      const next = freeQuotes.shift();
      if (next) args[key] = next.text;
    } else if (types.includes("boolean")) {
      const next = booleans.shift();
      if (next !== undefined) args[key] = next;
    }
  }
  // An unquoted title after "called", "titled", "named" or "about" ("create an issue about dark
  // mode"), up to the first value another property took.
  for (const [key, prop] of entries) {
    if (key in args || !TITLE_KEY.test(key) || !typesOf(prop).includes("string")) continue;
    const m = NAMED.exec(segment);
    if (!m || inside(m.index, quoted)) continue;
    const start = m.index + m[0].length - m[1].length;
    let end = segment.length;
    for (const u of used) if (u.start >= start && u.start < end) end = u.start;
    const text = segment.slice(start, end).replace(TRAILING, "").trim();
    if (text && text.length <= 120) args[key] = capital(text);
  }
  return args;
}

/** The string properties that hold what a new thing is called. */
export const TITLE_KEY = /^(?:title|name|subject|summary)$/;
const NAMED = /\b(?:called|titled|named|about)\s+(?!["“'‘])(\S.*)$/iu;
// Joining words left before a value another property took ("… label bug", "… assigned to bob").
const TRAILING =
  /(?:\s+(?:with|and|as|the|label(?:led)?|tagged|assign\w*(?: to)?|for|to))*[\s.,;:!?]*$/i;

const DATE = /(?<![\p{L}\p{N}])\d{4}-\d{2}-\d{2}(?![\p{L}\p{N}])/gu;
const ID = /(?<![\p{L}\p{N}_-])[a-z]{1,4}\d{1,6}(?![\p{L}\p{N}_-])/giu;

const spanOf = (m: RegExpMatchArray): Span => ({ start: m.index!, end: m.index! + m[0].length });

/** Whether a string property holds a calendar date (by its format, pattern, name or description). */
function isDate(
  key: string,
  prop: Schema & { format?: unknown; pattern?: unknown; description?: unknown },
): boolean {
  return prop.format === "date" || prop.pattern === "^\\d{4}-\\d{2}-\\d{2}$" ||
    /(?:^|_)(?:date|due|day)$/i.test(key) || /\bYYYY-MM-DD\b/.test(String(prop.description ?? ""));
}

/** Narrows a JSON schema definition (which may be a boolean) to an object schema. */
function asSchema(definition: unknown): Schema | undefined {
  return typeof definition === "object" && definition !== null && !Array.isArray(definition)
    ? definition as Schema
    : undefined;
}
