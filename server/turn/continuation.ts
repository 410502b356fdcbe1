/**
 * A continuation answers the pending call. Its kind says what the answer
 * means (`kinds/kind.ts`): recorded (a host's result, a declined
 * confirmation), still pending (a first of two confirmations), or released
 * to run now (an applied confirmation). A call held for approval is never
 * released by a continuation. Then the next queued call is handed out
 * without a model run, a silent decision's receipt completes without one, or
 * the model resumes on the same assistant message, after the current context.
 *
 * @module
 */
import type { HostContext, MessageBody } from "../../protocol/mod.ts";
import { sessionError } from "../http/errors.ts";
import type { Principal } from "../http/principal.ts";
import { chargeAttachments, mergeAttachments } from "../session/attachments.ts";
import { handOut, rewait, stateOf } from "../session/pending.ts";
import type { AssistantMessage, SessionRecord, StoredPending } from "../session/records.ts";
import { refusal } from "../session/refusal.ts";
import { type LoadedSession, messageIdMarks } from "../session/repo.ts";
import type { ScreenshotCache } from "../tools/screenshots.ts";
import { stampOf } from "../events/stamp.ts";
import { announceAnswer, type SessionEmit, sessionEmitter, statusEvent } from "./events.ts";
import { kindOf } from "./kinds/mod.ts";
import { type ChatResult, chatResult, effectiveLimits, finalEvent } from "./outcome.ts";
import { attachmentParts } from "./prompt.ts";
import { type HistoryState, loadHistory } from "../history/state.ts";
import { assertMessageFits, pageBlock, profileOf } from "./_context_block.ts";
import { stepAnswers } from "./results.ts";
import { proceed } from "./held.ts";
import { type EngineModel, runAndRecord, type TurnDeps } from "./runner.ts";

/**
 * Applies a continuation to a loaded (and repaired) session.
 *
 * @example
 * ```ts
 * const result = await continueTurn(deps, principal, body, loaded, model);
 * ```
 */
