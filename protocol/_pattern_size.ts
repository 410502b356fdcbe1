/**
 * The size of the program a `pattern` compiles to, read from its text: the
 * count of instructions an RE2-style engine builds (one per character,
 * class or anchor, one more per `*`, `+`, `?` or `|`, two per capturing
 * group, and a counted repeat `x{n,m}` copying `x` m times), and the
 * largest count it repeats by. A linear-time engine's work on one test is
 * the text's length times this size, so both are bounded when a schema
 * arrives and the size is charged to the validation budget.
 *
 * It over-counts rather than under-counts: a form it cannot read costs as
 * much as the characters it spans.
 *
 * @module
 */

/** What a pattern's text says about its compiled program. */
export interface PatternSize {
  /** Instructions of the compiled program (an estimate from above). */
  program: number;
  /** The largest count of a counted repeat (`{n}`, `{n,}`, `{n,m}`), 0 when there is none. */
  repeat: number;
}

interface Frame {
  /** Sizes of the alternatives closed so far (`a|b`). */
  alternatives: number[];
  /** Size of the alternative being read. */
  current: number;
  /** Size of the last atom, the one a quantifier applies to. */
  last: number;
  /** Instructions the group itself adds (2 when it captures). */
  own: number;
}

const COUNTED = /^\{(\d{1,9})(,(\d{0,9}))?\}/;

/** Length of the escape at `i` (a backslash): `\d`, `\x41`, `\x{263a}`, `\p{Greek}`, `\pL`. */
function escapeLength(source: string, i: number): number {
  const next = source[i + 1];
  if (next === undefined) return 1;
  if (next === "x" || next === "p" || next === "P") {
    if (source[i + 2] === "{") {
      const close = source.indexOf("}", i + 3);
      return close === -1 ? source.length - i : close - i + 1;
    }
    return next === "x" ? 4 : 3;
  }
  return 2;
}

/** Length of the class at `i` (an opening bracket), up to and including its closing one. */
function classLength(source: string, i: number): number {
  let j = i + 1;
  if (source[j] === "^") j++;
  if (source[j] === "]") j++;
  while (j < source.length && source[j] !== "]") {
    if (source[j] === "\\") j += escapeLength(source, j);
    else if (source[j] === "[" && source[j + 1] === ":") {
      const close = source.indexOf(":]", j + 2);
      j = close === -1 ? j + 1 : close + 2;
    } else j++;
  }
  return Math.min(j + 1, source.length) - i;
}

/**
 * Reads the program size and largest counted repeat of a pattern's text.
 *
 * @example
 * ```ts
 * patternSize("(.*){999}$"); // { program: 3999, repeat: 999 } or a little more
 * ```
 */
export function patternSize(source: string): PatternSize {
  let repeat = 0;
  const open = (own: number): Frame => ({ alternatives: [], current: 0, last: 0, own });
  const stack: Frame[] = [open(0)];
  const atom = (size: number) => {
    const top = stack[stack.length - 1];
    top.current += size;
    top.last = size;
  };
  const close = (frame: Frame) => {
    const alts = [...frame.alternatives, frame.current];
    return alts.reduce((a, b) => a + b, 0) + (alts.length - 1) + frame.own;
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    const top = stack[stack.length - 1];
    if (ch === "\\") {
      atom(1);
      i += escapeLength(source, i);
    } else if (ch === "[") {
      atom(1);
      i += classLength(source, i);
    } else if (ch === "(") {
      if (source.startsWith("(?", i) && !source.startsWith("(?P<", i) && source[i + 2] !== "<") {
        const flags = /^\(\?[a-zA-Z-]*\)/.exec(source.slice(i, i + 16));
        if (flags) {
          i += flags[0].length; // (?i): flags only, no instruction
          continue;
        }
        stack.push(open(0)); // (?:...) or (?i:...)
        i = source.indexOf(":", i) + 1 || i + 2;
      } else {
        stack.push(open(2));
        const name = source.startsWith("(?", i) ? source.indexOf(">", i) : -1;
        i = name === -1 ? i + 1 : name + 1;
      }
    } else if (ch === ")" && stack.length > 1) {
      stack.pop();
      atom(close(top));
      i++;
    } else if (ch === "|") {
      top.alternatives.push(top.current);
      top.current = 0;
      top.last = 0;
      i++;
    } else if (ch === "*" || ch === "+" || ch === "?") {
      top.current += 1;
      top.last += 1;
      i += source[i + 1] === "?" ? 2 : 1;
    } else if (ch === "{" && COUNTED.test(source.slice(i, i + 24))) {
      const [text, low, comma, high] = COUNTED.exec(source.slice(i, i + 24))!;
      const n = Number(low);
      const m = comma ? (high ? Number(high) : n + 1) : n;
      repeat = Math.max(repeat, n, comma && high ? m : n);
      // x{n,m}: x copied m times, and one instruction per optional copy.
      const grown = top.last * Math.max(m, 1) + Math.max(m - n, 0);
      top.current += grown - top.last;
      top.last = grown;
      i += text.length + (source[i + text.length] === "?" ? 1 : 0);
    } else {
      atom(1);
      i++;
    }
  }
  while (stack.length > 1) {
    const frame = stack.pop()!;
    atom(close(frame));
  }
  // One instruction to fail and one to match, beside the pattern's own.
  return { program: close(stack[0]) + 2, repeat };
}
