/**
 * The settled messages of recent sessions, kept in the process so a turn
 * reads from the store only what may have changed. A message is settled once
 * nothing rewrites it: a user message (written once, under a fresh number) or
 * an assistant message in a final status (completed, failed, cancelled);
 * only a running or pending assistant message is ever written again (the
 * runner, a continuation, a held call's verdict, a repair after a crash), and
 * each of those reads it from the store. So a session's settled prefix (seq 0
 * up to the first unsettled message) is the same in every process sharing the
 * store, as long as the session was not deleted and made again: the session
 * record's `created_at` and owner tell the same session from a new one.
 *
 * Without it, every turn listed and decoded every message of its session
 * (800 at turn 200) and the AI SDK checked each against its schema again, so
 * a turn cost more the longer its session (`npm run bench -- long`). The
 * kept messages are frozen, deep: code that changed one would throw rather
 * than let the process's copy drift from the store's, and the AI SDK's check
 * may skip them (`server/turn/_prompt_check.ts`), as each was checked in the
 * turn that made it. At most `LIMIT` characters of messages (as JSON,
 * measured once as each is kept) are kept, the sessions used longest ago
 * dropped first.
 *
 * @module
 */
import type { SessionRecord, StoredMessage } from "./records.ts";

/** A message with its sequence number, as `SessionRepo.load()` answers it. */
export interface Numbered {
  seq: number;
  message: StoredMessage;
}

interface Prefix {
  created: string;
  owner: string;
  messages: Numbered[];
  size: number;
}

/** The most kept, over every session, in characters of the messages' JSON (a page block is up to 32,000). */
const LIMIT = 8_000_000;
const FINAL = new Set(["completed", "failed", "cancelled"]);

/** Objects frozen here, deep: what the AI SDK's prompt check may take as checked. */
export const SETTLED: WeakSet<object> = new WeakSet();

function freeze(value: unknown): void {
  // Stored values are JSON values (store.ts), so nothing here is bytes, which cannot be frozen.
  if (value === null || typeof value !== "object" || Object.isFrozen(value)) return;
  for (const child of Object.values(value)) freeze(child);
  Object.freeze(value);
  SETTLED.add(value);
}

/**
 * The settled prefixes of recent sessions, by session id.
 *
 * @example
 * ```ts
 * const settled = new SettledMessages();
 * const known = settled.prefix("s1", record); // [] the first time
 * settled.extend("s1", record, [...known, ...listedAfterThem]);
 * ```
 */
export class SettledMessages {
  #sessions = new Map<string, Prefix>();
  #total = 0;

  /** The settled prefix kept for the session of `record`: empty when none is, or it is another session by that id. */
  prefix(id: string, record: SessionRecord): Numbered[] {
    const kept = this.#sessions.get(id);
    if (!kept) return [];
    if (
      kept.created !== record.created_at || kept.owner !== record.owner_id ||
      kept.messages.length > record.message_count
    ) {
      this.drop(id);
      return [];
    }
    // Used now: to the back of the order sessions are dropped in.
    this.#sessions.delete(id);
    this.#sessions.set(id, kept);
    return kept.messages;
  }

  /** Keeps the settled prefix of `messages` (the session's, in order from seq 0). */
  extend(id: string, record: SessionRecord, messages: readonly Numbered[]): void {
    let kept = this.#sessions.get(id);
    if (!kept) {
      kept = { created: record.created_at, owner: record.owner_id, messages: [], size: 0 };
      this.#sessions.set(id, kept);
    }
    for (let i = kept.messages.length; i < messages.length; i++) {
      const entry = messages[i];
      const { message } = entry;
      if (entry.seq !== i) break;
      if (message.role === "assistant" && !FINAL.has(message.status)) break;
      const size = JSON.stringify(message).length;
      // One session alone never takes more than the whole: its later messages are read each time.
      if (kept.size + size > LIMIT) break;
      freeze(entry);
      kept.messages.push(entry);
      kept.size += size;
      this.#total += size;
    }
    for (const other of this.#sessions.keys()) {
      if (this.#total <= LIMIT || other === id) break;
      this.drop(other);
    }
  }

  /** Forgets a session (deleted, or found to be another). */
  drop(id: string): void {
    const kept = this.#sessions.get(id);
    if (!kept) return;
    this.#total -= kept.size;
    this.#sessions.delete(id);
  }
}
