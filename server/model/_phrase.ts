/**
 * What people type, made plain before the planner weighs it: a word one
 * edit away from a word the page knows is read as that word ("clsoe" →
 * close, "hlep" → help), and the table below rewrites the common ways of
 * saying a request into the words the actions are described with ("mark 19
 * as done" → close 19, "search for login" → search for "login").
 * It also names the requests the page has no action for ("label 42 as ui"),
 * so the planner can say so instead of guessing another action.
 *
 * Work is bounded: the planner hands in a bounded prefix, only its first
 * 24 words are checked for typos, and each is compared with each known word
 * once.
 *
 * @module
 */

import type { Action } from "./_match.ts";
import { COUNT_WORDS, type Item } from "./_items.ts";
import { stem, tokenize, wordsOf } from "./_text.ts";
import { STOP_WORDS, triggersOf } from "./_vocabulary.ts";

// Words the planner understands whatever the page offers (its plain answers, its rewrites).
const CORE = [
  "help",
  "hello",
  "thanks",
  "search",
  "filter",
  "filters",
  "reopen",
  "select",
  "close",
  "delete",
  "create",
  "assign",
  "open",
  "show",
  "issue",
  "issues",
  "clear",
  "screen",
  "page",
];
// Common words a typo check must leave alone (real words one edit from a known one).
const LEAVE = new Set([
  "does",
  "done",
  "dose",
  "shot",
  "shoe",
  "shop",
  "lose",
  "lost",
  "clean",
  "clear",
  "issued",
  "opens",
  "opened",
  "helps",
  "helper",
  "there",
  "these",
  "those",
  "where",
  "what",
  "when",
  "fixed",
]);

