/**
 * Reads and writes sessions and messages in the store. Every write that must
 * not race is one `atomic()` commit checked on the session record's version.
 *
 * @module
 */
import type { Entry, Mutation, Store } from "../kv/store.ts";
import { relist, storedListing, unlist, withListingKey } from "./listing.ts";
import type { AssistantMessage, SessionRecord, StoredMessage } from "./records.ts";
import { SettledMessages } from "./_settled.ts";
import { pageKey, StoredPages, withPage } from "./_page.ts";

const pad = (n: number) => n.toString().padStart(8, "0");

/** The key of a session record. */
export const sessionKey = (id: string) => ["session", id] as const;
/** The key of a session's message number `seq`. */
export const messageKey = (id: string, seq: number) => ["message", id, pad(seq)] as const;
/** The key that marks a client message id as used. */
export const messageIdKey = (id: string, clientId: string) => ["message_id", id, clientId] as const;

/**
 * The writes that mark client message id `clientId` as used, for the commit that stores its
 * message (none without an id). The mark is written once: the commit that would write it again
 * finds the id used first (`usedMessageId`), or loses its check on the session record to the
 * commit that wrote it. So it is `fresh`, and a Deno KV store does not read the key before
 * writing it (one key read less per message); a wrong claim could only replace `true` with `true`.
 */
export const messageIdMarks = (id: string, clientId: string | null | undefined): Mutation[] =>
  clientId ? [{ key: messageIdKey(id, clientId), value: true, fresh: true }] : [];

/** A loaded session: its record, the record's version and its messages with their sequence numbers. */
export interface LoadedSession {
  record: SessionRecord;
  version: string;
  messages: { seq: number; message: StoredMessage }[];
}

/**
 * The session store operations the engine needs.
 *
 * @example
 * ```ts
 * const repo = new SessionRepo(store);
 * const session = await repo.load("s1");
 * ```
 */
export class SessionRepo {
  readonly store: Store;
  /** The workspace of sessions whose principal names none (`REMOTE_TOOLS__WORKSPACE`). */
  readonly workspace: string;
  /** The settled messages of recent sessions, read from the store once (`_settled.ts`). */
  #settled = new SettledMessages();
  /** The page each recent record version was stored with (`_page.ts`). */
  #pages = new StoredPages();
  constructor(store: Store, workspace = "default") {
    this.store = store;
    this.workspace = workspace;
  }

  /**
   * The session record alone, with its page (`host_context`; `_page.ts`) and the key it is
   * listed under (`listing.ts`). The record and its page's key are read in one snapshot, so the
   * page is the one the version read names; a store may batch such a read with others and
   * remember what it saw for the commit that follows (Deno KV does both).
   */
  async record(id: string): Promise<Entry<SessionRecord> | null> {
    const [read, page] = await this.store.getMany([sessionKey(id), pageKey(id)]);
    if (!read) return null;
    const found = withPage(read as Entry<SessionRecord>, page);
    const entry = { ...found, value: withListingKey(found.value) };
    this.#pages.saw(entry.value, entry.version);
    return entry;
  }

  /**
   * The session with all its messages, or null. The settled ones (`_settled.ts`) are read from
   * the store once and frozen; the rest are read on every load, and the caller may change them.
   */
  async load(id: string): Promise<LoadedSession | null> {
    // One read for a session that does not exist yet, the common case of a first message.
    const entry = await this.record(id);
    if (!entry) {
      this.#settled.drop(id);
      return null;
    }
    // A copy: another load of the session may extend the kept prefix while this one lists, and
    // the messages it adds would then come twice, from the prefix and from the list.
    const known = this.#settled.prefix(id, entry.value).slice();
    const list = await this.store.list<StoredMessage>(
      ["message", id],
      known.length ? { after: pad(known.length - 1) } : undefined,
    );
    const messages = known.concat(list.map((e) => ({ seq: Number(e.key[2]), message: e.value })));
    this.#settled.extend(id, entry.value, messages);
    return { record: entry.value, version: entry.version, messages };
  }

  /**
   * Commits a new session record version plus other writes, if the record is still at
   * `version`; resolves the record's new version, or null when it was not at `version`.
   * The owner's listing moves in the same commit (session/listing.ts); on success
   * `record.listing` is what was written. `touch: false` keeps the conversation's place in
   * the listing (a rename, an archive).
   */
  async commit(
    record: SessionRecord,
    version: string | null,
    mutations: Mutation[] = [],
    options: { touch?: boolean } = {},
  ): Promise<string | null> {
    const { listing, mutations: index } = relist(record, this.workspace, options.touch ?? true);
    // The page goes beside the record, written only when it is not the one stored (`_page.ts`).
    const { value, writes } = this.#pages.stored(record, version);
    value.listing = storedListing(listing); // `value` is a copy of its own
    const versions = await this.store.commit(
      [{ key: sessionKey(record.session_id), version }],
      [{ key: sessionKey(record.session_id), value }, ...writes, ...index, ...mutations],
    );
    if (!versions) return null;
    record.listing = listing;
    this.#pages.saw(value, versions[0]!);
    return versions[0];
  }

  /** The mutation that writes message `seq`; `fresh` when that number was never written (`Mutation.fresh`). */
  putMessage(id: string, seq: number, message: StoredMessage, fresh = false): Mutation {
    return fresh
      ? { key: messageKey(id, seq), value: message, fresh }
      : { key: messageKey(id, seq), value: message };
  }

  /** Writes an assistant message alone (progress that decides nothing). */
  saveAssistant(id: string, seq: number, message: AssistantMessage): Promise<void> {
    return this.store.set(messageKey(id, seq), message);
  }

  /** Whether a client message id was used in the session. */
  async usedMessageId(id: string, clientId: string): Promise<boolean> {
    return (await this.store.get(messageIdKey(id, clientId))) !== null;
  }

  /**
   * Deletes a session and everything stored under it; the record goes last, with its
   * listing entry in the same commit, so a crash midway leaves it listed and deletable.
   */
  async delete(id: string): Promise<void> {
    this.#settled.drop(id);
    const [messages, ids, inspected] = await Promise.all([
      this.store.list(["message", id]),
      this.store.list(["message_id", id]),
      this.store.list(["inspect", id]),
    ]);
    await Promise.all([...messages, ...ids, ...inspected].map((e) => this.store.delete(e.key)));
    await this.store.delete(["history", id]);
    for (let attempt = 0; attempt < 5; attempt++) {
      const entry = await this.record(id);
      if (!entry) return;
      const check = [{ key: sessionKey(id), version: entry.version }];
      const gone = [{ key: sessionKey(id) }, { key: pageKey(id) }, ...unlist(entry.value)];
      if (await this.store.atomic(check, gone)) return;
    }
    throw new Error(`Session ${id} kept changing while it was deleted; delete it again.`);
  }
}
