/**
 * Where the inspector's records live: `["inspect", session, "<turn>:<started_at>"]`,
 * one per run of a turn, the last `KEEP` of a session, each for a day
 * (`EXPIRE_MS`), written only while inspection is on and deleted with the
 * session. What the route answers: those runs, oldest first, and the call
 * pending now, with every configured secret redacted.
 *
 * @module
 */
import type { Store } from "../kv/store.ts";
import { redact } from "../log.ts";
import type { SessionRecord } from "../session/records.ts";
import { pendingActionView } from "../session/pending.ts";
import type { InspectionView, RunInspection } from "../../protocol/mod.ts";

export type { InspectionView };

/** The first part of every record's key. */
export const INSPECT = "inspect";
/** Runs kept per session. */
export const KEEP = 20;
/** How long a record is kept. */
export const EXPIRE_MS = 24 * 60 * 60 * 1000;

/**
 * Stores a run's record and drops the session's oldest beyond `KEEP`.
 *
 * @example
 * ```ts
 * await saveRun(store, "s1", recorder.finish(assistant, null, usage));
 * ```
 */
export async function saveRun(store: Store, sessionId: string, run: RunInspection): Promise<void> {
  const key = [INSPECT, sessionId, `${String(run.turn).padStart(8, "0")}:${run.started_at}`];
  await store.set(key, run, { expireIn: EXPIRE_MS });
  const kept = await store.list([INSPECT, sessionId], { reverse: true, limit: KEEP + 8 });
  await Promise.all(kept.slice(KEEP).map((e) => store.delete(e.key)));
}

/**
 * What the inspector reads of a session.
 *
 * @example
 * ```ts
 * const view = await inspection(store, record);
 * ```
 */
export async function inspection(store: Store, record: SessionRecord): Promise<InspectionView> {
  const runs = await store.list<RunInspection>([INSPECT, record.session_id], { limit: KEEP + 8 });
  const view: InspectionView = {
    session_id: record.session_id,
    pending: record.pending_action ? pendingActionView(record.pending_action) : null,
    runs: runs.map((e) => e.value),
  };
  // Nothing configured as a secret leaves the server, whatever a page or a tool server put in.
  return JSON.parse(redact(JSON.stringify(view)));
}
