/**
 * The items a view lists (issues, tasks, files: any record with a number or
 * id and a title or name) and how the offline planner finds the one a user
 * means: by its number, by words of its title ("the issue about login"), or
 * as the selected one ("close it").
 *
 * @module
 */

import type { ContextFacts } from "./_context.ts";
import { stem, type Token, tokenize, truncate } from "./_text.ts";
import { POINTERS, STOP_WORDS } from "./_vocabulary.ts";

/** One listed item. */
export interface Item {
  number: number;
  title: string;
  /** The item's other short facts (state, labels, assignee), for descriptions. */
  facts: string[];
  /** What the item says of itself at length (its body or description), where the page sends it. */
  detail?: string;
}

// Bounds the work on a huge context: a view never shows more than this many at once.
const MAX_ITEMS = 500;
const KEYS = ["number", "id", "num", "index"];
const TITLES = ["title", "name", "label", "subject"];
const DETAILS = ["body", "description", "summary", "details", "text"];
// Fields that name who an item is with; empty, the item is with nobody: "unassigned" is a fact.
const PEOPLE = /^(?:assignee|assigned(?:_?to)?|owner)$/i;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The item a record describes, when it has a number and a title.
 *
 * @example
 * ```ts
 * itemOf({ number: 42, title: "Fix login" }); // { number: 42, title: "Fix login", facts: [] }
 * ```
 */
export function itemOf(value: unknown): Item | undefined {
  if (!isRecord(value)) return undefined;
  const key = KEYS.find((k) => Number.isInteger(value[k]));
  const title = TITLES.find((k) => typeof value[k] === "string");
  if (key === undefined || title === undefined) return undefined;
  const facts: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (k === key || k === title || DETAILS.includes(k) || facts.length >= 4) continue;
    if ((v === null || v === "") && PEOPLE.test(k)) facts.push("unassigned");
    else if (typeof v === "string" && v.length <= 40) facts.push(v);
    else if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string")) {
      facts.push(v.join(", "));
    }
  }
  const item: Item = { number: value[key] as number, title: value[title] as string, facts };
  const detail = DETAILS.map((k) => value[k]).find((v) => typeof v === "string" && v.trim());
  if (typeof detail === "string") item.detail = truncate(detail.trim(), 300);
  return item;
}

/**
 * Every item the view's data lists (lists first, then single records), without repeats; a
 * record of an item already listed adds its detail (its body) to it.
 *
 * @example
 * ```ts
 * itemsOf(readContext(block)).map((i) => i.number); // [67, 64, 61, ...]
 * ```
 */
export function itemsOf(facts: ContextFacts): Item[] {
  const seen = new Map<number, Item>();
  const out: Item[] = [];
  const add = (value: unknown) => {
    const item = itemOf(value);
    if (!item) return;
    const known = seen.get(item.number);
    // The selected item's own record often says more than its line in the list: its body.
    if (known) known.detail ??= item.detail;
    else if (out.length < MAX_ITEMS) {
      seen.set(item.number, item);
      out.push(item);
    }
  };
  for (const d of facts.data) if (Array.isArray(d.value)) d.value.forEach(add);
  for (const d of facts.data) add(d.value);
  return out;
}

/**
 * The selected item's number: a data entry named `selected…`/`current…`, else the state's `selected`.
 *
 * @example
 * ```ts
 * selectedOf(readContext('{"view":{"name":"x","state":{"selected":42}}}')); // 42
 * ```
 */
export function selectedOf(facts: ContextFacts): number | undefined {
  for (const d of facts.data) {
    if (!/^(?:selected|current|active)/i.test(d.name)) continue;
    const item = itemOf(d.value);
    if (item) return item.number;
    if (Number.isInteger(d.value)) return d.value as number;
  }
  const s = facts.state?.selected ?? facts.state?.current;
  return Number.isInteger(s) ? s as number : undefined;
}

/** Whether the word (a stem) says what the items are: their kind, "one" or "item". */
const namesKind = (word: string | undefined, kind: string | undefined) =>
  word === kind || word === "one" || word === "item";

// Not places in the list but the highest and the lowest number.
const NEWEST = 1_000;
const OLDEST = -1_000;

/** Where an ordinal word puts an item in the list on screen (-1: the last), or by its number. */
const ORDINALS: ReadonlyMap<string, number> = new Map([
  ["newest", NEWEST],
  ["latest", NEWEST],
  ["oldest", OLDEST],
  ["first", 0],
  ["top", 0],
  ["second", 1],
  ["third", 2],
  ["fourth", 3],
  ["fifth", 4],
  ["last", -1],
  ["bottom", -1],
]);

/**
 * Whether one of the item's facts (its state, labels, assignee) is the word `stem`.
 *
 * @example
 * ```ts
 * hasFact({ number: 42, title: "Fix login", facts: ["open", "bug, ui"] }, "bug"); // true
 * ```
 */
export function hasFact(item: Item, stem: string): boolean {
  let stems = FACT_STEMS.get(item);
  if (stems === undefined) {
    stems = new Set(item.facts.flatMap((f) => tokenize(f).map((t) => t.stem)));
    FACT_STEMS.set(item, stems);
  }
  return stems.has(stem);
}

// Each item's facts as stems, made once: a long message asks about every word.
const FACT_STEMS = new WeakMap<Item, Set<string>>();

/**
 * The words of a count after an ordinal, two to ten in order ("the first two issues").
 *
 * @example
 * ```ts
 * COUNT_WORDS[0]; // "two"
 * ```
 */
export const COUNT_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

// "the first two issues": how many, between the ordinal and what the items are.
const COUNTS: ReadonlyMap<string, number> = new Map(COUNT_WORDS.map((w, i) => [w, i + 2]));

