/**
 * The call journal: what makes host actions run exactly once. The host
 * records a call before its handler starts and its result when it ends, and
 * marks it settled once the runtime acknowledged the result. After a reload
 * the host reads it back: a finished call is re-sent, never re-run; a call
 * that started and never finished is reported as of unknown outcome; a call
 * still waiting for the user's confirmation is asked again (nothing ran).
 *
 * A settled call keeps a small tombstone (its result dropped) for a day:
 * the runtime's view of what is pending can lag behind an acknowledgement,
 * and without the tombstone a call answered a moment ago would look new.
 *
 * Implementations: `indexedDbJournal()` (the default in browsers; survives
 * reloads and is shared by the tabs of an origin) and `memoryJournal()`.
 *
 * @module
 */

/**
 * One host call as the journal knows it.
 *
 * @example
 * ```ts
 * const entries: JournalEntry[] = await journal.list(host.sessionId);
 * ```
 */
export interface JournalEntry {
  sessionId: string;
  callId: string;
  toolName: string;
  arguments: Record<string, unknown>;
  /**
   * `confirming`: waiting for the user's Apply, nothing ran (a reload asks
   * again); `started`: the handler may be running or was cut off;
   * `finished`: `result` and `outcome` are final; `settled`: the runtime has
   * the result (or can no longer take it), nothing is left to do.
   */
  state: "confirming" | "started" | "finished" | "settled";
  result?: unknown;
  /** `declined`: the user cancelled it; sent as `failed`. */
  outcome?: "success" | "failed" | "declined";
  /** The continuation's message id, reused on every re-send so the runtime can spot a repeat. */
  messageId: string;
  /** Epoch ms when the call was claimed. */
  startedAt: number;
}

/**
 * Where the host records its calls. `claim` must be atomic: of two tabs
 * claiming one call, exactly one gets `true`.
 *
 * @example
 * ```ts
 * const journal: Journal = memoryJournal();
 * if (await journal.claim(entry)) {
 *   // run the handler, then journal.put({ ...entry, state: "finished", result, outcome })
 * }
 * ```
 */
export interface Journal {
  /** Records a call about to start; false when the call is already recorded. */
  claim(entry: JournalEntry): Promise<boolean>;
  /** Writes an entry (finished, or restarted for an idempotent re-run). */
  put(entry: JournalEntry): Promise<void>;
  /** Reads one call's entry. */
  get(sessionId: string, callId: string): Promise<JournalEntry | undefined>;
  /** Every entry of a session, oldest first. */
  list(sessionId: string): Promise<JournalEntry[]>;
  /** Marks a call settled (the runtime acknowledged its result, or can no longer take it); keeps a tombstone. */
  settle(sessionId: string, callId: string): Promise<void>;
}

/**
 * What is kept of a settled call.
 *
 * @example
 * ```ts
 * await journal.put(tombstone(entry));
 * ```
 */
export const tombstone = (entry: JournalEntry): JournalEntry => ({
  sessionId: entry.sessionId,
  callId: entry.callId,
  toolName: entry.toolName,
  arguments: {},
  state: "settled",
  messageId: entry.messageId,
  startedAt: entry.startedAt,
});

/**
 * A journal in memory: exactly-once within one page, nothing across reloads.
 * The fallback where IndexedDB is missing, and handy in tests.
 *
 * @example
 * ```ts
 * const host = createHost({ runtimeUrl, journal: memoryJournal() });
 * ```
 */
export function memoryJournal(): Journal {
  const entries = new Map<string, JournalEntry>();
  const key = (sessionId: string, callId: string) => JSON.stringify([sessionId, callId]);
  const copy = (entry: JournalEntry | undefined) => entry && structuredClone(entry);
  return {
    claim(entry) {
      const k = key(entry.sessionId, entry.callId);
      if (entries.has(k)) return Promise.resolve(false);
      entries.set(k, copy(entry)!);
      return Promise.resolve(true);
    },
    put(entry) {
      entries.set(key(entry.sessionId, entry.callId), copy(entry)!);
      return Promise.resolve();
    },
    get: (sessionId, callId) => Promise.resolve(copy(entries.get(key(sessionId, callId)))),
    list: (sessionId) =>
      Promise.resolve(
        [...entries.values()].filter((e) => e.sessionId === sessionId).sort((a, b) =>
          a.startedAt - b.startedAt
        ).map((e) => copy(e)!),
      ),
    settle(sessionId, callId) {
      const entry = entries.get(key(sessionId, callId));
      if (entry) entries.set(key(sessionId, callId), tombstone(entry));
      return Promise.resolve();
    },
  };
}
