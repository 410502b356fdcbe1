/**
 * The IndexedDB journal: survives reloads and is shared by every tab of the
 * origin; `claim` is an `add`, which IndexedDB refuses for a key that
 * exists, so two tabs can never both start one call. Written on IndexedDB's
 * own requests (a few lines of it, where a wrapper library cost the SDK's
 * download 3 KB).
 *
 * @module
 */
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

/** The result of a request. */
const done = <T>(request: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

/** Resolves when a transaction has committed. */
const committed = (tx: IDBTransaction): Promise<void> =>
  new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(tx.error);
  });

/**
 * A journal in IndexedDB: the default of `createHost()` in browsers.
 *
 * @example
 * ```ts
 * const host = createHost({ runtimeUrl, journal: indexedDbJournal({ name: "my-app-tether" }) });
 * ```
 */
export function indexedDbJournal(options: IndexedDbJournalOptions = {}): Journal {
  let db: Promise<IDBDatabase> | undefined;
  const open = () =>
    db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(options.name ?? "tether", 1);
      request.onupgradeneeded = () =>
        request.result.createObjectStore(STORE, { keyPath: ["sessionId", "callId"] });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    }).then(async (d) => {
      // Old entries go when the journal opens; the cursor walks inside one transaction.
      const now = Date.now();
      const tx = d.transaction(STORE, "readwrite");
      const cursor = tx.objectStore(STORE).openCursor();
      cursor.onsuccess = () => {
        const at = cursor.result;
        if (!at) return;
        const entry = at.value as JournalEntry;
        const maxAge = entry.state === "settled"
          ? options.settledMaxAge ?? 86_400_000
          : options.maxAge ?? 7 * 86_400_000;
        if (entry.startedAt < now - maxAge) at.delete();
        at.continue();
      };
      await committed(tx);
      return d;
    });
  const store = async (mode: IDBTransactionMode = "readonly") =>
    (await open()).transaction(STORE, mode).objectStore(STORE);
  return {
    async claim(entry) {
      try {
        const calls = await store("readwrite");
        await Promise.all([done(calls.add(entry)), committed(calls.transaction)]);
        return true;
      } catch (error) {
        if ((error as DOMException).name === "ConstraintError") return false;
        throw error;
      }
    },
    async put(entry) {
      const calls = await store("readwrite");
      calls.put(entry);
      await committed(calls.transaction);
    },
    async get(sessionId, callId) {
      return await done((await store()).get([sessionId, callId]));
    },
    async list(sessionId) {
      const range = IDBKeyRange.bound([sessionId, ""], [sessionId, "\uffff"]);
      const all: JournalEntry[] = await done((await store()).getAll(range));
      return all.sort((a, b) => a.startedAt - b.startedAt);
    },
    async settle(sessionId, callId) {
      // Read and rewrite in one transaction: its requests run in order, nothing awaited between.
      const calls = await store("readwrite");
      const read = calls.get([sessionId, callId]);
      read.onsuccess = () => read.result && calls.put(tombstone(read.result));
      await committed(calls.transaction);
    },
  };
}
