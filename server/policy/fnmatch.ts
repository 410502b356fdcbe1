/**
 * Shell-style patterns as Python's `fnmatch` reads them, which is how
 * Zentinelle's `agent_capability` policies match action names: `*` matches
 * anything, `?` one character, `[seq]` one character of the set and `[!seq]`
 * one outside it (ranges such as `a-z` allowed); a `[` with no closing `]` is
 * itself. Case is kept, as on the Linux hosts Zentinelle runs on.
 *
 * Matching is a table over pattern and text, never a regular expression, so
 * it costs at most pattern length times text length and cannot backtrack.
 *
 * @module
 */

type Token =
  | { kind: "star" }
  | { kind: "any" }
  | { kind: "char"; char: string }
  | { kind: "set"; negated: boolean; items: ([string, string])[] };

/** A compiled pattern. */
export interface FnPattern {
  readonly source: string;
  readonly tokens: readonly Token[];
}

/**
 * Compiles a pattern once.
 *
 * @example
 * ```ts
 * const p = compileFnmatch("tool:*");
 * fnmatch(p, "tool:search"); // true
 * ```
 */
export function compileFnmatch(source: string): FnPattern {
  const chars = [...source];
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === "*") {
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
    } else if (c === "?") tokens.push({ kind: "any" });
    else if (c === "[") {
      let j = i + 1;
      if (chars[j] === "!") j++;
      if (chars[j] === "]") j++;
      while (j < chars.length && chars[j] !== "]") j++;
      if (j >= chars.length) {
        tokens.push({ kind: "char", char: "[" });
        continue;
      }
      let k = i + 1;
      const negated = chars[k] === "!";
      if (negated) k++;
      const items: [string, string][] = [];
      const body = chars.slice(k, j);
      for (let m = 0; m < body.length; m++) {
        if (body[m + 1] === "-" && m + 2 < body.length) {
          items.push([body[m], body[m + 2]]);
          m += 2;
        } else items.push([body[m], body[m]]);
      }
      tokens.push({ kind: "set", negated, items });
      i = j;
    } else tokens.push({ kind: "char", char: c });
  }
  return { source, tokens };
}

function one(token: Token, c: string): boolean {
  switch (token.kind) {
    case "any":
      return true;
    case "char":
      return token.char === c;
    case "set": {
      const hit = token.items.some(([lo, hi]) => lo <= c && c <= hi);
      return token.negated ? !hit : hit;
    }
    default:
      return false;
  }
}

/**
 * Whether the whole text matches.
 *
 * @example
 * ```ts
 * fnmatch(compileFnmatch("tool_c?ll"), "tool_call"); // true
 * ```
 */
export function fnmatch(pattern: FnPattern, text: string): boolean {
  const chars = [...text];
  const { tokens } = pattern;
  // reach[j]: the pattern's first i tokens can match the text's first j characters.
  let reach = new Uint8Array(chars.length + 1);
  reach[0] = 1;
  for (const token of tokens) {
    const next = new Uint8Array(chars.length + 1);
    if (token.kind === "star") {
      let seen = 0;
      for (let j = 0; j <= chars.length; j++) {
        seen |= reach[j];
        next[j] = seen;
      }
    } else {
      for (let j = 0; j < chars.length; j++) {
        if (reach[j] && one(token, chars[j])) next[j + 1] = 1;
      }
    }
    reach = next;
  }
  return reach[chars.length] === 1;
}
