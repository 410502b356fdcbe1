/**
 * A continuation applies a host's result to the pending call: the next
 * queued call is handed out without a model run, a silent decision's receipt
 * completes without one, and the last result resumes the model on the same
 * assistant message, followed by the current context.
 *
 * @module
 */
import type { MessageBody } from "../../protocol/mod.ts";
import { sessionError } from "../http/errors.ts";
import type { Principal } from "../http/principal.ts";
import { mergeAttachments } from "../session/attachments.ts";
import type { AssistantMessage, PendingAction } from "../session/records.ts";
import { refusal } from "../session/refusal.ts";
import { type LoadedSession, messageIdKey } from "../session/repo.ts";
import { extractScreenshots } from "../tools/screenshots.ts";
import { type ChatResult, chatResult, effectiveLimits, finalEvent } from "./outcome.ts";
import { attachmentParts, renderHostContext } from "./prompt.ts";
import { hostOutcomeEvent, toolMessage } from "./results.ts";
import { type EngineModel, replay, runAndRecord, type TurnDeps } from "./runner.ts";

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
  if (body.id && (await repo.usedMessageId(sid, body.id))) {
    throw sessionError(`Message id ${body.id} was already used in session ${sid}; send a new id.`);
  }
  const entry = loaded.messages.find((m) => m.message.id === pending.assistant_message_id)!;
  const assistant = entry.message as AssistantMessage;
  const call = assistant.calls.find((c) => c.call_id === callId)!;
  const { value, screenshot } = extractScreenshots(body.tool_result ?? null);
  if (screenshot) screenshots.set(sid, screenshot);
  call.status = body.tool_outcome === "failed" ? "failed" : "completed";
  call.result = value;
  const silent = pending.output_mode === "host_tools";
  const context = body.host_context ?? record.host_context;
  const [next, ...rest] = pending.queued;
  const nextPending: PendingAction | null = next
    ? {
      ...pending,
      tool_call_id: next.call_id,
      tool_name: next.tool_name,
      arguments: next.arguments,
      queued: rest,
    }
    : null;
  const answered = () => toolMessage(assistant.calls.filter((c) => c.step === call.step));
  if (next) {
    assistant.calls.find((c) => c.call_id === next.call_id)!.status = "pending";
  } else if (silent) {
    // A receipt extends the decision's assistant message and ends it, with no model run.
    assistant.steps.push(answered());
    assistant.status = "completed";
    assistant.decision = "completed";
  }
  const nextRecord = { ...record, host_context: context, pending_action: nextPending };
  const marks = body.id ? [{ key: messageIdKey(sid, body.id), value: true }] : [];
  const written = await repo.commit(nextRecord, loaded.version, [
    repo.putMessage(sid, entry.seq, assistant),
    ...marks,
  ]);
  if (!written) {
    // Another continuation won the race: say what it recorded.
    const fresh = await repo.load(sid);
    throw fresh
      ? refusal(fresh, callId)
      : sessionError(`Session ${sid} was deleted before the result arrived.`);
  }
  screenshots.remember(sid, body.host_context?.attachments ?? []);
  const emit = (event: string, payload: Record<string, unknown>) =>
    hub.publish(sid, event, payload);
  await emit("assistant:status", { type: "agent_status", status: "started" });
  // Every attached client learns the host's outcome, not only the one that sent it.
  if (!silent) await emit(...hostOutcomeEvent(call));
  if (nextPending || silent) {
    const outcome = nextPending
      ? { kind: "pending" as const, pending: nextPending }
      : { kind: "final" as const };
    const result = chatResult(nextRecord, assistant, outcome, null);
    if (!nextPending) result.decision = "completed";
    await emit("assistant:final_response", finalEvent(result, false));
    await emit("assistant:status", { type: "agent_status", status: "completed" });
    return result;
  }
  assistant.steps.push(answered());
  const attachments = mergeAttachments(
    body.attachments ?? [],
    body.host_context?.attachments ?? [],
  );
  if (context || attachments.some((a) => a.purpose !== "screenshot")) {
    // The current context right after the tool result, then the continuation's own attachments.
    const block = context ? renderHostContext(context, !!screenshots.get(sid)) : "";
    const head = [block, body.content].filter(Boolean).join("\n\n");
    assistant.steps.push({
      role: "user",
      content: [
        ...(head ? [{ type: "text" as const, text: head }] : []),
        ...attachmentParts(attachments),
      ],
    });
  }
  assistant.status = "running";
  return await runAndRecord(deps, {
    principal,
    record: nextRecord,
    seq: entry.seq,
    assistant,
    history: loaded.messages.filter((m) => m.seq < entry.seq).flatMap((m) => replay(m.message)),
    context,
    model,
    limits: effectiveLimits(deps.options.limits, body.config),
    steering: pending.steering,
    started: true,
  });
}
