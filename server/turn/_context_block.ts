/**
 * The blocks a turn adds to the messages it writes: the page as the model
 * reads it (in full, or a note when it is the page the model saw last), and
 * the check that a new message fits the model's budget before it is stored.
 *
 * @module
 */
import type { ModelMessage } from "ai";
import type { Attachment, HostContext } from "../../protocol/mod.ts";
import type { RuntimeOptions } from "../config.ts";
import { UNCHANGED_NOTE } from "../history/blocks.ts";
import { messageTokens, textTokens } from "../history/estimate.ts";
import { historyKey, type HistoryState, initialState } from "../history/state.ts";
import { lastPageShown } from "../history/view.ts";
import { TetherError } from "../http/errors.ts";
import type { Mutation } from "../kv/store.ts";
import { budgetOf } from "../model/budget.ts";
import { type ModelProfile, profileOfModel } from "../model/mod.ts";
import type { LoadedSession } from "../session/repo.ts";
import { extraActions } from "./_roster.ts";
import { attachmentParts, renderHostContext } from "./prompt.ts";
import type { EngineModel } from "./runner.ts";

/** The rules of a turn's model, with `MODEL__STABLE_TOOLS=false` applied. */
export function profileOf(model: EngineModel, options: RuntimeOptions): ModelProfile {
  const profile = model.profile ??
    profileOfModel(model.model, { openaiStore: options.modelOptions.openaiStore });
  return options.modelOptions.stableTools === false && profile.stableTools
    ? { ...profile, stableTools: false }
    : profile;
}

/**
 * The history state a turn writes with its first commit: the page's actions become the
 * session's tool roster the first time a page offers any (providers that cache prefixes).
 *
 * @example
 * ```ts
 * const { state, write } = rosterFor(loadedState, context, profile, silent, sid);
 * ```
 */
export function rosterFor(
  state: HistoryState | null,
  context: HostContext | null,
  profile: ModelProfile,
  silent: boolean,
  sessionId: string,
): { state: HistoryState | null; write: Mutation | null } {
  if (!profile.stableTools || silent || state?.actions || !context?.actions?.length) {
    return { state, write: null };
  }
  const next = { ...(state ?? initialState()), actions: context.actions };
  return { state: next, write: { key: historyKey(sessionId), value: next } };
}

/**
 * The page block of a message: the rendered context, or the unchanged note when the model's
 * view of the conversation so far ends with this very page.
 *
 * @example
 * ```ts
 * const block = pageBlock({ context, screenshot, profile, silent, state, past });
 * ```
 */
export function pageBlock(input: {
  context: HostContext;
  screenshot: boolean;
  profile: ModelProfile;
  silent: boolean;
  state: HistoryState | null;
  past: LoadedSession["messages"];
  current?: { seq: number; steps: readonly ModelMessage[] };
}): string {
  const more = input.profile.stableTools && !input.silent
    ? extraActions(input.context, input.state?.actions)
    : [];
  const block = renderHostContext(input.context, input.screenshot, more);
  const shown = lastPageShown(input.past, input.current, input.state ?? initialState());
  return shown === block ? UNCHANGED_NOTE : block;
}

/**
 * Refuses (413, naming the limit) a message that would take more of the model's budget than
 * one message may, before anything is stored or any provider sees it. The issue's path names
 * the largest part: an attachment, the page (`host_context`) or the text (`content`).
 *
 * @example
 * ```ts
 * assertMessageFits(user.model, { attachments, block, content: body.content }, model, options);
 * ```
 */
export function assertMessageFits(
  message: ModelMessage,
  parts: { attachments: readonly Attachment[]; block?: string | null; content?: string },
  model: EngineModel,
  options: RuntimeOptions,
): void {
  const budget = budgetOf(
    profileOf(model, options),
    options.modelOptions,
    options.history.budgetTokens,
  );
  const tokens = messageTokens(message);
  if (tokens <= budget.messageTokens) return;
  const sizes: [string, number][] = [
    ["content", textTokens(parts.content ?? "")],
    ["host_context", textTokens(parts.block ?? "")],
  ];
  parts.attachments.forEach((a, i) => {
    if (a.purpose === "screenshot") return;
    sizes.push([
      `attachments.${i}`,
      messageTokens({ role: "user", content: attachmentParts([a]) }),
    ]);
  });
  const [path] = sizes.reduce((a, b) => (b[1] > a[1] ? b : a));
  const text =
    `This message comes to about ${tokens} tokens, more than the ${budget.messageTokens} one message may take with ${model.name} (half of its ${budget.requestTokens}-token request budget); the largest part is ${path}: send a smaller attachment, a link, less page data or a shorter text.`;
  throw new TetherError(413, "payload_too_large", text, { issues: [{ path, message: text }] });
}
