/**
 * Word-level text helpers for the offline planner: tokens with offsets,
 * plural-tolerant comparison, quoted spans, and a cheap stable hash.
 *
 * @module
 */

/** A word of the user's text, lowercased, with its place in the text. */
export interface Token {
  word: string;
  stem: string;
  start: number;
  end: number;
}

/** A quoted run of text; `start`/`end` include the quote marks. */
export interface Quote {
  text: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}]+/gu;
// Splits "selectIssue" and "issue42" the same way action names are split, so
// a name typed as one word still lines up with the name's own words.
const PIECE = /\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})|\p{N}+|\p{L}+/gu;

/**
 * Reduces a lowercase word to a plural-insensitive form.
 *
 * @example
 * ```ts
 * stem("bugs"); // "bug"
 * stem("entries"); // "entry"
 * ```
 */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return word.slice(0, -3) + "y";
  if (word.length > 3 && /(?:ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/**
 * Splits text into lowercase word tokens with offsets, breaking camelCase and letter/digit runs.
 *
 * @example
 * ```ts
 * tokenize("selectIssue42").map((t) => t.word); // ["select", "issue", "42"]
 * ```
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const run of text.matchAll(WORD)) {
    const base = run.index;
    for (const piece of run[0].matchAll(PIECE)) {
      const word = piece[0].toLowerCase();
      const start = base + piece.index;
      tokens.push({ word, stem: stem(word), start, end: start + piece[0].length });
    }
  }
  return tokens;
}

/**
 * The text with its first letter in capitals.
 *
 * @example
 * ```ts
 * capital("open issue"); // "Open issue"
 * ```
 */
export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The lowercase words of an identifier or phrase.
 *
 * @example
 * ```ts
 * wordsOf("select_issue"); // ["select", "issue"], as for "selectIssue" and "select issue"
 * ```
 */
export function wordsOf(name: string): string[] {
  return tokenize(name).map((t) => t.word);
}

// A single quote only opens after a non-word character and only closes before
// one, so the apostrophes of "don't" and "user's" are not quotes.
const QUOTES = /"([^"]*)"|“([^”]*)”|‘([^’]*)’|(?<![\p{L}\p{N}])'([^']*)'(?![\p{L}\p{N}])/gu;

/**
 * Finds quoted runs ("…", '…', “…”, ‘…’) in order of appearance.
 *
 * @example
 * ```ts
 * quotes(`label "bug" or 'ui'`).map((q) => q.text); // ["bug", "ui"]
 * ```
 */
export function quotes(text: string): Quote[] {
  const found: Quote[] = [];
  for (const m of text.matchAll(QUOTES)) {
    const inner = m[1] ?? m[2] ?? m[3] ?? m[4] ?? "";
    found.push({ text: inner, start: m.index, end: m.index + m[0].length });
  }
  return found;
}

/**
 * Whether offset `at` lies inside one of `spans`.
 *
 * @example
 * ```ts
 * inside(3, [{ start: 2, end: 5 }]); // true
 * ```
 */
export function inside(at: number, spans: readonly { start: number; end: number }[]): boolean {
  for (const s of spans) if (at >= s.start && at < s.end) return true;
  return false;
}

/**
 * Shortens `text` to about `max` characters, marking the cut with an ellipsis.
 *
 * @example
 * ```ts
 * truncate("abcdef", 4); // "abc…"
 * ```
 */
export function truncate(text: string, max = 200): string {
  return text.length <= max ? text : text.slice(0, max - 1) + "…";
}

/**
 * A 64-bit FNV-1a style hash over strings, as 16 hex digits; stable across runs and runtimes.
 *
 * @example
 * ```ts
 * hashOf(["user", "select issue 42"]).length; // 16
 * ```
 */
export function hashOf(parts: readonly string[]): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    // A separator, so ["ab", "c"] and ["a", "bc"] differ.
    a = Math.imul(a ^ 0xff, 0x01000193);
    b = Math.imul(b ^ 0xff, 0x5bd1e995);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}
