/**
 * The IndexedDB journal (with `idb`): survives reloads and is shared by every
 * tab of the origin; `claim` is an `add`, which IndexedDB refuses for a key
 * that exists, so two tabs can never both start one call.
 *
 * @module
 */
import { type IDBPDatabase, openDB } from "idb";
import { type Journal, type JournalEntry, tombstone } from "./journal.ts";

/**
 * Options of `indexedDbJournal()`.
 *
 * @example
 * ```ts
 * indexedDbJournal({ name: "my-app-tether", maxAge: 86_400_000 });
 * ```
 */
export interface IndexedDbJournalOptions {
  /** The database name. Default `tether`. */
  name?: string;
  /** Entries older than this are dropped when the journal opens, in ms. Default 7 days. */
  maxAge?: number;
  /** Tombstones of settled calls older than this are dropped when the journal opens, in ms. Default 1 day. */
  settledMaxAge?: number;
}

const STORE = "calls";

/**
 * A journal in IndexedDB: the default of `createHost()` in browsers.
 *
 * @example
 * ```ts
 * const host = createHost({ runtimeUrl, journal: indexedDbJournal({ name: "my-app-tether" }) });
 * ```
 */
export function indexedDbJournal(options: IndexedDbJournalOptions = {}): Journal {
  let db: Promise<IDBPDatabase> | undefined;
  const open = () =>
    db ??= openDB(options.name ?? "tether", 1, {
      upgrade: (d) => void d.createObjectStore(STORE, { keyPath: ["sessionId", "callId"] }),
    }).then(async (d) => {
      const now = Date.now();
      const tx = d.transaction(STORE, "readwrite");
      for (let cursor = await tx.store.openCursor(); cursor; cursor = await cursor.continue()) {
        const entry = cursor.value as JournalEntry;
        const maxAge = entry.state === "settled"
          ? options.settledMaxAge ?? 86_400_000
          : options.maxAge ?? 7 * 86_400_000;
        if (entry.startedAt < now - maxAge) await cursor.delete();
      }
      await tx.done;
      return d;
    });
  const range = (sessionId: string) => IDBKeyRange.bound([sessionId, ""], [sessionId, "\uffff"]);
  return {
    async claim(entry) {
      try {
        await (await open()).add(STORE, entry);
        return true;
      } catch (error) {
        if ((error as DOMException).name === "ConstraintError") return false;
        throw error;
      }
    },
    async put(entry) {
      await (await open()).put(STORE, entry);
    },
    async get(sessionId, callId) {
      return await (await open()).get(STORE, [sessionId, callId]);
    },
    async list(sessionId) {
      const all: JournalEntry[] = await (await open()).getAll(STORE, range(sessionId));
      return all.sort((a, b) => a.startedAt - b.startedAt);
    },
    async settle(sessionId, callId) {
      const tx = (await open()).transaction(STORE, "readwrite");
      const entry: JournalEntry | undefined = await tx.store.get([sessionId, callId]);
      if (entry) await tx.store.put(tombstone(entry));
      await tx.done;
    },
  };
}
