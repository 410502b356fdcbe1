/**
 * Requests about several items at once, which the offline planner answers in
 * words: "how many open bugs are there?" counts the items on screen that match,
 * and "close all bugs" says that each change names one item, listing the
 * items the words mean and a request that names the first of them; "show the
 * first three bugs" lists those three; "close issues 42-45" lists the issues on
 * screen in that range and names the first, as "close all bugs" does.
 *
 * Which items the words mean is read from what the items say of themselves
 * (their state, labels, assignee: `Item.facts`) and the values the offered
 * actions take, so "closed" is understood on a list that shows none.
 *
 * @module
 */

import { hasFact, type Item, ordinalPhrase } from "./_items.ts";
import type { Action } from "./_match.ts";
import { stem, type Token, tokenize, truncate } from "./_text.ts";
import { STOP_WORDS, triggersOf } from "./_vocabulary.ts";
import { missingItem, propertiesOf } from "./_intent.ts";

/** What the planner knows of the items for these answers. */
export interface Listed {
  items: readonly Item[];
  /** What one item is called ("issue"), from the data entry that lists them. */
  kind: string;
  /** The plural the page uses ("issues"). */
  kinds: string;
}

// Items listed by number and title in an answer; past this, how many more.
const LISTED = 5;
const HOW_MANY = /^how many\b/i;
// A count is asked in a sentence; past this the words are no such question.
const MAX_QUESTION = 300;
const ALL = new Set(["all", "every", "each", "both"]);
// Where the words naming the items end and the rest of a request begins.
const REST = new Set(
  ["to", "as", "into", "for", "from", "by", "with", "and", "then", "but", "except"],
);
// "close all but 42", "everything except 31 and 7": the numbers left out.
const EXCEPT =
  /\b(?:but|except)(?:\s+for)?((?:\s*(?:,|and)?\s*(?:(?:issue|number|#)\s*)?#?\d{1,9}\b)+)/i;
// The verbs that only show or pick an item: "show all bugs" is a filter, never a change to each.
const LOOKING = new Set(
  "open show view display see read select choose pick highlight focus find search list look filter go get"
    .split(" "),
);
// The verbs that only look: their answer to a few items is the list itself.
const SHOWING = new Set("show view display see read find list look get".split(" "));

/** The stems of every enum value the offered actions take ("closed", "bug", "alice"). */
function valueStems(actions: readonly Action[]): Set<string> {
  const out = new Set<string>();
  for (const a of actions) {
    for (const [, p] of propertiesOf(a.schema)) {
      for (const v of Array.isArray(p.enum) ? p.enum : []) {
        if (typeof v === "string" && !/\s/.test(v)) out.add(stem(v.toLowerCase()));
      }
    }
  }
  return out;
}

/** The words among `tokens` that say which items: facts of some item, or values an action takes. */
function factWords(tokens: readonly Token[], listed: Listed, actions: readonly Action[]): Token[] {
  const values = valueStems(actions);
  const out: Token[] = [];
  for (const t of tokens) {
    if (STOP_WORDS.has(t.word) || t.stem === listed.kind || out.some((o) => o.stem === t.stem)) {
      continue;
    }
    if (values.has(t.stem) || listed.items.some((i) => hasFact(i, t.stem))) out.push(t);
  }
  return out;
}

/** The items each of `words` is a fact of. */
const matchingAll = (items: readonly Item[], words: readonly Token[]) =>
  items.filter((i) => words.every((w) => hasFact(i, w.stem)));

/** Items as the lines of a list, the first few by number and title, then how many more. */
function lines(items: readonly Item[]): string {
  // "and 1 more" would take a line as long as the item it stands for.
  const count = items.length === LISTED + 1 ? items.length : LISTED;
  const shown = items.slice(0, count).map((i) => `- #${i.number} ${truncate(i.title, 60)}`);
  if (items.length > count) shown.push(`- and ${items.length - count} more`);
  return shown.join("\n");
}

/** A request as the answer quotes it back: trimmed, one space between words, no end mark. */
const said = (request: string) => request.trim().replace(/[.!?]+$/, "").replace(/\s+/g, " ");

// The words as the person typed them: “docs”, not the stem “doc”.
const quoted = (words: readonly Token[]) => words.map((w) => `“${w.word}”`).join(" and ");

/**
 * The answer to "how many … ?" with words that say which items ("how many open bugs are
 * there?"), counted among the items on screen; undefined for any other text, and for a count
 * of everything (the description of the screen says how many it shows).
 *
 * @example
 * ```ts
 * countAnswer("how many bugs?", listed, actions); // "6 of the 14 issues on screen match “bug”:\n- #58 …"
 * ```
 */
export function countAnswer(
  text: string,
  listed: Listed,
  actions: readonly Action[],
): string | undefined {
  if (!HOW_MANY.test(text) || listed.items.length === 0 || text.length > MAX_QUESTION) {
    return undefined;
  }
  const words = factWords(tokenize(text), listed, actions);
  return words.length === 0 ? undefined : matchAnswer(words, listed);
}

/** How many of the items on screen match all of `words`, and which. */
function matchAnswer(words: readonly Token[], listed: Listed): string {
  const matching = matchingAll(listed.items, words);
  const total = `the ${listed.items.length} ${listed.kinds} on screen`;
  if (matching.length === 0) return `None of ${total} match ${quoted(words)}.`;
  if (matching.length === listed.items.length) {
    return `All ${listed.items.length} ${listed.kinds} on screen match ${quoted(words)}.`;
  }
  const verb = matching.length === 1 ? "matches" : "match";
  return `${matching.length} of ${total} ${verb} ${quoted(words)}:\n${lines(matching)}`;
}

const WHICH = /^(?:which|what)\b/i;

/**
 * The answer to "which bugs are unassigned?" or "show unassigned bugs" where the words name a
 * fact of the items that no offered action takes as a value, so no filter could show them:
 * the items on screen that match, as a count does. Undefined where every such word is a
 * value an action takes (a filter is then the answer), and for any other text.
 *
 * @example
 * ```ts
 * unfilterable("which bugs are unassigned?", listed, actions); // "1 of the 14 issues on screen matches …"
 * ```
 */
export function unfilterable(
  text: string,
  listed: Listed,
  actions: readonly Action[],
): string | undefined {
  if (listed.items.length === 0 || text.length > MAX_QUESTION) return undefined;
  const tokens = tokenize(text);
  const verb = tokens.find((t) => !STOP_WORDS.has(t.word));
  if (!WHICH.test(text) && !(verb && SHOWING.has(verb.stem))) return undefined;
  const words = factWords(tokens, listed, actions);
  const values = valueStems(actions);
  if (!words.some((w) => !values.has(w.stem))) return undefined;
  return matchAnswer(words, listed);
}

/**
 * The answer to a change asked of several items at once ("close all bugs", "assign every
 * docs issue to dana") when the action it names changes one item a call: which items the
 * words mean and the request for the first of them. Undefined for any other text.
 *
 * @example
 * ```ts
 * oneAtATime("close all bugs", listed, actions); // "I close one issue at a time. …"
 * ```
 */
export function oneAtATime(
  text: string,
  listed: Listed,
  actions: readonly Action[],
): string | undefined {
  const tokens = tokenize(text);
  const all = tokens.findIndex((t) => ALL.has(t.word));
  const verb = tokens.find((t) => !STOP_WORDS.has(t.word));
  if (all < 0 || !verb || LOOKING.has(verb.stem) || listed.items.length === 0) return undefined;
  const triggered = actions.filter((a) => triggersOf(a.name, a.description).has(verb.stem));
  const action = triggered.find((a) => missingItem(a, {}) !== undefined);
  if (!action) return undefined;
  // The words after "all" that say which items, up to the last of them within four words and
  // before the rest of the request ("assign all bugs to bob").
  const phrase = tokens.slice(all + 1, all + 5);
  const rest = phrase.findIndex((t) => REST.has(t.word));
  if (rest >= 0) phrase.length = rest;
  const values = valueStems(actions);
  let end = -1;
  phrase.forEach((t, i) => {
    if (
      t.stem === listed.kind || values.has(t.stem) || listed.items.some((x) => hasFact(x, t.stem))
    ) {
      end = i;
    }
  });
  // "close all": nothing after it says which, so every item on screen.
  if (end < 0 && phrase.length > 0) return undefined;
  const words = factWords(phrase.slice(0, end + 1), listed, actions);
  const except = text.slice(tokens[all].end).match(EXCEPT)?.[1].match(/\d{1,9}/g)?.map(Number);
  const matching = matchingAll(listed.items, words).filter((i) => !except?.includes(i.number));
  const head = `I ${verb.word} one ${listed.kind} at a time.`;
  const which = words.length ? ` that match ${quoted(words)}` : "";
  if (matching.length === 0) {
    return `${head} None of the ${listed.kinds} on screen match ${quoted(words)}.`;
  }
  // The person's own request with the first item's number where they said "all …".
  const request = text.slice(0, tokens[all].start) + `${listed.kind} ${matching[0].number}` +
    text.slice((end < 0 ? tokens[all] : phrase[end]).end);
  const example = request.length <= 80 ? said(request.replace(EXCEPT, "")) : undefined;
  return `${head} The ${listed.kinds} on screen${which}:\n${lines(matching)}\n\n${
    example ? `Say “${example}”, then the next.` : "Name them one by one."
  }`;
}

// A range of numbers: "42-45", "42 to 45", "42 through 45", "from 42 to 45", "between 42 and 45".
const NUMBER = String.raw`(?:\b(?:issue|number|item)s?\s+#?|#|\b)(\d{1,9})\b`;
const RANGE = new RegExp(
  String
    .raw`(?:\bbetween\s+${NUMBER}\s+and|${NUMBER}\s*(?:-|–|—|\bto\b|\bthrough\b|\bthru\b))\s*${NUMBER}`,
  "i",
);

/**
 * The answer to a request about a range of numbers ("close issues 42-45", "show 40 to 60"):
 * the items on screen in that range, and for a change the request for the first of them, as
 * for "close all bugs". Which numbers exist is known only of the items on screen, so no call is
 * made for the others: each change names one item, said in the person's own words. Undefined
 * for any other text, and where an action the verb names takes two numbers ("set priority of
 * 4 to 5" is no range).
 *
 * @example
 * ```ts
 * rangeAnswer("close issues 42-45", listed, actions); // "I close one issue at a time. …"
 * ```
 */
export function rangeAnswer(
  text: string,
  listed: Listed,
  actions: readonly Action[],
): string | undefined {
  if (text.length > MAX_QUESTION || listed.items.length === 0) return undefined;
  // Quoted words are a title or a value ("create issue "Support 2-3 seats""), never a range.
  const range = text.replace(/"[^"]*"|“[^”]*”/g, (q) => " ".repeat(q.length)).match(RANGE);
  if (!range) return undefined;
  const [low, high] = range.slice(1).filter((n) => n !== undefined).map(Number);
  if (!(high > low)) return undefined;
  const tokens = tokenize(text);
  const verb = tokens.find((t) => !STOP_WORDS.has(t.word));
  if (!verb) return undefined;
  const showing = SHOWING.has(verb.stem);
  const triggered = actions.filter((a) => triggersOf(a.name, a.description).has(verb.stem));
  const numeric = (a: Action) =>
    propertiesOf(a.schema).filter(([, p]) => p.type === "integer" || p.type === "number").length;
  if (triggered.some((a) => numeric(a) > 1)) return undefined;
  // Else a verb of no action on one item ("create milestone … 2027-05-31"): not about items.
  if (!showing && !triggered.some((a) => missingItem(a, {}) !== undefined)) return undefined;
  // A look at a range of the items on screen names them ("show issues 40-60", "show #40-#60"),
  // not some other thing ("show milestones 1-3").
  if (showing && !range[0].includes("#") && !tokens.some((t) => t.stem === listed.kind)) {
    return undefined;
  }
  const items = listed.items.filter((i) => i.number >= low && i.number <= high)
    .sort((a, b) => a.number - b.number);
  const where = `on screen from #${low} to #${high}`;
  const list = items.length
    ? `The ${listed.kinds} ${where}:\n${lines(items)}`
    : `None of the ${listed.kinds} ${
      where.replace("on screen from", "on screen is numbered from")
    }.`;
  if (showing) return list;
  const head = `I ${verb.word} one ${listed.kind} at a time.`;
  if (items.length === 0) return `${head} ${list}`;
  // The person's own request with the first item's number in place of the range.
  const request = text.slice(0, range.index) + `${listed.kind} ${items[0].number}` +
    text.slice(range.index! + range[0].length);
  const example = request.length <= 80
    ? said(request).replace(
      new RegExp(String.raw`\b${listed.kinds}\s+(?=${listed.kind}\b)`, "i"),
      "",
    )
    : undefined;
  const ask = example ? `Say “${example}”` : "Name them one by one";
  // A pick ("select") takes one; a change goes on to the next.
  const next = items.length > 1 && !LOOKING.has(verb.stem) ? ", then the next." : ".";
  return `${head} ${list}\n\n${ask}${next}`;
}

/**
 * The answer to a look at a few items named by their place ("show the first three bugs",
 * "select the last 3 issues"): the items as a list, since a page shows or picks one item a
 * call; a verb that picks ("select", "open") also says how to ask for one. Undefined for any
 * other text, and where the place names one item.
 *
 * @example
 * ```ts
 * placedLook("show the first three bugs", listed); // "The first three bugs on screen:\n- #58 …"
 * ```
 */
export function placedLook(text: string, listed: Listed): string | undefined {
  const tokens = tokenize(text);
  const verb = tokens.find((t) => !STOP_WORDS.has(t.word));
  if (!verb || !LOOKING.has(verb.stem) || listed.items.length === 0) return undefined;
  const placed = ordinalPhrase(tokens, listed.items, listed.kind);
  if (!placed || placed.numbers.length < 2) return undefined;
  const items = placed.numbers.flatMap((n) => listed.items.filter((i) => i.number === n));
  const list = `The ${listed.kinds} you mean:\n${lines(items)}`;
  if (SHOWING.has(verb.stem)) return list;
  return `I ${verb.word} one ${listed.kind} at a time. ${list}\n\nSay “${verb.word} ${listed.kind} ${
    items[0].number
  }”.`;
}