/**
 * The item an ordinal names by its place in the list on screen: "the first issue", "the last
 * one", "the second bug" (among the items with that fact); "the newest" and "the oldest" by
 * its number; and the first or last few ("the first two issues", in the list's order). With
 * them, the fact that chose among the items ("bug"), if any. Undefined without an ordinal
 * followed by the items' kind, "one", or one of their facts.
 *
 * @example
 * ```ts
 * ordinalPhrase(tokenize("close the second bug"), items, "issue"); // { numbers: [51], fact: "bug" }
 * ```
 */
export function ordinalPhrase(
  tokens: readonly Token[],
  items: readonly Item[],
  kind: string | undefined,
): { numbers: number[]; fact?: string } | undefined {
  for (let i = 0; i + 1 < tokens.length; i++) {
    const place = ORDINALS.get(tokens[i].word);
    if (place === undefined) continue;
    // In words only: a number there ("the last 3 issues") reads as an item's number.
    const count = place === 0 || place === -1 ? COUNTS.get(tokens[i + 1].word) ?? 1 : 1;
    const next = tokens[i + 1 + (count > 1 ? 1 : 0)]?.stem;
    if (next === undefined) continue;
    const all = namesKind(next, kind);
    const among = all ? items : items.filter((item) => hasFact(item, next));
    if (among.length === 0) continue;
    const fact = all ? undefined : next;
    if (place === NEWEST || place === OLDEST) {
      // Numbers are handed out in order: the newest has the highest.
      const numbers = among.map((item) => item.number);
      return { numbers: [place === NEWEST ? Math.max(...numbers) : Math.min(...numbers)], fact };
    }
    const chosen = count > 1
      ? (place === 0 ? among.slice(0, count) : among.slice(-count))
      : among.slice(place, place === -1 ? undefined : place + 1);
    if (chosen.length === 0) return undefined;
    return { numbers: chosen.map((item) => item.number), fact };
  }
  return undefined;
}

/**
 * The number of the item an ordinal names (`ordinalPhrase`); the first of them where it names
 * a few.
 *
 * @example
 * ```ts
 * ordinalItem(tokenize("close the first issue"), items, "issue"); // items[0].number
 * ```
 */
export function ordinalItem(
  tokens: readonly Token[],
  items: readonly Item[],
  kind: string | undefined,
): number | undefined {
  return ordinalPhrase(tokens, items, kind)?.numbers[0];
}

/**
 * The item after or before the selected one in the list on screen: "the next issue", "the
 * previous one". Undefined without a selected item in the list, or past either end.
 *
 * @example
 * ```ts
 * besideSelected(tokenize("select the next issue"), items, 42, "issue"); // the number after 42's
 * ```
 */
export function besideSelected(
  tokens: readonly Token[],
  items: readonly Item[],
  selected: number | undefined,
  kind: string | undefined,
): number | undefined {
  const at = items.findIndex((item) => item.number === selected);
  if (at < 0) return undefined;
  for (let i = 0; i + 1 < tokens.length; i++) {
    const step = tokens[i].word === "next"
      ? 1
      : /^(?:previous|prev)$/.test(tokens[i].word)
      ? -1
      : 0;
    const next = tokens[i + 1].stem;
    if (step !== 0 && namesKind(next, kind)) {
      return items[at + step]?.number;
    }
  }
  return undefined;
}

/**
 * The item the words mean: the one named by its place in the list ("the first issue"), the
 * one whose title shares the most meaningful words with them (a unique best), or the selected
 * one when they point at it.
 *
 * @example
 * ```ts
 * findItem(tokenize("the issue about login"), items, 42, new Set(["issue"])); // 42
 * ```
 */
export function findItem(
  tokens: readonly Token[],
  items: readonly Item[],
  selected: number | undefined,
  ignore: ReadonlySet<string>,
  kind?: string,
): number | undefined {
  const placed = ordinalItem(tokens, items, kind) ?? besideSelected(tokens, items, selected, kind);
  if (placed !== undefined) return placed;
  const wanted = new Set<string>();
  let pointer = false;
  for (const t of tokens) {
    if (POINTERS.has(t.word)) pointer = true;
    if (STOP_WORDS.has(t.word) || ignore.has(t.stem) || /^\d+$/.test(t.word)) continue;
    wanted.add(t.stem);
  }
  let best: number | undefined;
  let bestScore = 0;
  let tie = false;
  if (wanted.size > 0) {
    for (const item of items) {
      let score = 0;
      const counted = new Set<string>();
      for (const t of tokenize(item.title)) {
        if (wanted.has(t.stem) && !counted.has(t.stem)) {
          counted.add(t.stem);
          score++;
        }
      }
      if (score > bestScore) {
        best = item.number;
        bestScore = score;
        tie = false;
      } else if (score > 0 && score === bestScore) tie = true;
    }
  }
  if (best !== undefined && !tie) return best;
  return pointer ? selected : undefined;
}

/**
 * An item in words: `#42 Fix login redirect loop (open, bug, alice)`.
 *
 * @example
 * ```ts
 * describeItem({ number: 42, title: "Fix login", facts: ["open"] }); // "#42 Fix login (open)"
 * ```
 */
export function describeItem(item: Item): string {
  const facts = item.facts.length ? ` (${item.facts.join(", ")})` : "";
  return `#${item.number} ${truncate(item.title, 80)}${facts}`;
}

/**
 * The stems of a phrase, for the `ignore` set of `findItem`.
 *
 * @example
 * ```ts
 * stemsOf("close issues"); // Set { "close", "issue" }
 * ```
 */
export function stemSet(text: string): Set<string> {
  return new Set(tokenize(text).map((t) => stem(t.word)));
}
