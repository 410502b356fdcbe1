/**
 * What the offline planner does when a message names no action outright:
 * it weighs every offered action against the words ("close 42" is a
 * `change_status` whose description starts "Close or reopen", with
 * `status: "closed"`; "issues assigned to alice" is the action that takes
 * `alice`), and completes an item number from the items on screen ("the
 * issue about login", "close it").
 *
 * Work is bounded: at most `MAX_TOKENS` words are weighed, and each action
 * costs one pass over them per enum value.
 *
 * @module
 */

import { fillArguments, type Schema, TITLE_KEY } from "./_args.ts";
import { findItem, hasFact, type Item, ordinalPhrase } from "./_items.ts";
import type { Action, NamedCall } from "./_match.ts";
import { stem, type Token, tokenize, wordsOf } from "./_text.ts";
import { POINTERS, STOP_WORDS, triggersOf, verbOfValue } from "./_vocabulary.ts";

/** What the planner knows of the screen: its items, the selected one, and words that only name kinds of things. */
export interface Screen {
  items: readonly Item[];
  selected: number | undefined;
  /** Stems that say what kind of thing is meant ("issue", the offered actions' words), never which one. */
  vocabulary?: ReadonlySet<string>;
  /** What the listed items are (the stem "issue"): between equals, the action about them wins. */
  kind?: string;
}

const MAX_TOKENS = 200;
// Below this an action is a guess, not an understanding: the planner answers in words instead.
const THRESHOLD = 3;
const ITEM_KEY = /^(?:number|id|num|issue|item|task|ticket)$|(?:_number|_id|Number|Id)$/;

/**
 * The properties of an action's input schema that are schemas themselves.
 *
 * @example
 * ```ts
 * propertiesOf({ properties: { number: { type: "integer" } } }); // [["number", { type: "integer" }]]
 * ```
 */
export function propertiesOf(schema: unknown): [string, Schema][] {
  const props = (schema as Schema | undefined)?.properties;
  if (!props || typeof props !== "object") return [];
  return Object.entries(props).filter((e): e is [string, Schema] =>
    typeof e[1] === "object" && e[1] !== null
  );
}

function requiredOf(schema: unknown): string[] {
  const required = (schema as { required?: unknown } | undefined)?.required;
  return Array.isArray(required) ? required.filter((r) => typeof r === "string") : [];
}

function isItemKey(key: string, prop: Schema & { description?: unknown }): boolean {
  const types = Array.isArray(prop.type) ? prop.type : [prop.type];
  if (!types.includes("integer") && !types.includes("number")) return false;
  return ITEM_KEY.test(key) ||
    (typeof prop.description === "string" && /\b(?:number|id)\b/i.test(prop.description));
}

/**
 * Fills an item-number argument the words left open: from the title words
 * they mention, or the selected item when they point at it ("close it").
 *
 * @example
 * ```ts
 * completeItem(action, {}, tokenize("the issue about login"), screen); // { number: 42 }
 * ```
 */
export function completeItem(
  action: Action,
  args: Record<string, unknown>,
  tokens: readonly Token[],
  screen: Screen,
): Record<string, unknown> {
  const key = propertiesOf(action.schema).find(([k, p]) => !(k in args) && isItemKey(k, p))?.[0];
  if (key === undefined) return args;
  // The action's own words and the argument values already taken say nothing about which item.
  const ignore = new Set([...screen.vocabulary ?? [], ...wordsOf(action.name).map(stem)]);
  for (const value of Object.values(args)) {
    if (typeof value === "string") { for (const t of tokenize(value)) ignore.add(t.stem); }
  }
  const number = findItem(tokens, screen.items, screen.selected, ignore, screen.kind);
  return number === undefined ? args : { ...args, [key]: number };
}

/**
 * The required item-number argument a call still lacks (the words named no
 * number, no title and nothing selected), if any: the planner asks which one
 * instead of making a call the runtime would refuse.
 *
 * @example
 * ```ts
 * missingItem(openIssue, {}); // "number"
 * ```
 */
export function missingItem(action: Action, input: Record<string, unknown>): string | undefined {
  const required = requiredOf(action.schema);
  return propertiesOf(action.schema).find(([k, p]) =>
    required.includes(k) && !(k in input) && isItemKey(k, p)
  )?.[0];
}

/**
 * The required title a call still lacks ("create an issue" names none), if any: the planner
 * asks for it instead of making a call the runtime would refuse.
 *
 * @example
 * ```ts
 * missingTitle(createIssue, {}); // "title"
 * ```
 */
export function missingTitle(action: Action, input: Record<string, unknown>): string | undefined {
  const required = requiredOf(action.schema);
  return propertiesOf(action.schema).find(([k, p]) =>
    required.includes(k) && !(k in input) && TITLE_KEY.test(k) && p.type === "string"
  )?.[0];
}

function withoutKey(input: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _, ...rest } = input;
  return rest;
}

interface Weighed {
  action: Action;
  score: number;
  input: Record<string, unknown>;
  /** Where the verb that chose the action starts in the text (-1: chosen by its values alone). */
  at: number;
}

/** The enum values the words mention, among all offered actions (never mere vocabulary like "issues"). */
function mentionedValues(actions: readonly Action[], tokens: Token[], screen: Screen): Set<string> {
  const said = new Set(tokens.map((t) => t.stem));
  const out = new Set<string>();
  for (const action of actions) {
    for (const [, prop] of propertiesOf(action.schema)) {
      if (!Array.isArray(prop.enum)) continue;
      for (const value of prop.enum) {
        if (typeof value !== "string") continue;
        const stems = tokenize(value).map((t) => t.stem);
        if (stems.length === 0 || stems.every((s) => screen.vocabulary?.has(s))) continue;
        if (stems.every((s) => said.has(s))) out.add(value.toLowerCase());
      }
    }
  }
  return out;
}

