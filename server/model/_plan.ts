/**
 * The offline planner's decision for one model call: the call that lists
 * what a question asks for ("what milestones are there?"); an answer in
 * words to a question about several items on screen or a change asked of all
 * of them (`_groups.ts`), or to a question about one item, from what the page
 * lists of it; else the calls the user named (by an action's name, else by
 * its verbs and values, see `_intent.ts`), one per number where the words
 * list several; else a sentence about the tool results the prompt ends
 * with, else a plain answer (help, what is on screen) from the host context.
 *
 * @module
 */

import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { describeScreen, helpText, notUnderstood, reportResults } from "./_answer.ts";
import { fillArguments } from "./_args.ts";
import {
  countAnswer,
  type Listed,
  oneAtATime,
  placedLook,
  rangeAnswer,
  unfilterable,
} from "./_groups.ts";
import { type ContextFacts, readContext } from "./_context.ts";
import { intendedCall, missingItem, missingTitle, type Screen } from "./_intent.ts";
import {
  describeItem,
  findItem,
  hasFact,
  type Item,
  itemsOf,
  ordinalPhrase,
  selectedOf,
  stemSet,
} from "./_items.ts";
import { type Action, type NamedCall, namedCalls } from "./_match.ts";
import { readPrompt } from "./_prompt.ts";
import { meantForMe, missingVerb, plainWords } from "./_phrase.ts";
import { capital, stem, tokenize, wordsOf } from "./_text.ts";
import { POINTERS, STOP_WORDS, triggersOf } from "./_vocabulary.ts";

/** A call in the planner's answer; `input` is the JSON-encoded arguments. */
export interface PlannedCall {
  toolCallId: string;
  toolName: string;
  input: string;
}

/** The planner's answer: either calls or text. */
export interface Plan {
  text: string;
  calls: PlannedCall[];
  inputTokens: number;
  outputTokens: number;
}

// The runtime offers this tool on every turn; without a screenshot it can only say there is none.
const LOOK_AT_SCREEN = "look_at_screen";

function offeredActions(options: LanguageModelV3CallOptions, facts?: ContextFacts): Action[] {
  const choice = options.toolChoice;
  if (choice?.type === "none") return [];
  const actions: Action[] = [];
  for (const tool of options.tools ?? []) {
    if (tool.type !== "function") continue;
    if (choice?.type === "tool" && tool.name !== choice.toolName) continue;
    if (tool.name === LOOK_AT_SCREEN && !facts?.screenshot && choice?.type !== "tool") continue;
    actions.push({ name: tool.name, schema: tool.inputSchema, description: tool.description });
  }
  return actions;
}

