/**
 * A new message starts a turn: the pending call (if any) is superseded, the
 * user message is written with the context block that opens it, then the
 * model runs.
 *
 * @module
 */
import type { MessageBody } from "../../protocol/mod.ts";
import { sessionError } from "../http/errors.ts";
import type { Principal } from "../http/principal.ts";
import { chargeAttachments, mergeAttachments } from "../session/attachments.ts";
import { newAssistantMessage, newId, newSessionRecord, now } from "../session/create.ts";
import type { UserMessage } from "../session/records.ts";
import { supersedePending } from "../session/repair.ts";
import { titled } from "../session/title.ts";
import { type LoadedSession, messageIdMarks } from "../session/repo.ts";
import { effectiveLimits } from "./outcome.ts";
import type { ChatResult } from "./outcome.ts";
import { userMessage } from "./prompt.ts";
import { executionScope, sessionScope } from "../remote-tools/turn_parts.ts";
import { offerTools } from "./kinds/mod.ts";
import { type EngineModel, runAndRecord, type TurnDeps } from "./runner.ts";
import { loadHistory } from "../history/state.ts";
import { assertMessageFits, pageBlock, profileOf, rosterFor } from "./_context_block.ts";

function nextSeq(loaded: LoadedSession | null): number {
  if (!loaded) return 0;
  const last = loaded.messages.at(-1)?.seq ?? -1;
  return Math.max(loaded.record.message_count, last + 1);
}

/**
 * Starts a turn for a new user message on a loaded (and repaired) session, or a new one.
 *
 * @example
 * ```ts
 * const result = await startTurn(deps, principal, body, loaded, model);
 * ```
 */
export async function startTurn(
  deps: TurnDeps,
  principal: Principal,
  body: MessageBody,
  loaded: LoadedSession | null,
  model: EngineModel,
): Promise<ChatResult> {
  const { repo, screenshots } = deps;
  const sid = body.session_id;
  const scoped = sessionScope(principal, deps.options.remoteTools);
  const scope = executionScope(scoped);
  const outputMode = body.output_mode ?? "text";
  // Every kind's tools (a tool server's discovery among them), asked while the rest is set up.
  const offered = offerTools({
    sessionId: sid,
    options: deps.options,
    context: body.host_context ?? loaded?.record.host_context ?? null,
    outputMode,
    scope,
    remote: deps.remote,
    fresh: true,
    warn: (message) => deps.options.logger.warn(message),
  });
  // Not awaited until the message is written: a refusal before then must not leave it unhandled.
  offered.catch(() => {});
  if (body.id && loaded && (await repo.usedMessageId(sid, body.id))) {
    throw sessionError(`Message id ${body.id} was already used in session ${sid}; send a new id.`);
  }
  const attachments = mergeAttachments(
    body.attachments ?? [],
    body.host_context?.attachments ?? [],
  );
  // Refused before anything is done with them: the session's quota on kept attachments.
  const limit = deps.options.limits.maxSessionAttachmentChars;
  const attachmentChars = chargeAttachments(
    loaded?.record ?? { session_id: sid },
    attachments,
    limit,
  );
  const stored = loaded ? loadHistory(repo.store, sid) : Promise.resolve(null);
  if (loaded?.record.pending_action) loaded = await supersedePending(repo, loaded);
  const previous = loaded?.record ?? newSessionRecord(principal, sid);
  const context = body.host_context ?? previous.host_context;
  screenshots.remember(sid, attachments);
  const turn = previous.turn_number + 1;
  const userSeq = nextSeq(loaded);
  const found = await offered;
  const profile = profileOf(model, deps.options);
  const silent = body.output_mode === "host_tools";
  const past = loaded?.messages ?? [];
  const roster = rosterFor(await stored, context, profile, silent, sid);
  const page = context
    ? pageBlock({
      context,
      screenshot: !!screenshots.get(sid),
      profile,
      silent,
      state: roster.state,
      past,
    })
    : null;
  const block = [page, found.context].filter(Boolean).join("\n\n") || null;
  const user: UserMessage = {
    role: "user",
    id: body.id ?? newId("msg"),
    turn,
    created_at: now(),
    content: body.content,
    message_type: body.message_type ?? "standard",
    // Stored as metadata only: the content lives once, in the model message.
    attachments: attachments.filter((a) => a.purpose !== "screenshot").map((
      { data_uri: _d, text: _t, ...meta },
    ) => meta),
    model: userMessage(body.content, block, attachments),
  };
  // Refused before anything is stored, so a message no model request could carry never is.
  assertMessageFits(user.model, { attachments, block, content: body.content }, model, deps.options);
  const record = {
    ...previous,
    attachment_chars: attachmentChars,
    turn_number: turn,
    message_count: userSeq + 2,
    host_context: context,
    pending_action: null,
    scope: scoped,
    // A conversation is titled by its first message: the person's words, never the context.
    listing: titled(previous, body.content, body.output_mode),
  };
  const marks = messageIdMarks(sid, body.id);
  // The session's next block of event numbers, when one is due, is reserved in this commit.
  const reservation = await deps.hub.reservation(sid);
  const written = await repo.commit(record, loaded?.version ?? null, [
    // Past every message of the loaded session, which the check on its version holds still.
    repo.putMessage(sid, userSeq, user, true),
    ...marks,
    ...(roster.write ? [roster.write] : []),
    ...(reservation ? [reservation.mutation] : []),
  ]);
  if (written) reservation?.committed();
  if (!written) {
    throw sessionError(
      `Session ${sid} changed while this message was being written; send it again.`,
    );
  }
  return await runAndRecord(deps, {
    principal,
    record,
    seq: userSeq + 1,
    assistant: newAssistantMessage(turn, outputMode, model.name),
    past: [...past, { seq: userSeq, message: user }],
    history: roster.state,
    context,
    model,
    limits: effectiveLimits(deps.options.limits, body.config),
    offered: Promise.resolve(found),
    scope,
    fresh: true,
    version: written,
    request: body.id,
  });
}
