/**
 * Finds the offered actions a message names, in the order it names them, and
 * fills each one's arguments from the words up to the next named action.
 *
 * A name matches by its exact spelling ("select_issue", "selectIssue") or by
 * its words in order ("select issue"), case-insensitively and tolerating
 * plurals ("filters" for `filter`) and a few articles between the words
 * ("look at the screen" for `look_at_screen`). Words inside quotes never name
 * an action: they are argument text.
 *
 * @module
 */

import { fillArguments } from "./_args.ts";
import { completeItem, type Screen } from "./_intent.ts";
import { inside, quotes, stem, type Token, tokenize, wordsOf } from "./_text.ts";

/** An action the model may call: a tool's name and its input schema. */
export interface Action {
  name: string;
  schema: unknown;
  /** What the action does, in the host's words. */
  description?: string;
}

/** A call the planner decided on. */
export interface NamedCall {
  name: string;
  input: Record<string, unknown>;
  /** Where its name starts in the text. */
  at?: number;
}

const FILLER = new Set(["the", "a", "an", "this", "that", "my", "current"]);
const MAX_FILLER = 2;

interface Prepared {
  action: Action;
  stems: string[];
}

// Tool names repeat on every call of a session, and splitting them is most of
// the planner's work; a bounded cache keeps that off the per-call path.
const STEMS = new Map<string, string[]>();
const STEMS_MAX = 2048;

function stemsOf(name: string): string[] {
  let stems = STEMS.get(name);
  if (stems === undefined) {
    if (STEMS.size >= STEMS_MAX) STEMS.clear();
    stems = wordsOf(name).map(stem);
    STEMS.set(name, stems);
  }
  return stems;
}

/** Returns the index after the last token of `stems` matched at `at`, or -1. */
function matchAt(
  tokens: Token[],
  at: number,
  stems: string[],
  quoted: { start: number; end: number }[],
): number {
  let j = at;
  for (let k = 0; k < stems.length; k++) {
    if (k > 0) {
      let skipped = 0;
      while (
        j < tokens.length && skipped < MAX_FILLER && FILLER.has(tokens[j].word) &&
        tokens[j].stem !== stems[k]
      ) {
        j++;
        skipped++;
      }
    }
    const token = tokens[j];
    if (!token || token.stem !== stems[k] || inside(token.start, quoted)) return -1;
    j++;
  }
  return j;
}

/**
 * Finds the calls `text` names among `actions`, with arguments filled from
 * their schemas, and an item number the words leave open completed from the
 * `screen` ("open the issue about login").
 *
 * @example
 * ```ts
 * const schema = { type: "object", properties: { number: { type: "integer" } } };
 * namedCalls("select issue 42", [{ name: "select_issue", schema }]);
 * // [{ name: "select_issue", input: { number: 42 } }]
 * ```
 */
export function namedCalls(
  text: string,
  actions: readonly Action[],
  screen: Screen = { items: [], selected: undefined },
): NamedCall[] {
  if (text === "" || actions.length === 0) return [];
  const prepared: Prepared[] = [];
  for (const action of actions) {
    const stems = stemsOf(action.name);
    if (stems.length > 0) prepared.push({ action, stems });
  }
  const tokens = tokenize(text);
  const quoted = quotes(text);
  const found: { action: Action; start: number; end: number }[] = [];
  let i = 0;
  while (i < tokens.length) {
    let best: { action: Action; next: number; words: number } | undefined;
    for (const p of prepared) {
      if (p.stems[0] !== tokens[i].stem) continue;
      // The name with the most words wins, so `select_issue` beats `select`.
      if (best && p.stems.length <= best.words) continue;
      const next = matchAt(tokens, i, p.stems, quoted);
      if (next >= 0) best = { action: p.action, next, words: p.stems.length };
    }
    if (!best) {
      i++;
      continue;
    }
    found.push({ action: best.action, start: tokens[i].start, end: tokens[best.next - 1].end });
    i = best.next;
  }
  return found.map((f, n) => {
    const segment = text.slice(f.end, found[n + 1]?.start ?? text.length);
    const input = fillArguments(f.action.schema, segment);
    return {
      name: f.action.name,
      input: completeItem(f.action, input, tokenize(segment), screen),
      at: f.start,
    };
  });
}