const SCREEN =
  /\b(?:what(?:'s| is| do you see| can you see)?\b.*\b(?:screen|page|here|see|showing|shown|open|looking at)|describe\b.*\b(?:screen|page|view)|where am i|look at (?:the )?(?:screen|page))\b|^how many\b/i;
const HELP =
  /^(?:\?+|commands|menu|options|what (?:can|could|should) (?:you|i) (?:do|say|ask|type)(?: here| for me)?|how (?:does|do) (?:this|it|you) work|what are (?:your|the) (?:commands|options))\?*$/i;
const GREETING = /^(?:hi|hello|hey|good (?:morning|afternoon|evening)|howdy)\b/i;
const THANKS = /^(?:thanks|thank you|cheers|great|perfect|nice|ok(?:ay)?)\b/i;

// A question about one item: "what is issue 42 about?", "who is assigned to 42?" (the typo
// correction may have made "assigned" "assignee"). A yes-or-no question ("is 42 closed?"),
// "why is 42 closed?" and "should I close 42?" ask about it too, and "I closed 42 by mistake"
// tells of something done: the item is described, and nothing is done to it.
const ABOUT =
  /^(?:what(?:'s|\s+is|\s+was)?|tell me(?: more)? about|summari[sz]e|describe|explain|who(?:'s|\s+is)?\s+(?:assign\w*|working|on)|(?:what(?:'s|\s+is)\s+)?the status of|(?:is|was|are|has|does|why|should|shall)\b(?=[^?]*\?\s*$)|i\s+(?:closed|reopened|opened|fixed|resolved|finished|assigned|deleted|removed|created|filed|labell?ed|moved|changed|selected|marked|updated|edited|did|made|set|put)\b)\b/iu;
const QUESTION_WORDS = stemSet(
  "what s tell more about summarize summarise describe explain who assigned assignee working status title state is was are has does why should shall",
);

// What a question with no item in it may ask of the selected one ("who is assigned?").
const PROPERTIES = stemSet("assigned assignee working status state title");
// Words about the people talking, never about the selected item ("what can you do?").
const SPEAKERS = new Set(["me", "my", "mine", "i", "you", "your", "we", "our"]);

// "how do I close an issue?", "can I delete issues?": a question of how, answered with what the
// page offers, never by doing it.
const HOW_QUESTION = /^(?:how(?!\s+(?:many|much)\b)|can i|could i|do i|may i)\b[^?]*\?\s*$/i;

/** The selected item, where it is among the items on screen. */
const selectedItem = (screen: Screen) => screen.items.find((i) => i.number === screen.selected);

/**
 * The answer to a question about one item on screen, from what the page says of it; undefined
 * when the words name no item (by number, by title words beside the item's kind, or "it" with
 * one selected).
 */
function aboutItem(
  text: string,
  facts: ContextFacts | undefined,
  screen: Screen,
): string | undefined {
  if (!ABOUT.test(text) || SCREEN.test(text) || screen.items.length === 0) return undefined;
  const kind = kindOf(facts);
  const number = text.match(/(?:^|[\s#])(\d{1,9})\b/)?.[1];
  if (number !== undefined) {
    const item = screen.items.find((i) => i.number === Number(number));
    return item
      ? aboutOne(item, text)
      : `${
        kind === "one" ? "That one" : `${capital(kind)} ${number}`
      } is not in the list on screen now.`;
  }
  const tokens = tokenize(text);
  // "the login issue" and "the login bug" name one; "issues about login" asks for a search,
  // not this answer.
  const named = tokens.some((t) =>
    t.word === kind || POINTERS.has(t.word) || screen.items.some((i) => hasFact(i, t.word))
  );
  const ignore = new Set([...screen.vocabulary ?? [], ...QUESTION_WORDS]);
  if (!named) {
    // "who is assigned?", "what's the status?" with one issue selected (or open on its own
    // page): a question with no other words is about that one.
    const selected = selectedItem(screen);
    const bare = tokens.some((t) => PROPERTIES.has(t.stem)) &&
      tokens.every((t) => !SPEAKERS.has(t.word) && (STOP_WORDS.has(t.word) || ignore.has(t.stem)));
    return selected && bare ? aboutOne(selected, text) : undefined;
  }
  const found = findItem(tokens, screen.items, screen.selected, ignore, screen.kind);
  const item = screen.items.find((i) => i.number === found);
  return item ? aboutOne(item, text) : undefined;
}

// A question about what an item is ("what is 42 about?"), not who has it or its state.
const WHAT_ABOUT = /^(?:what\b.*\babout\b|tell me\b|summari[sz]e|describe|explain)/i;

/**
 * One item in words; for a question about what it is, with what it says of itself at length
 * (its body), where the page sent that.
 */
function aboutOne(item: Item, text: string): string {
  const said = `${describeItem(item)}.`;
  if (!item.detail || !WHAT_ABOUT.test(text)) return said;
  return `${said} ${/[.!?…]$/.test(item.detail) ? item.detail : `${item.detail}.`}`;
}

// "what milestones are there?", "what are the milestones?", "which issues do we have?"
const LIST_QUESTION =
  /^(?:what|which)(?:'s|\s+(?:are|were)\s+(?:the|our|my|all\s+the))?\s+([\p{L}-]+)(?:\s+(?:are\s+there|are\s+listed|do\s+(?:we|i|you)\s+have|exist|(?:are\s+)?on\s+(?:the\s+)?(?:screen|page)))?\s*\?*$/iu;
const LISTING_VERBS = new Set(["find", "list", "show", "search", "get"]);

/**
 * A question that asks for a list of things ("what milestones are there?"): the call that lists
 * them (an action named after them that lists and needs nothing), or the screen's description
 * when they are what the page shows; undefined for any other text.
 */
function listQuestion(
  text: string,
  actions: readonly Action[],
  kind: string,
): NamedCall | "screen" | undefined {
  const noun = text.trim().match(LIST_QUESTION)?.[1];
  if (noun === undefined) return undefined;
  const wanted = stem(noun.toLowerCase());
  if (wanted === kind) return "screen";
  const action = actions.find((a) => {
    const [verb, ...nouns] = wordsOf(a.name);
    const required = (a.schema as { required?: unknown[] } | undefined)?.required ?? [];
    return LISTING_VERBS.has(verb) && nouns.map(stem).includes(wanted) && required.length === 0;
  });
  return action && { name: action.name, input: {} };
}

/** A plain answer to a question about the page or the assistant, or undefined when it is a request. */
function plainAnswer(
  text: string,
  actions: Action[],
  facts: ContextFacts | undefined,
  screen: Screen,
): string | undefined {
  const t = text.trim().replace(/[.!]+$/, "");
  if (SCREEN.test(t)) return describeScreen(facts);
  const short = t.split(/\s+/).length <= 4;
  if (HELP.test(t) || (short && /\bhelp\b/i.test(t))) return helpText(actions, facts, screen.items);
  if (GREETING.test(t) && short) {
    return `Hello! ${helpText(actions, facts, screen.items)}`;
  }
  if (THANKS.test(t) && short) return "You're welcome.";
  const verb = missingVerb(t, actions, screen.kind);
  if (verb !== undefined) {
    const kind = kindOf(facts);
    return `There is no action here to ${verb} ${kind === "one" ? "that" : `an ${kind}`}. ${
      helpText(actions, facts, screen.items).replace(/^I am the offline assistant[^.]*\. /, "")
    }`;
  }
  return undefined;
}

/** The data entry that lists the items ("issues"), if any. */
const listOf = (facts: ContextFacts | undefined) =>
  facts?.data.find((d) => Array.isArray(d.value) && d.count);

/** What the listed items are called ("issues" → "issue"), from the data entry that lists them. */
function kindOf(facts: ContextFacts | undefined): string {
  const list = listOf(facts);
  return list ? stem(wordsOf(list.name).at(-1) ?? "one") : "one";
}

/** What the page calls its items ("issues"), from the data entry that lists them. */
function kindsOf(facts: ContextFacts | undefined): string {
  const list = listOf(facts);
  return list ? wordsOf(list.name).join(" ") : "items";
}

/** The action the first meaningful word is a verb of, with no arguments. */
function byVerb(text: string, actions: readonly Action[]): NamedCall | undefined {
  const first = tokenize(text).find((t) => !STOP_WORDS.has(t.word));
  const action = first && actions.find((a) => triggersOf(a.name, a.description).has(first.stem));
  return action ? { name: action.name, input: {} } : undefined;
}

// An argument that names a person.
const PERSON = /assign|owner|user|person|author|member|reviewer/i;

/**
 * The answer to "assign 27 to me" when the action takes a person from a list that has no "me";
 * with no call ("what issues are assigned to me?"), any action's list of people.
 */
function whoIsMe(call: NamedCall | undefined, actions: Action[]): string | undefined {
  if (!call) {
    for (const a of actions) {
      const answer = whoIsMe({ name: a.name, input: {} }, actions);
      if (answer !== undefined) return answer;
    }
    return undefined;
  }
  const action = actions.find((a) => a.name === call.name);
  const props = (action?.schema as { properties?: Record<string, { enum?: unknown[] }> })
    ?.properties ?? {};
  for (const [key, prop] of Object.entries(props)) {
    if (!Array.isArray(prop.enum) || key in call.input || !PERSON.test(key)) continue;
    if (prop.enum.some((v) => String(v).toLowerCase() === "me")) return undefined;
    const names = prop.enum.map(String);
    const list = names.length > 1
      ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`
      : names.join("");
    return `I do not know who you are: this page does not say. Tell me a name instead: ${list}.`;
  }
  return undefined;
}

/** Whether the call lacks the item it must name. */
function missing(call: NamedCall, actions: readonly Action[]): boolean {
  const action = actions.find((a) => a.name === call.name);
  return !!action && missingItem(action, call.input) !== undefined;
}

/** The title the call lacks, if any. */
function untitled(call: NamedCall, actions: readonly Action[]): string | undefined {
  const action = actions.find((a) => a.name === call.name);
  return action && missingTitle(action, call.input);
}

// The verbs of asking to see things.
const LOOKING_VERBS = new Set(["show", "list", "see", "view", "display"]);

/** Whether the words ask to see the listed things ("show unassigned issues", "list issues"). */
function looksAtAll(text: string, kinds: string): boolean {
  const tokens = tokenize(text);
  const verb = tokens.find((t) => !STOP_WORDS.has(t.word));
  return !!verb && LOOKING_VERBS.has(verb.stem) && tokens.some((t) => t.word === kinds) &&
    !tokens.some((t) => POINTERS.has(t.word));
}

/**
 * One call per item where an ordinal names a few ("close the first two issues"), in the list's
 * order; undefined where it names one or none.
 */
function eachPlaced(call: NamedCall, text: string, screen: Screen): NamedCall[] | undefined {
  const placed = ordinalPhrase(tokenize(text), screen.items, screen.kind);
  if (!placed || placed.numbers.length < 2) return undefined;
  const key = Object.keys(call.input).find((k) => call.input[k] === placed.numbers[0]);
  if (key === undefined) return undefined;
  return placed.numbers.slice(0, MAX_EACH).map((n) => ({
    ...call,
    input: { ...call.input, [key]: n },
  }));
}

/** Most calls one request makes for a list of numbers ("close 42, 31 and 7"). */
const MAX_EACH = 10;

/**
 * One call per number where the words list several after the one the call took ("close 42
 * and 31" closes both, in the order said); the call alone otherwise.
 */
function eachNumber(call: NamedCall, text: string): NamedCall[] {
  const key = Object.keys(call.input).find((k) => Number.isInteger(call.input[k]));
  if (key === undefined) return [call];
  const list = text.match(
    new RegExp(
      `#?\\b${call.input[key]}\\b((?:\\s*(?:,|and|&)\\s*(?:(?:issue|number) )?#?\\d{1,9}\\b)+)`,
      "i",
    ),
  );
  if (!list) return [call];
  const more = [...list[1].matchAll(/\d{1,9}/g)].map((m) => Number(m[0]))
    .filter((n, i, all) => n !== call.input[key] && all.indexOf(n) === i);
  return [
    call,
    ...more.slice(0, MAX_EACH - 1).map((n) => ({ ...call, input: { ...call.input, [key]: n } })),
  ];
}

/** "it", "this issue", "the selected one": the words of a request that point at an item. */
const POINTED =
  /\b(?:(?:this|that|the (?:selected|current|same))(?: (?:one|issue|item|task|ticket))?|it)\b/i;

function whichOne(
  name: string,
  facts: ContextFacts | undefined,
  screen: Screen,
  text: string,
): string {
  // The data entry that lists the items names their kind: "issues" → "issue".
  const kind = kindOf(facts);
  const first = screen.items[0];
  // The person's own words with a number where they pointed ("close it" → "close issue 67"),
  // else the action's name in words.
  const request = text.trim();
  const own = first && request.length <= 60 && POINTED.test(request)
    ? request.replace(POINTED, `${kind} ${first.number}`)
    : undefined;
  const example = first ? `, e.g. “${own ?? `${wordsOf(name).join(" ")} ${first.number}`}”` : "";
  return `Which ${kind} do you mean? Tell me its number${example}, or words from its title.`;
}

function fallback(
  text: string,
  actions: Action[],
  facts: ContextFacts | undefined,
  screen: Screen,
) {
  if (text.trim() === "" || looksAtAll(text, kindsOf(facts))) return describeScreen(facts);
  return notUnderstood(actions, screen.items);
}

function forcedCall(
  options: LanguageModelV3CallOptions,
  actions: Action[],
  text: string,
): NamedCall[] {
  const choice = options.toolChoice;
  const forced = choice?.type === "tool" || (choice?.type === "required" && actions.length === 1);
  if (!forced || actions.length === 0) return [];
  return [{ name: actions[0].name, input: fillArguments(actions[0].schema, text) }];
}

// "don't close 42": a request not to do something is no request to do it.
const NEGATED = /^(?:(?:no,?|please)\s+)?(?:don'?t|do not|never|no need to)\b(?!\s+forget)/i;

// "close 42 tomorrow": a request for later, which the assistant cannot keep.
const LATER =
  /(?<!\b(?:about|called|titled|named) )\b(?:later(?: on| today)?|tomorrow|tonight|next (?:week|month|day|time)|in (?:an?|\d{1,3}) (?:minute|hour|day|week)s?)\s*[.!]*$/i;

/** The answer to a request not to do something, or to do it later: nothing is done now. */
function declined(text: string): string | undefined {
  if (NEGATED.test(text)) return "All right: I changed nothing.";
  if (LATER.test(text)) {
    return "I can only do things now, not later: ask again when it should be done. I changed nothing.";
  }
  return undefined;
}

const SELECTED_QUESTION =
  /^(?:which|what)(?:\s+[\p{L}-]+)?\s+is\s+(?:selected|current|open\s+now)(?:\s+now)?\s*\?*$/iu;

/** The answer to "which issue is selected?", from the page's selection. */
function selectedAnswer(
  text: string,
  facts: ContextFacts | undefined,
  screen: Screen,
): string | undefined {
  if (!SELECTED_QUESTION.test(text)) return undefined;
  const item = selectedItem(screen);
  const kind = kindOf(facts);
  if (item) return `${describeItem(item)} is selected.`;
  return screen.selected !== undefined
    ? `${capital(kind)} ${screen.selected} is selected.`
    : `No ${kind === "one" ? "item" : kind} is selected.`;
}

// How many joins of a message are looked at for a second request.
const MAX_JOINS = 20;
// Where a second request may begin: "close 42 and assign it to bob", "…, then select 7".
const JOINS = /\s*,\s*(?:and\s+)?(?:then\s+)?|\s+and\s+(?:then\s+)?|\s+then\s+|\s*;\s*/gi;

/**
 * Two requests in one message ("close 42 and assign it to bob"): split where the words after a
 * join start with a verb of an offered action, each half planned alone, and "it" in the second
 * the item the first one took. Undefined unless both halves are requests.
 */
function compound(
  text: string,
  actions: readonly Action[],
  screen: Screen,
): NamedCall[] | undefined {
  // Read at the first join, since most messages have none.
  let verbs: Set<string>[] | undefined;
  let quotes = 0;
  let counted = 0;
  let seen = 0;
  for (const join of text.matchAll(JOINS)) {
    // Two requests are joined early in a message; past the twentieth join, none is looked for.
    if (++seen > MAX_JOINS) break;
    // Never inside quoted words: `search for "bugs and crashes"` is one request. The quotes are
    // counted once along the text, not again for each join.
    quotes += text.slice(counted, join.index).match(/["“”]/g)?.length ?? 0;
    counted = join.index;
    if (quotes % 2 === 1) continue;
    const tail = text.slice(join.index + join[0].length);
    // The verb is among the first words: only they are read, so a message of many commas
    // costs each join a few words, not the rest of the message.
    const verb = tokenize(tail.slice(0, 40)).find((t) => !STOP_WORDS.has(t.word));
    verbs ??= actions.map((a) => triggersOf(a.name, a.description));
    if (!verb || !verbs.some((v) => v.has(verb.stem))) continue;
    const first = intendedCall(text.slice(0, join.index), actions, screen);
    if (!first) return undefined;
    const number = Object.values(first.input).find((v) => Number.isInteger(v));
    const named = number === undefined ? tail : tail.replace(
      /\b(?:it|that one|this one|the same one)\b/i,
      `${screen.kind ?? "item"} ${number}`,
    );
    const second = intendedCall(named, actions, screen);
    if (!second) return undefined;
    return [first, second].map(({ name, input }) => ({ name, input }));
  }
  return undefined;
}

/**
 * The planner reads only this many characters of the latest message: naming
 * an action happens at the start of a request, and a bounded prefix keeps the
 * work per call small whatever the message's length.
 */
export const PLANNER_SCAN_CHARS = 4_096;

// About four characters per token, like the input count in _prompt.ts.
function roughTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

/**
 * Plans the answer to one model call.
 *
 * @example
 * ```ts
 * const answer = plan({ prompt: [{ role: "user", content: [{ type: "text", text: "hello" }] }] });
 * answer.calls; // []
 * answer.text; // "Hello! I can tell you what is on screen, but this page offers me nothing to do right now. ..."
 * ```
 */
export function plan(options: LanguageModelV3CallOptions): Plan {
  const prompt = readPrompt(options.prompt);
  const facts = prompt.context === undefined ? undefined : readContext(prompt.context);
  const actions = offeredActions(options, facts);
  const vocabulary = new Set<string>();
  for (const a of actions) for (const w of wordsOf(a.name)) vocabulary.add(stem(w));
  for (const d of facts?.data ?? []) for (const w of wordsOf(d.name)) vocabulary.add(stem(w));
  const kind = kindOf(facts);
  const screen: Screen = facts
    ? {
      items: itemsOf(facts),
      selected: selectedOf(facts),
      vocabulary,
      kind: kind === "one" ? undefined : kind,
    }
    : { items: [], selected: undefined, vocabulary };
  const scanned = plainWords(prompt.text.slice(0, PLANNER_SCAN_CHARS), actions, screen.items);
  let named: NamedCall[] = [];
  let text = "";
  // Questions about the items on screen (how many match, one of them) and a change asked of all
  // that match are answered from the page, even where their words name an action ("who is
  // assigned to 42?", "close all bugs").
  const listed: Listed = { items: screen.items, kind, kinds: kindsOf(facts) };
  const list = prompt.results.length === 0 ? listQuestion(scanned, actions, kind) : undefined;
  const asked = scanned.trim();
  const about = prompt.results.length === 0
    ? declined(asked) ??
      selectedAnswer(asked, facts, screen) ??
      countAnswer(asked, listed, actions) ??
      oneAtATime(asked, listed, actions) ??
      rangeAnswer(asked, listed, actions) ??
      placedLook(asked, listed) ??
      unfilterable(asked, listed, actions) ??
      aboutItem(asked, facts, screen) ??
      (HOW_QUESTION.test(asked) ? helpText(actions, facts, screen.items) : undefined)
    : undefined;
  if (prompt.results.length > 0) {
    named = namedCalls(scanned, actions, screen);
    if (named.length === 0) text = reportResults(prompt.results);
  } else if (list === "screen") {
    text = describeScreen(facts);
  } else if (list !== undefined) {
    named = [list];
  } else if (about !== undefined) {
    text = about;
  } else {
    named = namedCalls(scanned, actions, screen);
    if (named.length === 0) named = compound(scanned, actions, screen) ?? [];
    const answer = named.length === 0 ? plainAnswer(scanned, actions, facts, screen) : undefined;
    const intended = answer === undefined && named.length <= 1
      ? intendedCall(scanned, actions, screen)
      : undefined;
    // The verb said first wins: in "give the saved filters issue to chen" the name
    // `filter_issues` is part of a title, and "give" is the request.
    const first = named[0]?.at ?? 0;
    const earlier = intended && intended.at >= 0 && named.length === 1 &&
      intended.name !== named[0].name && intended.at < first;
    if (earlier) {
      // "close issue 42 and select issue 7": a request of its own before the named one.
      const head = scanned.slice(0, first);
      const before = /(?:\b(?:and|then|also)|[,;.])\s*$/i.test(head)
        ? intendedCall(head, actions, screen)
        : undefined;
      named = before ? [before, ...named] : [intended];
    }
    // "show open issues" names `open_issue`, but without an issue it means the filter.
    const incomplete = named.length === 1 && intended && intended.name !== named[0].name &&
      missing(named[0], actions) && !missing(intended, actions) &&
      new RegExp(`\\b${wordsOf(named[0].name).at(-1)}s\\b`, "i").test(scanned);
    if (incomplete) named = [intended];
    const forMe = meantForMe(scanned)
      ? whoIsMe(named[0] ?? intended ?? byVerb(scanned, actions), actions)
      : undefined;
    if (forMe !== undefined) {
      text = forMe;
      named = [];
    } else if (answer !== undefined) text = answer;
    else if (named.length === 0) {
      if (intended) named = [intended];
      else named = forcedCall(options, actions, scanned);
      if (named.length === 0) text = fallback(scanned, actions, facts, screen);
    }
  }
  if (named.length === 1 && prompt.results.length === 0) {
    named = eachPlaced(named[0], scanned, screen) ?? eachNumber(named[0], scanned);
  }
  const unclear = named.find((c) => missing(c, actions));
  if (unclear && prompt.results.length === 0 && looksAtAll(scanned, listed.kinds)) {
    // "show unassigned issues": to see the issues, not one of them, where no filter says which.
    text = describeScreen(facts);
    named = [];
  } else if (unclear && prompt.results.length === 0) {
    // A call without its item would only come back refused: ask which one instead.
    text = whichOne(unclear.name, facts, screen, scanned);
    named = [];
  }
  const nameless = named.map((c) => ({ call: c, key: untitled(c, actions) }))
    .find((n) => n.key !== undefined);
  if (nameless && prompt.results.length === 0) {
    // The same for a new thing without its title.
    const key = nameless.key!;
    // The person's own request with the quotes to fill ("set title 5" → set title 5 "…").
    const request = scanned.trim().replace(/[.!?]+$/, "");
    const asked = request.length <= 60 ? request : wordsOf(nameless.call.name).join(" ");
    text = `What should its ${wordsOf(key).join(" ")} be? Put it in quotes, e.g. “${asked} "…"”.`;
    named = [];
  }
  if (named.length > 0) {
    const calls = named.map((c, i) => ({
      // The fingerprint covers the whole prompt, so a later turn (a longer
      // prompt) never reuses an id, while a replayed prompt gets the same ones.
      toolCallId: `offline-${prompt.fingerprint}-${i}`,
      toolName: c.name,
      input: JSON.stringify(c.input),
    }));
    let chars = 0;
    for (const c of calls) chars += c.toolName.length + c.input.length;
    return { text: "", calls, inputTokens: prompt.inputTokens, outputTokens: roughTokens(chars) };
  }
  return {
    text,
    calls: [],
    inputTokens: prompt.inputTokens,
    outputTokens: roughTokens(text.length),
  };
}
