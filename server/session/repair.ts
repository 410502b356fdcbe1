/**
 * Session repairs done under the session's lock before new work: unknown
 * outcomes after a stop, and superseding a pending call.
 *
 * @module
 */
import { sessionError } from "../http/errors.ts";
import type { AssistantMessage } from "./records.ts";
import type { LoadedSession, SessionRepo } from "./repo.ts";
import { pendingIsLive, settleOpenCalls } from "./settle.ts";

/**
 * Marks calls that no pending action waits for as unknown (the runtime
 * stopped while they ran), and drops a pending action whose call already has
 * a result. Runs under the session's lock before any new work.
 *
 * @example
 * ```ts
 * loaded = await repairSession(repo, loaded);
 * ```
 */
export async function repairSession(
  repo: SessionRepo,
  loaded: LoadedSession,
): Promise<LoadedSession> {
  const record = { ...loaded.record };
  const mutations = [];
  const pendingMessage = loaded.messages.find((m) =>
    m.message.id === record.pending_action?.assistant_message_id
  );
  if (
    record.pending_action &&
    !pendingIsLive(record, pendingMessage?.message as AssistantMessage | undefined)
  ) {
    record.pending_action = null;
  }
  for (const { seq, message } of loaded.messages) {
    if (message.role !== "assistant") continue;
    if (message.status !== "running" && message.status !== "pending") continue;
    if (record.pending_action?.assistant_message_id === message.id) continue;
    settleOpenCalls(message, "unknown");
    message.status = "failed";
    message.error = "The runtime stopped before this turn finished.";
    mutations.push(repo.putMessage(record.session_id, seq, message));
  }
  if (!mutations.length && record.pending_action === loaded.record.pending_action) return loaded;
  if (!(await repo.commit(record, loaded.version, mutations))) {
    throw sessionError(`Session ${record.session_id} changed while it was being repaired; retry.`);
  }
  return (await repo.load(record.session_id))!;
}

/**
 * A new message supersedes the pending call: its calls are closed as
 * superseded and the pending action cleared in one commit, before the new
 * message is written, so a crash in between cannot revive the old call.
 *
 * @example
 * ```ts
 * if (loaded.record.pending_action) loaded = await supersedePending(repo, loaded);
 * ```
 */
export async function supersedePending(
  repo: SessionRepo,
  loaded: LoadedSession,
): Promise<LoadedSession> {
  const pending = loaded.record.pending_action!;
  const entry = loaded.messages.find((m) => m.message.id === pending.assistant_message_id);
  const record = { ...loaded.record, pending_action: null };
  const mutations = [];
  if (entry && entry.message.role === "assistant") {
    settleOpenCalls(entry.message, "superseded");
    entry.message.status = "completed";
    mutations.push(repo.putMessage(record.session_id, entry.seq, entry.message));
  }
  if (!(await repo.commit(record, loaded.version, mutations))) {
    throw sessionError(
      `Session ${record.session_id} changed while its pending call was being superseded; retry.`,
    );
  }
  return (await repo.load(record.session_id))!;
}
