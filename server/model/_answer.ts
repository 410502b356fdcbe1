/**
 * The offline planner's plain answers: help and "what is on screen" from the
 * host context, greetings, and tool results said in words. None of them
 * shows an internal tool name: actions are said through their descriptions
 * and the words of their names ("select issue 42").
 *
 * @module
 */

import { itemLabel, listInWords, nameOf, REMARK } from "../../protocol/_summary.ts";

import type { ContextFacts } from "./_context.ts";
import { describeItem, type Item, itemOf } from "./_items.ts";
import type { Action } from "./_match.ts";
import type { Outcome } from "./_prompt.ts";
import { capital, truncate, wordsOf } from "./_text.ts";

const SHOWN = 5;
// The runtime may prefix a failed host result ("The action failed: ..."); the sentence is the SDK's own.
// The SDK's sentence for a page action the user cancelled, and the runtime's for a declined preview.
const DECLINED =
  /\bthe user cancell?ed \S+; nothing was changed|\bthe user declined this action\b/i;
// A person reviewing a held call said no (the runtime's hold), or the policy refused the call.
const DENIED = /^an operator denied\b|^an operator denied it\b/i;
const POLICY = /\brequires approval\b|\bpolicy\b|\bnot (?:allowed|permitted)\b/i;
const UNKNOWN = /outcome (?:of \S+ )?is unknown/i;

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?…]$/.test(t) ? t : t + ".";
}

const words = (name: string) => wordsOf(name).join(" ");
const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

function firstSentence(text: string): string {
  const m = /^.*?[.!?;](?=\s|$)/s.exec(text.trim());
  return (m ? m[0] : text.trim()).replace(/[.!?;]$/, "");
}

/** One data entry in words: a value, a list of items, or one item. */
function dataLine(name: string, value: unknown): string | undefined {
  const label = words(name);
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    return `${label}: ${truncate(String(value), 80)}`;
  }
  if (Array.isArray(value)) {
    const items = value.map(itemOf).filter((i): i is Item => i !== undefined);
    if (items.length === 0) return `${label}: ${value.length}`;
    const more = value.length > SHOWN ? `, and ${value.length - SHOWN} more` : "";
    return `${label}: ${items.slice(0, SHOWN).map(describeItem).join("; ")}${more}`;
  }
  const item = itemOf(value);
  return item ? `${label}: ${describeItem(item)}` : undefined;
}

/**
 * What the screen shows, in plain words, from the host context.
 *
 * @example
 * ```ts
 * describeScreen(readContext("view: board - Cards by column")); // "You are on the board view: Cards by column."
 * ```
 */
export function describeScreen(facts: ContextFacts | undefined): string {
  if (!facts) return "I do not know what this page shows: it sent no description of itself.";
  const head: string[] = [];
  if (facts.view !== undefined) {
    head.push(
      facts.description
        ? `You are on the ${facts.view} view: ${sentence(truncate(facts.description, 200))}`
        : `You are on the ${facts.view} view.`,
    );
  }
  // One fact per line (a Markdown list), so a long list of items stays readable in a chat.
  const lines: string[] = [];
  for (const d of facts.data.slice(0, 8)) {
    const line = dataLine(d.name, d.value);
    if (line) lines.push(`- ${capital(sentence(line))}`);
    else if (d.count !== undefined) lines.push(`- ${capital(words(d.name))}: ${d.count}.`);
  }
  if (head.length === 0 && lines.length === 0 && facts.firstLine !== "") {
    head.push(`The page describes itself as "${facts.firstLine}".`);
  }
  const out = [head.join(" "), lines.join("\n")].filter(Boolean);
  if (facts.navigation.length > 0) {
    const pages = facts.navigation.slice(0, 8).map((p) => `“${p}”`);
    const list = pages.length > 1
      ? `${pages.slice(0, -1).join(", ")} and ${pages.at(-1)}`
      : pages[0];
    out.push(`Pages you can go to: ${list}.`);
  }
  return out.join("\n\n");
}

/** A request that uses the action, with a made-up but valid example argument. */
function example(action: Action, items: readonly Item[]): string | undefined {
  const schema = action.schema as {
    properties?: Record<string, { type?: unknown; enum?: unknown[] }>;
    required?: string[];
  };
  const parts = [words(action.name)];
  for (const key of schema?.required ?? []) {
    const prop = schema.properties?.[key];
    if (Array.isArray(prop?.enum) && prop.enum.length) parts.push(String(prop.enum[0]));
    else if (prop?.type === "integer" && items.length) parts.push(String(items[0].number));
    else return undefined;
  }
  return `“${parts.join(" ")}”`;
}

/** A few requests to try, each with a valid example argument; never a destructive one. */
function tries(actions: readonly Action[], items: readonly Item[]): string[] {
  const out: string[] = [];
  const verbs = new Set<string>();
  for (const a of actions) {
    const verb = wordsOf(a.name)[0];
    if (verbs.has(verb) || /^(?:delete|remove|destroy|drop)$/.test(verb)) continue;
    const e = (a.schema as { required?: unknown[] })?.required?.length
      ? example(a, items)
      : undefined;
    if (e) {
      out.push(e);
      verbs.add(verb);
    }
    if (out.length === 3) break;
  }
  return out;
}

/**
 * What the assistant can do here, in words: each action's description as a list, and a few requests to try.
 *
 * @example
 * ```ts
 * helpText(actions, facts, items); // "I am the offline assistant... Here I can:\n- select an issue in the list\n..."
 * ```
 */