// Each row: what people say → the words the planner reads. Applied in order, once each.
const REWRITES: [RegExp, string][] = [
  // "re-open" is one verb.
  [/\bre-(open|assign)/gi, "re$1"],
  // Values said another way.
  [
    /\b(mark|set)\b(.*?)\b(?:as )?(?:done|fixed|finished|resolved|completed?)\b/gi,
    "$1$2 as closed",
  ],
  [/\beverything\b/gi, "all issues"],
  // "open it again" and "put 42 back to open" reopen; opening to look is "open 42".
  [/^(?:please )?open (.{1,40}?) again\b/i, "reopen $1"],
  [/^(?:please )?put (.{1,40}?) (?:back )?(?:in)?to (open|closed)\b/i, "set $1 to $2"],
  [/\bback to (open|closed)\b/gi, "to $1"],
  [/\b((?:clear|remove|reset|drop) )(?:all )?(?:the )?(filters?|search)\b/gi, "$1filters"],
  // Going back to the list is going to the issues page.
  [/^(?:(?:go|get|take me) )?back to (?:the )?(?:list|issue list)\b/i, "go to issues"],
  [/^go to (?:the )?(?:list|issue list)\b/i, "go to issues"],
  [/^(?:go|get|take me) back\s*[.!]*$/i, "go to issues"],
  // "show dana's issues": the person's name, not a possessive.
  [/\b(\p{L}+)'s (issues|bugs|tickets)\b/giu, "$2 assigned to $1"],
  [/^what is (\p{L}+) working on\??$/iu, "issues assigned to $1"],
  // "add the performance label to 31" asks for labelling.
  [/^(?:add|put|apply) (?:the |a )?(?:\S+ )?(?:label|tag)\b/i, "label"],
  // So does "remove the bug label from 42": about a label, never a request to delete the issue.
  [
    /^(?:remove|delete|drop|take off|strip) (?:the |a |all )?(?:\S+ )?(?:labels?|tags?)\b/i,
    "label",
  ],
  // "new issue: dark mode is broken" files one with that title ("new bug: …" labels it a bug).
  [/^(?:new|create|file|add)(?: an?)? issue\s*[:–—-]\s*([^"“”\n]+?)[.!\s]*$/i, 'create issue "$1"'],
  [
    /^(?:new|create|file|add)(?: an?)? bug\s*[:–—-]\s*([^"“”\n]+?)[.!\s]*$/i,
    'create issue "$1" label bug',
  ],
  // "the last 3 issues" counts, as "the last three issues" does: a digit between a place and
  // a plural is how many, not an item's number.
  ...COUNT_WORDS.map((word, i): [RegExp, string] => [
    new RegExp(`\\b(first|last|top|bottom) ${i + 2} (?=\\p{L}+s\\b)`, "giu"),
    `$1 ${word} `,
  ]),
];

// Searching without quotes: the words after the verb are the text to look for.
const SEARCH =
  /^(?:please )?(?:search(?: issues)?(?: for)?|look (?:for|up)|find(?: issues)?(?: about| with| containing| mentioning)?|(?:(?:show|list|display|give|get)(?: me)?(?: all)?(?: the)? )?issues (?:about|mentioning|containing|with|matching))\s+(?!")(.+?)[.?!]*$/i;

/**
 * Request verbs the planner knows as such: when a message starts with one
 * that no offered action is described by, the page has no action for it.
 */
const REQUEST_VERBS = new Set([
  "label",
  "tag",
  "unassign",
  "comment",
  "archive",
  "export",
  "import",
  "merge",
  "duplicate",
  "star",
  "pin",
  "lock",
  "unlock",
  "print",
  "email",
  "share",
  "edit",
  "subscribe",
  "watch",
  "upload",
  "download",
  "translate",
  "sort",
  "vote",
  "mention",
  "link",
  "rename",
  "move",
  "copy",
  "undo",
]);

/** Whether `a` and `b` are at most one edit apart (insert, delete, replace, or swap two neighbours). */
export function oneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  if (a.length === b.length) {
    const diff: number[] = [];
    for (let i = 0; i < a.length && diff.length <= 2; i++) if (a[i] !== b[i]) diff.push(i);
    if (diff.length === 1) return true;
    return diff.length === 2 && diff[1] === diff[0] + 1 && a[diff[0]] === b[diff[1]] &&
      a[diff[1]] === b[diff[0]];
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  return short.slice(i) === long.slice(i + 1);
}

/** The words the page and the planner know: action names, verbs, enum values, item titles. */
function knownWords(actions: readonly Action[], items: readonly Item[]): Set<string> {
  const known = new Set<string>(CORE);
  for (const a of actions) {
    for (const w of wordsOf(a.name)) known.add(w);
    for (const w of triggersOf(a.name, a.description)) known.add(w);
    for (const w of wordsOf(a.description ?? "").slice(0, 12)) known.add(w);
    const props = (a.schema as { properties?: Record<string, { enum?: unknown[] }> })?.properties;
    for (const p of Object.values(props ?? {})) {
      for (const v of Array.isArray(p?.enum) ? p.enum : []) {
        if (typeof v === "string") { for (const w of wordsOf(v)) known.add(w); }
      }
    }
  }
  for (const item of items.slice(0, 200)) for (const w of wordsOf(item.title)) known.add(w);
  return known;
}

const TYPO_WORDS = 24;

/** `text` with each unknown word of four letters or more that is one edit from exactly one known word replaced by it. */
function correctTypos(text: string, known: ReadonlySet<string>): string {
  let out = "";
  let at = 0;
  let first = true;
  // Requests are short: only the first words are checked, so a long message costs no more.
  for (const t of tokenize(text).slice(0, TYPO_WORDS)) {
    // The verb (the first word that carries meaning) from four letters, other words from six:
    // "dark" is no typo of "mark", nor "crash" of "trash".
    const min = first ? 4 : 6;
    if (!STOP_WORDS.has(t.word) && !/^(?:please|can|could|kindly)$/.test(t.word)) first = false;
    if (t.word.length < min || /\d/.test(t.word) || known.has(t.word) || known.has(t.stem)) {
      continue;
    }
    if (STOP_WORDS.has(t.word) || LEAVE.has(t.word)) continue;
    if (insideQuotes(text, t.start)) continue;
    let match: string | undefined;
    let several = false;
    for (const k of known) {
      if (k.length < 4 || !oneEdit(t.word, k)) continue;
      if (match !== undefined && match !== k) several = true;
      match = k;
    }
    if (match === undefined || several) continue;
    out += text.slice(at, t.start) + match;
    at = t.end;
  }
  return out + text.slice(at);
}

function insideQuotes(text: string, at: number): boolean {
  let open = false;
  for (let i = 0; i < at; i++) {
    if (text[i] === '"' || text[i] === "“" || text[i] === "”") open = !open;
  }
  return open;
}

/** Whether any word of `words` is an enum value some action takes, or a number. */
function namesValues(words: string, actions: readonly Action[]): boolean {
  if (/\d/.test(words)) return true;
  const said = new Set(tokenize(words).map((t) => t.stem));
  for (const a of actions) {
    if (wordsOf(a.name).some((w) => said.has(w) || said.has(w.replace(/s$/, "")))) {
      if (!/^(?:issue|issues|item|items)$/.test(wordsOf(a.name).at(-1) ?? "")) return true;
    }
    const props = (a.schema as { properties?: Record<string, { enum?: unknown[] }> })?.properties;
    for (const p of Object.values(props ?? {})) {
      for (const v of Array.isArray(p?.enum) ? p.enum : []) {
        if (typeof v === "string" && tokenize(v).every((t) => said.has(t.stem))) return true;
      }
    }
  }
  return false;
}

/**
 * The words a person typed, made plain for the planner.
 *
 * @example
 * ```ts
 * plainWords("clsoe 15", actions, items); // "close 15"
 * plainWords("search for login", actions, items); // 'search for "login"'
 * ```
 */
export function plainWords(
  text: string,
  actions: readonly Action[],
  items: readonly Item[],
): string {
  let out = correctTypos(text, knownWords(actions, items));
  for (const [pattern, replacement] of REWRITES) out = out.replace(pattern, replacement);
  const search = SEARCH.exec(out.trim());
  if (search) {
    const what = search[1].replace(/^(?:the |issues? )+/i, "").replace(/^(?:about|for) /i, "");
    if (
      what && !/["“”]/.test(what) && what.split(/\s+/).length <= 5 && !namesValues(what, actions)
    ) {
      out = `search for "${what}"`;
    } else if (what && !/["“”]/.test(what)) {
      // "find login bugs": the words no filter takes are the text, the others stay filters.
      const split = textAndFilters(what, actions);
      if (split) out = `search for "${split.text}" ${split.filters}`;
    }
  } else {
    // "show bugs about login": filters, then the text after "about".
    const about = ABOUT.exec(out.trim());
    const split = about && !/["“”]/.test(about[1]) ? textAndFilters(about[1], actions) : undefined;
    if (split) out = `search for "${split.text}" ${split.filters}`;
  }
  return out;
}

// A look at some items by what their text says: "show bugs about login", "list open bugs
// mentioning export".
const ABOUT =
  /^(?:please )?(?:show|list|display|give|get)(?: me)?(?: all)?(?: the)? ((?:[\p{L}-]+ ){1,4}(?:about|mentioning|containing|matching) (?!["“]).+?)[.?!]*$/iu;

// Words that join filters ("bugs assigned to alice") and are no text to look for.
const FILTER_WORDS = new Set(
  "assigned assignee to in on of from label labelled labeled tagged with by and state status the all my issues issue about mentioning containing matching for that are is"
    .split(" "),
);

/**
 * The words of a search that no filter takes ("login" in "login bugs"), when they are one run
 * of at most five words beside words that filters take; undefined otherwise.
 */
function textAndFilters(
  what: string,
  actions: readonly Action[],
): { text: string; filters: string } | undefined {
  const words = what.split(/\s+/).filter(Boolean);
  // A request, not a paragraph: past a dozen words it is left as it was.
  if (words.length > 12) return undefined;
  const plain = words.map((w) => !FILTER_WORDS.has(w.toLowerCase()) && !namesValues(w, actions));
  const first = plain.indexOf(true);
  const last = plain.lastIndexOf(true);
  if (first < 0 || last - first >= 5 || plain.slice(first, last + 1).includes(false)) {
    return undefined;
  }
  // The joining word just before the text goes with it ("bugs about login").
  const before = words.slice(0, first);
  while (before.length && /^(?:about|mentioning|containing|matching|with)$/i.test(before.at(-1)!)) {
    before.pop();
  }
  const filters = [...before, ...words.slice(last + 1)].join(" ");
  if (!namesValues(filters, actions)) return undefined;
  return { text: words.slice(first, last + 1).join(" "), filters };
}

/**
 * The request verb a message starts with when no offered action is described by it
 * ("label" in "label 42 as ui"), else undefined.
 *
 * @example
 * ```ts
 * missingVerb("label 42 as ui", actions); // "label"
 * ```
 */
export function missingVerb(
  text: string,
  actions: readonly Action[],
  kind?: string,
): string | undefined {
  const words = wordsOf(text).filter((w) =>
    !/^(?:please|can|could|you|would|i|want|to|like|kindly)$/.test(w)
  );
  const verb = words[0];
  if (!verb || !REQUEST_VERBS.has(verb)) return undefined;
  // "rename issue 42" where only milestones can be renamed: the verb is there, for another kind.
  const about = kind !== undefined && words.slice(1, 3).some((w) => stem(w) === kind);
  for (const a of actions) {
    if (!triggersOf(a.name, a.description).has(verb)) continue;
    const nouns = wordsOf(a.name).slice(1).map(stem);
    if (!about || nouns.length === 0 || nouns.includes(kind)) return undefined;
  }
  return verb;
}

/**
 * Whether the words ask for something for "me" ("assign 27 to me"): the page does not say who the person is.
 *
 * @example
 * ```ts
 * meantForMe("assign 27 to me"); // true
 * ```
 */
export function meantForMe(text: string): boolean {
  return /\b(?:to|for) me\b\s*[.!?]*$/i.test(text.trim()) && !/^help\b/i.test(text.trim());
}