export async function continueTurn(
  deps: TurnDeps,
  principal: Principal,
  body: MessageBody,
  loaded: LoadedSession,
  model: EngineModel,
): Promise<ChatResult> {
  const { repo, hub, screenshots } = deps;
  const sid = body.session_id;
  const callId = body.tool_call_id!;
  const { record } = loaded;
  const pending = record.pending_action;
  if (!pending || pending.tool_call_id !== callId) throw refusal(loaded, callId);
  const wait = stateOf(pending);
  if (wait.waiting_for === "approval") {
    throw sessionError(
      `Call ${callId} (${pending.tool_name}) is held for approval; only the approval releases it, not a continuation.`,
      { waiting_for: "approval" },
    );
  }
  if (body.id && (await repo.usedMessageId(sid, body.id))) {
    throw sessionError(`Message id ${body.id} was already used in session ${sid}; send a new id.`);
  }
  const stored = loadHistory(repo.store, sid);
  const entry = loaded.messages.find((m) => m.message.id === pending.assistant_message_id)!;
  const assistant = entry.message as AssistantMessage;
  const call = assistant.calls.find((c) => c.call_id === callId)!;
  const kind = kindOf(call.category);
  if (!kind.continue) {
    // Only a record this kind did not write could pend one of its calls for a client.
    throw sessionError(`Call ${callId} runs in the runtime; no continuation answers it.`);
  }
  const answer = kind.continue({ sessionId: sid, screenshots }, call, wait, body);
  if (answer.kind === "run" && !kind.run) {
    throw new Error(`The ${call.category} kind released a call it cannot run.`);
  }
  const silent = pending.output_mode === "host_tools";
  const context = body.host_context ?? record.host_context;
  let nextPending: StoredPending | null = null;
  // The next queued call is a held one whose approval was decided meanwhile: release it now.
  const decided = answer.kind === "recorded" && !!handOut(pending)?.verdict;
  if (answer.kind === "pending") nextPending = rewait(pending, answer.fields);
  else if (answer.kind === "run" || decided) {
    // Claimed before it runs: a duplicate loses the commit, and a crash leaves `unknown`.
    if (answer.kind === "run") call.status = "running";
    else {assistant.calls.find((c) => c.call_id === handOut(pending)!.tool_call_id)!.status =
        "running";}
    assistant.status = "running";
  } else {
    nextPending = handOut(pending);
    if (nextPending) {
      assistant.calls.find((c) => c.call_id === nextPending!.tool_call_id)!.status = "pending";
    } else if (silent) {
      // A receipt extends the decision's assistant message and ends it, with no model run.
      assistant.steps.push(stepAnswers(assistant, call));
      assistant.status = "completed";
      assistant.decision = "completed";
    }
  }
  const attached = mergeAttachments(body.attachments ?? [], body.host_context?.attachments ?? []);
  const limit = deps.options.limits.maxSessionAttachmentChars;
  const attachmentChars = chargeAttachments(record, attached, limit);
  // Refused before anything is recorded, so the call stays pending and the host can answer again.
  assertMessageFits(
    { role: "user", content: attachmentParts(attached) },
    { attachments: attached },
    model,
    deps.options,
  );
  const history = await stored;
  const nextRecord = {
    ...record,
    host_context: context,
    pending_action: nextPending,
    attachment_chars: attachmentChars,
  };
  const marks = messageIdMarks(sid, body.id);
  // The session's next block of event numbers, when one is due, is reserved in this commit.
  const reservation = await hub.reservation(sid);
  const written = await repo.commit(nextRecord, loaded.version, [
    repo.putMessage(sid, entry.seq, assistant),
    ...marks,
    ...(reservation ? [reservation.mutation] : []),
  ]);
  if (written) reservation?.committed();
  if (!written) {
    // Another continuation won the race: say what it recorded.
    const fresh = await repo.load(sid);
    throw fresh
      ? refusal(fresh, callId)
      : sessionError(`Session ${sid} was deleted before the result arrived.`);
  }
  screenshots.remember(sid, body.host_context?.attachments ?? []);
  const emit = sessionEmitter(hub, sid, stampOf(nextRecord));
  const past = loaded.messages.filter((m) => m.seq < entry.seq);
  const resumeModel = () => {
    addContext(assistant, body, context, { screenshots, sid, past, seq: entry.seq, history }, {
      profile: profileOf(model, deps.options),
      silent,
    });
    assistant.status = "running";
  };
  const run = {
    principal,
    record: nextRecord,
    seq: entry.seq,
    assistant,
    past,
    history,
    context,
    model,
    limits: effectiveLimits(deps.options.limits, body.config),
    steering: pending.steering,
    version: written,
    request: body.id,
  };
  if (answer.kind === "run" || decided) {
    if (decided) {
      await emit("assistant:status", statusEvent("started", body.id));
      if (!silent) await announceAnswer(emit, call);
    }
    return await runAndRecord(deps, {
      ...run,
      started: decided,
      resume: async (ctx, live) => {
        if (answer.kind === "run") await kind.run!(ctx, call, live);
        const outcome = await proceed(ctx, live, assistant, call, handOut(pending));
        if (!outcome) resumeModel();
        return outcome;
      },
    });
  }
  await emit("assistant:status", statusEvent("started", body.id));
  // Every attached client learns how the call was answered, not only the one that sent it.
  if (!silent && answer.kind === "recorded") await announceAnswer(emit, call);
  if (nextPending || silent) return await answerWithoutModel(emit, nextRecord, assistant, body.id);
  assistant.steps.push(stepAnswers(assistant, call));
  resumeModel();
  return await runAndRecord(deps, { ...run, started: true });
}

/**
 * The current context right after the tool result (or the unchanged note, when it is the page
 * the model saw last), then the continuation's own attachments.
 */
function addContext(
  assistant: AssistantMessage,
  body: MessageBody,
  context: HostContext | null,
  session: {
    screenshots: ScreenshotCache;
    sid: string;
    past: LoadedSession["messages"];
    seq: number;
    history: HistoryState | null;
  },
  rules: Pick<Parameters<typeof pageBlock>[0], "profile" | "silent">,
): void {
  const attachments = mergeAttachments(
    body.attachments ?? [],
    body.host_context?.attachments ?? [],
  );
  if (!context && !attachments.some((a) => a.purpose !== "screenshot")) return;
  const block = context
    ? pageBlock({
      context,
      screenshot: !!session.screenshots.get(session.sid),
      ...rules,
      state: session.history,
      past: session.past,
      current: { seq: session.seq, steps: assistant.steps },
    })
    : "";
  const head = [block, body.content].filter(Boolean).join("\n\n");
  assistant.steps.push({
    role: "user",
    content: [
      ...(head ? [{ type: "text" as const, text: head }] : []),
      ...attachmentParts(attachments),
    ],
  });
}

/** Answers the turn with the next pending call (or a silent receipt) and no model run. */
async function answerWithoutModel(
  emit: SessionEmit,
  record: SessionRecord,
  assistant: AssistantMessage,
  request: string | undefined,
): Promise<ChatResult> {
  const pending = record.pending_action;
  const outcome = pending ? { kind: "pending" as const, pending } : { kind: "final" as const };
  const result = chatResult(record, assistant, outcome, null);
  if (!pending) result.decision = "completed";
  await emit.all([
    { event: "assistant:final_response", payload: finalEvent(result, false) },
    { event: "assistant:status", payload: statusEvent("completed", request) },
  ]);
  return result;
}