export function helpText(
  actions: readonly Action[],
  facts: ContextFacts | undefined,
  items: readonly Item[],
): string {
  const where = facts?.view ? ` on the ${facts.view} view` : "";
  if (actions.length === 0) {
    return `I can tell you what is on screen${where}, but this page offers me nothing to do right now. Ask “what is on screen?”.`;
  }
  const can = actions.slice(0, 16).map((a) =>
    `- ${a.description ? lower(firstSentence(a.description)) : words(a.name)}`
  );
  const t = tries(actions, items);
  const tryLine = t.length ? `\n\nTry ${t.join(", ")}, or ask “what is on screen?”.` : "";
  return `I am the offline assistant: I understand short requests about this page. Here${where} I can:\n${
    can.join("\n")
  }${tryLine}`;
}

/**
 * The answer to words the planner could not make sense of: a few requests that work here.
 *
 * @example
 * ```ts
 * notUnderstood(actions, items); // "I did not understand that. Try “select issue 42”, ... or ask for help."
 * ```
 */
export function notUnderstood(actions: readonly Action[], items: readonly Item[]): string {
  const t = tries(actions, items);
  return `I did not understand that; I am the offline assistant and know only short requests about this page. ${
    t.length ? `Try ${t.join(", ")}, or ask for “help”.` : `Ask for “help”.`
  }`;
}

/**
 * A result in a few words: its fields, the item it describes as "#42 Fix login" rather than
 * its number and title apart, and a remark for a person (`note`) as a sentence of its own.
 */
function summary(text: string): { about: string; remark?: string } {
  let value: unknown = text;
  if (text.length <= 4000 && /^[[{]/.test(text)) {
    try {
      value = JSON.parse(text);
    } catch { /* plain text */ }
  }
  if (value === null || typeof value !== "object") return { about: truncate(String(value), 160) };
  if (Array.isArray(value)) return { about: `${value.length} items` };
  const item = itemLabel(value);
  const parts: string[] = item ? [item.label] : [];
  let remark: string | undefined;
  for (const [k, v] of Object.entries(value)) {
    if (item?.keys.includes(k)) continue;
    if (remark === undefined && REMARK.test(k) && typeof v === "string" && v.trim()) {
      remark = sentence(capital(truncate(v.trim(), 160)));
      continue;
    }
    if (parts.length >= 4) break;
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") {
      parts.push(`${words(k)} ${truncate(String(v), 60)}`);
    } else if (Array.isArray(v)) {
      parts.push(`${words(k)} ${listInWords(v, 8)}`);
    } else if (v && typeof v === "object") {
      const item = nameOf(v);
      if (item) parts.push(`${words(k)} ${truncate(item, 60)}`);
    }
  }
  return { about: parts.join(", "), remark };
}

/** Whether a failed result is a person's or the policy's answer rather than a failure. */
const settled = (text: string) => DECLINED.test(text) || DENIED.test(text) || POLICY.test(text);

/**
 * Tool results in words: what was done with a short summary, a user's cancel and a reviewer's
 * or the policy's no as such (nothing to retry), a failure as what could not be done (its reason
 * is shown beside the call, once).
 *
 * @example
 * ```ts
 * reportResults([{ toolName: "select_issue", ok: true, text: '{"selected":42}' }]); // "Done: select issue (selected 42)."
 * ```
 */
export function reportResults(results: readonly Outcome[]): string {
  // Calls of one action that worked one after another are one sentence: "Done: change status
  // (#67 …; #61 …)." rather than the same words again for each.
  const lines: string[] = [];
  // A note said once is not said again ("#42 is hidden by the current filters" after each call).
  const said = new Set<string>();
  const fresh = (remarks: string[]) => remarks.filter((r) => !said.has(r) && said.add(r));
  let run: { name: string; abouts: string[]; remarks: string[] } | undefined;
  const closeRun = () => {
    if (!run) return;
    const done = `Done: ${run.name} (${run.abouts.join("; ")}).`;
    lines.push([done, ...fresh(run.remarks)].join(" "));
    run = undefined;
  };
  for (const r of results) {
    const name = words(r.toolName);
    if (!r.ok) {
      closeRun();
      lines.push(failure(r, name));
      continue;
    }
    const { about, remark } = summary(truncate(r.text.trim(), 300));
    if (!about) {
      closeRun();
      lines.push([`Done: ${name}.`, ...fresh(remark ? [remark] : [])].join(" "));
      continue;
    }
    if (run?.name !== name) closeRun();
    run ??= { name, abouts: [], remarks: [] };
    run.abouts.push(about);
    if (remark) run.remarks.push(remark);
  }
  closeRun();
  // Saying so, instead of calling again, is what keeps a failing call from looping. A call whose
  // outcome is unknown is not asked for again: the page must be checked first.
  if (results.every((r) => !r.ok && !settled(r.text.trim()) && !UNKNOWN.test(r.text))) {
    lines.push("Tell me again with what it needs and I will retry.");
  }
  return lines.join(" ");
}

/** A call that did not work, in words: cancelled, declined, refused, unknown or failed. */
function failure(r: Outcome, name: string): string {
  const text = truncate(r.text.trim(), 300);
  // Named in quotes as the chat's card shows an action without a `title`: "I could not open
  // issue" is not a sentence, and the quotes let a person find the card it is about.
  const called = `“${capital(name)}”`;
  if (DECLINED.test(text)) return `You cancelled ${called}; nothing was changed.`;
  // A person's or the policy's no is an answer, not a failure to retry; its own words are
  // written for agents, so they are not repeated.
  if (DENIED.test(text)) return `The reviewer declined ${called}; nothing was changed.`;
  if (POLICY.test(text)) return `${called} is not allowed here; nothing was changed.`;
  if (UNKNOWN.test(text)) {
    return `I cannot tell whether ${called} took effect; check the page before trying again.`;
  }
  // The reason is shown once, beside the call (the chat's card says it in people's words);
  // repeating it here would say it twice, and in the words the layers wrote for agents.
  return `${called} did not work.`;
}
