/**
 * The offline planner's decision for one model call: the calls the user named,
 * else a sentence about the tool results the prompt ends with, else a summary
 * of the host context and the offered actions.
 *
 * @module
 */

import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { fillArguments } from "./_args.ts";
import { describeContext, readContext } from "./_context.ts";
import { type Action, type NamedCall, namedCalls } from "./_match.ts";
import { type Outcome, readPrompt } from "./_prompt.ts";
import { truncate, wordsOf } from "./_text.ts";

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

function offeredActions(options: LanguageModelV3CallOptions): Action[] {
  const choice = options.toolChoice;
  if (choice?.type === "none") return [];
  const actions: Action[] = [];
  for (const tool of options.tools ?? []) {
    if (tool.type !== "function") continue;
    if (choice?.type === "tool" && tool.name !== choice.toolName) continue;
    actions.push({ name: tool.name, schema: tool.inputSchema });
  }
  return actions;
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : text + ".";
}

function reportResults(results: Outcome[]): string {
  const lines = results.map((r) => {
    const text = truncate(r.text.trim(), 200);
    if (!r.ok) return sentence(`${r.toolName} failed: ${text || "no reason given"}`);
    return text === ""
      ? `Done: ${r.toolName} finished.`
      : sentence(`Done: ${r.toolName} returned ${text}`);
  });
  // Saying so, instead of calling again, is what keeps a failing call from looping.
  if (results.every((r) => !r.ok)) {
    lines.push("I could not do it; name the action again with what it needs to retry.");
  }
  return lines.join(" ");
}

function describeActions(actions: Action[]): string {
  if (actions.length === 0) return "No actions are offered right now.";
  const shown = actions.slice(0, 12).map((a) => a.name);
  const more = actions.length > shown.length ? ` and ${actions.length - shown.length} more` : "";
  return `Actions: ${shown.join(", ")}${more}. Name one to run it, e.g. "${
    wordsOf(actions[0].name).join(" ")
  }".`;
}

function summary(context: string | undefined, actions: Action[]): string {
  if (context !== undefined) {
    const about = describeContext(readContext(context));
    return about === "" ? describeActions(actions) : `${about} ${describeActions(actions)}`;
  }
  if (actions.length === 0) {
    return "I am the offline model and no actions are offered right now. Set MODEL__DEFAULT to use a language model.";
  }
  return `I am the offline model: I run the actions you name and report their results. ${
    describeActions(actions)
  }`;
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
 * answer.text; // "I am the offline model and no actions are offered right now. ..."
 * ```
 */
export function plan(options: LanguageModelV3CallOptions): Plan {
  const prompt = readPrompt(options.prompt);
  const actions = offeredActions(options);
  const scanned = prompt.text.slice(0, PLANNER_SCAN_CHARS);
  let named = namedCalls(scanned, actions);
  if (named.length === 0 && prompt.results.length === 0) {
    named = forcedCall(options, actions, scanned);
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
  const text = prompt.results.length > 0
    ? reportResults(prompt.results)
    : summary(prompt.context, actions);
  return {
    text,
    calls: [],
    inputTokens: prompt.inputTokens,
    outputTokens: roughTokens(text.length),
  };
}
