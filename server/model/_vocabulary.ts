/**
 * The offline planner's vocabulary: the verbs people use for what an action
 * is named after ("close" for a `change_status` whose description starts
 * "Close or reopen"), the words that carry no meaning for matching, and the
 * verb forms of enum values ("close" for `closed`, "reopen" for `open`).
 *
 * @module
 */

import { stem, wordsOf } from "./_text.ts";

// Each line: a verb an action name or description may start with, then the
// verbs people say instead. Kept small and common; a word may serve several.
const SYNONYMS: Record<string, readonly string[]> = {
  select: ["choose", "pick", "highlight", "focus"],
  open: ["show", "view", "display", "see", "read"],
  show: ["display", "list", "see", "view"],
  create: ["new", "add", "file", "make", "report", "raise", "write"],
  file: ["create", "new", "add", "report", "raise"],
  add: ["create", "new", "file"],
  delete: ["remove", "erase", "trash", "destroy", "drop"],
  remove: ["delete", "erase", "drop"],
  filter: ["search", "find", "narrow", "limit", "only"],
  find: ["search", "look", "list", "show", "see"],
  search: ["find", "look"],
  clear: ["reset", "remove", "drop"],
  change: ["set", "update", "mark", "make", "switch", "move"],
  set: ["change", "update", "mark", "make"],
  close: ["resolve", "finish", "shut", "complete"],
  go: ["navigate", "take", "switch", "back", "return", "visit"],
  assign: ["give", "hand", "reassign"],
  rename: ["retitle", "call"],
};

/**
 * Words that never decide which action or which item is meant.
 *
 * @example
 * ```ts
 * STOP_WORDS.has("the"); // true
 * ```
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  "a",
  "about",
  "all",
  "an",
  "and",
  "any",
  "are",
  "as",
  "at",
  "be",
  "by",
  "can",
  "could",
  "do",
  "for",
  "from",
  "i",
  "in",
  "into",
  "is",
  "it",
  "its",
  "let",
  "me",
  "my",
  "now",
  "number",
  "of",
  "on",
  "one",
  "or",
  "our",
  "please",
  "so",
  "that",
  "the",
  "them",
  "then",
  "this",
  "to",
  "up",
  "us",
  "want",
  "we",
  "which",
  "will",
  "with",
  "would",
  "you",
  "called",
  "named",
  "titled",
  "thing",
  "just",
]);

/**
 * The words that point at the item already selected on screen.
 *
 * @example
 * ```ts
 * POINTERS.has("it"); // true
 * ```
 */
export const POINTERS: ReadonlySet<string> = new Set([
  "it",
  "this",
  "that",
  "selected",
  "current",
  "same",
]);

/**
 * The verbs that say an action, each with weight: its own first word and that
 * word's synonyms, and the leading verbs of its description ("Close or reopen
 * an issue." gives close and reopen).
 *
 * @example
 * ```ts
 * triggersOf("change_status", "Close or reopen an issue.").has("close"); // true
 * ```
 */
export function triggersOf(name: string, description: string | undefined): Set<string> {
  const verbs = new Set<string>();
  const first = wordsOf(name)[0];
  if (first) verbs.add(first);
  const words = wordsOf(description ?? "").slice(0, 5);
  if (words[0]) {
    verbs.add(words[0]);
    // "Close or reopen ...", "Create and assign ...": the verbs joined at the start.
    for (let i = 1; i + 1 < words.length && (words[i] === "or" || words[i] === "and"); i += 2) {
      verbs.add(words[i + 1]);
    }
  }
  const out = new Set<string>();
  for (const verb of verbs) {
    out.add(stem(verb));
    for (const other of SYNONYMS[verb] ?? []) out.add(stem(other));
  }
  return out;
}

// "resolve" → close: the verbs a word stands in for, to read values through them too.
const STANDS_FOR = new Map<string, string[]>();
for (const [verb, others] of Object.entries(SYNONYMS)) {
  for (const other of others) STANDS_FOR.set(other, [...STANDS_FOR.get(other) ?? [], verb]);
}

/**
 * Whether the word `said` (a stem), or a verb it stands in for, is the verb
 * form of enum value `value`: "close" and "resolve" of `closed`, "reopen" of
 * `open`, "archive" of `archived`.
 *
 * @example
 * ```ts
 * verbOfValue("close", "closed"); // true
 * verbOfValue("reopen", "open"); // true
 * ```
 */
export function verbOfValue(said: string, value: string): boolean {
  const v = value.toLowerCase();
  if (v.length < 3) return false;
  for (const verb of [said, ...STANDS_FOR.get(said) ?? []]) {
    if (v === verb + "d" || v === verb + "ed" || verb === "re" + v) return true;
  }
  return false;
}
