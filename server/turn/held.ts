/**
 * Releasing a call the policy held for approval. No client continuation
 * does this (it is refused with 409); the runtime does, when the approval is
 * decided, and resumes the turn itself: on allow the call proceeds exactly as
 * if it had been allowed at first (it runs, or pends for its host or for a
 * confirmation), on deny it fails with the reason and the model is told.
 *
 * @module
 */
import { notFound, sessionError } from "../http/errors.ts";
import type { Verdict } from "../../protocol/mod.ts";
import { handOut, rewait, stateOf } from "../session/pending.ts";
import type { AssistantMessage, CallRecord, StoredPending } from "../session/records.ts";
import { refusal } from "../session/refusal.ts";
import type { LoadedSession } from "../session/repo.ts";
import type { ToolOutput } from "../tools/backend_tool.ts";
import { toolErrorEvent } from "./events.ts";
import { kindOf, modeOf } from "./kinds/mod.ts";
import { type ChatResult, chatResult } from "./outcome.ts";
import { stepAnswers } from "./results.ts";
import type { RunContext, RunOutcome } from "./run_context.ts";
import { failCall } from "./tool_run.ts";
import { type EngineModel, runAndRecord, type TurnDeps } from "./runner.ts";

/**
 * Applies an approval's verdict to the session's held call and resumes the turn.
 * Throws a 409 when that call is not the one held (decided already, superseded, not held).
 *
 * @example
 * ```ts
 * await resumeHeldTurn(deps, loaded, "call_1", { decision: "deny", reason: "Expired." }, model);
 * ```
 */
export async function resumeHeldTurn(
  deps: TurnDeps,
  loaded: LoadedSession | null,
  sessionId: string,
  callId: string,
  verdict: Verdict,
  model: EngineModel,
): Promise<ChatResult> {
  if (!loaded) throw notFound(sessionId);
  const { record } = loaded;
  const pending = record.pending_action;
  const queued = pending?.queued.findIndex((q) => q.call_id === callId) ?? -1;
  if (pending && queued >= 0) return await holdVerdict(deps, loaded, queued, verdict);
  if (!pending || pending.tool_call_id !== callId) throw refusal(loaded, callId);
  if (stateOf(pending).waiting_for !== "approval") {
    throw sessionError(
      `Call ${callId} is not held for approval; it waits for ${pending.waiting_for}.`,
    );
  }
  const entry = loaded.messages.find((m) => m.message.id === pending.assistant_message_id)!;
  const assistant = entry.message as AssistantMessage;
  const call = assistant.calls.find((c) => c.call_id === callId)!;
  // Claimed before anything runs: a second verdict loses the commit, a crash leaves `unknown`.
  call.status = "running";
  assistant.status = "running";
  const next = { ...record, pending_action: null };
  const version = await deps.repo.commit(next, loaded.version, [
    deps.repo.putMessage(sessionId, entry.seq, assistant),
  ]);
  if (!version) {
    throw sessionError(
      `Session ${sessionId} changed while call ${callId} was being released; retry.`,
    );
  }
  const release = async (ctx: RunContext, live: Map<string, ToolOutput>) =>
    (await releaseOne(ctx, live, call, pending, verdict)) ??
      (await proceed(ctx, live, assistant, call, handOut(pending)));
  return await runAndRecord(deps, {
    principal: { id: record.owner_id, roles: [] },
    record: next,
    version,
    seq: entry.seq,
    assistant,
    past: loaded.messages.filter((m) => m.seq < entry.seq),
    context: record.host_context,
    model,
    limits: deps.options.limits,
    steering: pending.steering,
    resume: release,
  });
}

/**
 * A verdict for a held call still queued behind another pending call: kept on
 * the queued item and applied when the queue reaches it.
 */
async function holdVerdict(
  deps: TurnDeps,
  loaded: LoadedSession,
  index: number,
  verdict: Verdict,
): Promise<ChatResult> {
  const pending = loaded.record.pending_action!;
  const item = pending.queued[index];
  if (stateOf(item).waiting_for !== "approval" || item.verdict) {
    throw sessionError(
      `Call ${item.call_id} is not held for approval, or its approval was already decided.`,
    );
  }
  const queued = pending.queued.map((q, i) => (i === index ? { ...q, verdict } : q));
  const record = { ...loaded.record, pending_action: { ...pending, queued } };
  if (!(await deps.repo.commit(record, loaded.version))) {
    throw sessionError(`Session ${record.session_id} changed while the verdict was stored; retry.`);
  }
  const entry = loaded.messages.find((m) => m.message.id === pending.assistant_message_id)!;
  const outcome = { kind: "pending" as const, pending: record.pending_action };
  return chatResult(record, entry.message as AssistantMessage, outcome, null);
}

/** Applies a verdict to a held call: the outcome when the call pends now, null once it finished. */
async function releaseOne(
  ctx: RunContext,
  live: Map<string, ToolOutput>,
  call: CallRecord,
  pending: StoredPending,
  verdict: Verdict,
): Promise<RunOutcome | null> {
  if (verdict.decision === "deny") {
    call.status = "failed";
    call.error = `Refused by policy: ${verdict.reason}`;
    await ctx.emit("assistant:tool_error", toolErrorEvent(call, call.error, { policy: "deny" }));
    return null;
  }
  const kind = kindOf(call.category);
  call.status = "running";
  if (modeOf(kind, call) === "run") {
    await kind.run!(ctx, call, live);
    return null;
  }
  const tool = ctx.tools.get(call.tool_name);
  try {
    if (!tool) throw new Error(`${call.tool_name} is no longer offered, so it did not run.`);
    const item = await kind.pend!(ctx, call, tool);
    call.status = "pending";
    return { kind: "pending", pending: rewait(pending, item) };
  } catch (error) {
    await failCall(ctx, call, error, (error as Error).message);
    return null;
  }
}

/**
 * Moves the queue on after `answered` finished: held calls whose verdict
 * arrived while they were queued are released in order; the first call that
 * still waits becomes the pending one; with none left, the step's results go
 * to the model (null: the model resumes).
 *
 * @example
 * ```ts
 * const outcome = await proceed(ctx, live, assistant, call, handOut(pending));
 * ```
 */
export async function proceed(
  ctx: RunContext,
  live: Map<string, ToolOutput>,
  assistant: AssistantMessage,
  answered: CallRecord,
  next: StoredPending | null,
): Promise<RunOutcome | null> {
  while (next?.verdict) {
    const head = next;
    const call = assistant.calls.find((c) => c.call_id === head.tool_call_id)!;
    const outcome = await releaseOne(ctx, live, call, head, head.verdict!);
    if (outcome) return outcome;
    next = handOut(head);
  }
  if (next) {
    const id = next.tool_call_id;
    assistant.calls.find((c) => c.call_id === id)!.status = "pending";
    return { kind: "pending", pending: next };
  }
  assistant.steps.push(stepAnswers(assistant, answered));
  return null;
}