function weigh(
  action: Action,
  text: string,
  tokens: Token[],
  screen: Screen,
  mentioned: ReadonlySet<string>,
  placedByWords: { numbers: number[]; fact?: string } | undefined,
): Weighed {
  const triggers = triggersOf(action.name, action.description);
  const own = wordsOf(action.name).map(stem);
  const stems = new Set(tokens.map((t) => t.stem));
  let score = 0;
  let evidence = false;
  const first = tokens.findIndex((t) => !STOP_WORDS.has(t.word));
  const hit = tokens.findIndex((t) => triggers.has(t.stem));
  const at = hit >= 0 ? tokens[hit].start : -1;
  // Whether the verb said is the name's own or one the description starts with, rather than a
  // synonym of either.
  const fromDescription = hit >= 0 &&
    wordsOf(action.description ?? "").slice(0, 5).map(stem).includes(tokens[hit].stem);
  const direct = hit >= 0 && (own[0] === tokens[hit].stem || fromDescription);
  if (hit >= 0) {
    // A verb from the name (or its synonyms) says more than one from the description.
    const fromName = own[0] === tokens[hit].stem || !fromDescription;
    score += (fromName ? 3 : 2) + (hit === first ? 1 : 0);
    evidence = true;
  }
  for (const word of own.slice(1)) if (stems.has(word)) score += 2;
  // "show unassigned issues" names what the page lists, and "show" stands in for "find" only by
  // synonym: an action named after other things ("find milestones") is not what it means.
  const nouns = own.slice(1);
  if (
    hit >= 0 && !direct && screen.kind !== undefined && stems.has(screen.kind) &&
    nouns.length > 0 && !nouns.some((w) => w === screen.kind || stems.has(w))
  ) {
    evidence = false;
  }
  // Only ever a tie-breaker (scores are whole numbers otherwise), so the order actions are
  // offered in never decides: `find "redirect"` on an issue list means the issues.
  if (screen.kind !== undefined && own.slice(1).includes(screen.kind)) score += 0.5;

  let input = fillArguments(action.schema, text);
  for (const [key, prop] of propertiesOf(action.schema)) {
    if (!Array.isArray(prop.enum)) continue;
    if (key in input) {
      // A value that is only the name of what the page lists ("issues" as a page to go to) says
      // which value when the action's verb was said, never which action: "rename issue 42" is
      // no request to go to the issues page.
      const stems = tokenize(String(input[key])).map((t) => t.stem);
      if (hit < 0 && screen.kind !== undefined && stems.every((s) => s === screen.kind)) {
        input = withoutKey(input, key);
        continue;
      }
      score += 2 * Math.max(1, stems.length);
      evidence = true;
      continue;
    }
    // "close" means `closed`, "reopen" means `open`.
    const value = prop.enum.find((v) =>
      typeof v === "string" && tokens.some((t) => verbOfValue(t.stem, v))
    );
    if (value !== undefined) {
      input = { ...input, [key]: value };
      score += 3;
      evidence = true;
    }
  }
  const before = Object.keys(input).length;
  input = completeItem(action, input, tokens, screen);
  score += Object.keys(input).length;
  // "the second bug" names one item by its place: only an action that takes an item can use it,
  // so its words count for that action rather than as a filter's label.
  const placed = Object.keys(input).length > before ? placedByWords : undefined;
  if (placed) score += 2;
  // A value the words name that this action cannot take ("bob" for a label-only filter) counts
  // against it, unless it only said which item: "bug" in "the second bug", or in "assign the
  // login bug to bob" where the item the action takes is a bug.
  const taken = new Set(Object.values(input).map((v) => String(v).toLowerCase()));
  const itemKey = propertiesOf(action.schema).find(([k, p]) =>
    Number.isInteger(input[k]) && isItemKey(k, p)
  )?.[0];
  const item = itemKey === undefined
    ? undefined
    : screen.items.find((i) => i.number === input[itemKey]);
  for (const value of mentioned) {
    if (taken.has(value) || stem(value) === placed?.fact) continue;
    if (item && hasFact(item, stem(value))) continue;
    score -= 2;
  }
  // "close it" with nothing selected still means one item: the words point at it, so the action
  // that takes an item is not marked down for lacking it, and the planner asks which one rather
  // than reading "close" as a filter.
  const pointed = hit >= 0 && tokens.some((t) => POINTERS.has(t.word))
    ? missingItem(action, input)
    : undefined;
  for (const key of requiredOf(action.schema)) {
    if (!(key in input) && key !== pointed) score -= 3;
  }
  return { action, score: evidence ? score : 0, input, at };
}

/**
 * The one action the words most likely mean, with its arguments, or nothing when none is likely.
 *
 * @example
 * ```ts
 * intendedCall("close 42", actions, screen); // { name: "change_status", input: { number: 42, status: "closed" } }
 * ```
 */
export function intendedCall(
  text: string,
  actions: readonly Action[],
  screen: Screen,
): (NamedCall & { at: number }) | undefined {
  const tokens = tokenize(text).slice(0, MAX_TOKENS);
  if (tokens.length === 0) return undefined;
  let best: Weighed | undefined;
  const mentioned = mentionedValues(actions, tokens, screen);
  // The items an ordinal names, read once for every action weighed.
  const placed = ordinalPhrase(tokens, screen.items, screen.kind);
  for (const action of actions) {
    const w = weigh(action, text, tokens, screen, mentioned, placed);
    if (!best || w.score > best.score) best = w;
  }
  return best && best.score >= THRESHOLD
    ? { name: best.action.name, input: best.input, at: best.at }
    : undefined;
}
