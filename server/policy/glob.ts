/**
 * Glob patterns of the policy rules, where `*` matches anything (spaces and
 * slashes included) and every other character matches itself.
 *
 * A pattern is never turned into a regular expression: a regex built from
 * `*a*a*a*b` backtracks catastrophically on a long command. Matching here
 * finds each literal segment once, leftmost, with Knuth–Morris–Pratt, so a
 * match costs time linear in the text plus the pattern.
 *
 * @module
 */

/** A compiled glob: its literal segments and their failure tables. */
export interface Glob {
  readonly source: string;
  /** The literal pieces between stars. */
  readonly parts: readonly string[];
  /** KMP failure table of each piece. */
  readonly tables: readonly Int32Array[];
}

function failureTable(part: string): Int32Array {
  const table = new Int32Array(part.length);
  let k = 0;
  for (let i = 1; i < part.length; i++) {
    while (k > 0 && part[i] !== part[k]) k = table[k - 1];
    if (part[i] === part[k]) k++;
    table[i] = k;
  }
  return table;
}

/**
 * Compiles a glob once, so it can be matched against many texts.
 *
 * @example
 * ```ts
 * const g = compileGlob("npm run *");
 * globMatch(g, "npm run build"); // true
 * ```
 */
export function compileGlob(source: string): Glob {
  const parts = source.split("*");
  return { source, parts, tables: parts.map(failureTable) };
}

/** Index of `part` in `text` at or after `from` and ending by `end`, or -1 (KMP). */
function find(text: string, part: string, table: Int32Array, from: number, end: number): number {
  if (part.length === 0) return from;
  let k = 0;
  for (let i = from; i < end; i++) {
    const c = text[i];
    while (k > 0 && c !== part[k]) k = table[k - 1];
    if (c === part[k]) k++;
    if (k === part.length) return i - part.length + 1;
  }
  return -1;
}

/**
 * Whether the whole text matches the glob.
 *
 * @example
 * ```ts
 * globMatch(compileGlob("rm -rf *"), "rm -rf /"); // true
 * globMatch(compileGlob("npm test"), "npm test x"); // false
 * ```
 */
export function globMatch(glob: Glob, text: string): boolean {
  const { parts, tables } = glob;
  const first = parts[0];
  if (parts.length === 1) return text === first;
  const last = parts[parts.length - 1];
  if (text.length < first.length + last.length) return false;
  if (!text.startsWith(first) || !text.endsWith(last)) return false;
  // Leftmost placement of every middle piece is optimal: a star can absorb whatever it skips.
  let pos = first.length;
  const end = text.length - last.length;
  for (let p = 1; p < parts.length - 1; p++) {
    const at = find(text, parts[p], tables[p], pos, end);
    if (at < 0) return false;
    pos = at + parts[p].length;
  }
  return true;
}

/**
 * Whether a name matches any of the patterns (used for tool names).
 *
 * @example
 * ```ts
 * matchesAny([compileGlob("mcp__*")], "mcp__files"); // true
 * ```
 */
export function matchesAny(globs: readonly Glob[], text: string): boolean {
  for (const g of globs) if (globMatch(g, text)) return true;
  return false;
}
