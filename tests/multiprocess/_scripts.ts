/**
 * The scripted models and backend tools a multi-process runtime runs with,
 * chosen by name (`TEST_SCRIPT`), so a test or bench in another process
 * knows exactly what every turn will do.
 *
 * @module
 */
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { scriptedModel, type ScriptedStep } from "../../server/testing/scripted_model.ts";
import type { BackendTool } from "../../server/tools/backend_tool.ts";

type Prompt = LanguageModelV3CallOptions["prompt"];

/** The words of the slow text answer. */
const SLOW_WORDS = 40;

/** Call ids unique across processes, so two processes never reuse one within a session. */
const callId = () => `call_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;

const textOf = (message: Prompt[number]): string =>
  typeof message.content === "string"
    ? message.content
    : message.content.map((p) => (p.type === "text" ? p.text : "")).join("");

/**
 * Whether the prompt ends with a tool result (a context update after it does not count, in full
 * or as the note that the page is unchanged).
 *
 * @example
 * ```ts
 * answered([{ role: "user", content: [{ type: "text", text: "hi" }] }]); // false
 * ```
 */
export function answered(prompt: Prompt): boolean {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message.role === "user" && textOf(message).trimStart().startsWith("<host_context")) {
      continue;
    }
    return message.role === "tool";
  }
  return false;
}

/** The text of the last user message (its context block included). */
function lastUserText(prompt: Prompt): string {
  const user = prompt.findLast((m) => m.role === "user");
  return user ? textOf(user) : "";
}

/**
 * `pend`: a user message makes the model call `select_issue {number: 42}`; a tool result makes it answer text naming `name`.
 *
 * @example
 * ```ts
 * const model = pendScript("A");
 * ```
 */
export function pendScript(name: string) {
  return scriptedModel((options): ScriptedStep =>
    answered(options.prompt)
      ? { text: `Selected issue 42 on ${name}.` }
      : { calls: [{ name: "select_issue", args: { number: 42 }, id: callId() }] }
  );
}

/**
 * `slow`: a message containing "wait" streams many words, then calls `wait_forever`; any other streams many words slowly.
 *
 * @example
 * ```ts
 * const model = slowScript("B", 200);
 * ```
 */
export function slowScript(name: string, delayMs: number) {
  const words = Array.from({ length: SLOW_WORDS }, (_, i) => `word${i + 1}`).join(" ");
  return scriptedModel((options): ScriptedStep => {
    if (answered(options.prompt)) return { text: `Done on ${name}.` };
    if (lastUserText(options.prompt).includes("wait")) {
      return { text: words, calls: [{ name: "wait_forever", args: {}, id: callId() }], delayMs };
    }
    return { text: `${words} on ${name}.`, delayMs };
  });
}

/**
 * A backend tool that never finishes (until its turn is cancelled), so a killed process leaves a running call.
 *
 * @example
 * ```ts
 * await startNode({ backendTools: [waitForever] });
 * ```
 */
export const waitForever: BackendTool = {
  name: "wait_forever",
  description: "Waits for something that never happens.",
  parameters: { type: "object", properties: {} },
  execute: (_args, { signal }) =>
    new Promise((_, reject) =>
      signal.addEventListener("abort", () => reject(signal.reason), { once: true })
    ),
};

/**
 * The model for a script name (`pend` or `slow`), or an error naming the known scripts.
 *
 * @example
 * ```ts
 * const model = modelFor("pend", "A");
 * ```
 */
export function modelFor(script: string, name: string, delayMs = 150) {
  if (script === "pend") return pendScript(name);
  if (script === "slow") return slowScript(name, delayMs);
  throw new Error(`TEST_SCRIPT "${script}" is not known; use pend or slow.`);
}
