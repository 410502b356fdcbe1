/**
 * The page a session was last shown (its `host_context`), kept in the session
 * record when it is small and beside it when it is not (private to
 * `server/session/`).
 *
 * A turn writes its session record twice (when the message is taken and when
 * the turn ends), and every continuation writes it again. Inside the record,
 * a page went with each of those writes: on a data-rich page up to 32,000
 * characters of data and 32 action schemas, rewritten unchanged. A page over
 * `INLINE_PAGE_CHARS` of JSON now sits at `["session_page", id]`, and the
 * record names it by a digest (`page`); it is written in a commit of the record
 * only when it differs from the page stored at the version that commit checks.
 *
 * Only a page of a few fields stays in the record. The record is the row a
 * session rewrites most, and a row's size has a cliff: Deno KV's SQLite table
 * keeps a row of up to about 985 bytes (key and value) in its tree's page, and
 * spills a longer one into an overflow page of its own, so each write of it
 * writes 4 KB more. The contract's example page (about 320 characters) took
 * the record over that line; with the page beside it and its listing key left
 * out (session/listing.ts), the record stays under {@linkcode RECORD_ROW_CHARS}
 * (docs/architecture.md, Decisions).
 *
 * What is kept of a page is what later turns read of it: everything but its
 * attachments. An attachment's content reaches the model in the message that
 * carried it (the user message keeps a reference attachment; a screenshot is
 * kept in the process, `server/tools/screenshots.ts`), and nothing reads a
 * page's attachments back from the record; kept there they were copied into
 * every write of it, a screenshot's megabytes included.
 *
 * @module
 */
import type { HostContext } from "../../protocol/mod.ts";
import type { Entry, Mutation } from "../kv/store.ts";
import { BoundedMap } from "../bounded_map.ts";
import { canonicalText } from "../http/message_body.ts";
import { generationOf } from "../events/stamp.ts";
import { createHash } from "node:crypto";
import type { SessionRecord } from "./records.ts";

/** The key of a session's page, when it is kept beside the record. */
export const pageKey = (id: string) => ["session_page", id] as const;

/** The largest page, in characters of JSON, kept inside the session record. */
export const INLINE_PAGE_CHARS = 128;

/**
 * What a session record's row (key and value) stays under on a turn like the contract's
 * example with a title of the most characters and a hosted provider's call id, in characters
 * of JSON: under Deno KV's overflow line (about 985 bytes), with room for the bytes its
 * storage adds. `server/session/page.test.ts` holds it.
 */
export const RECORD_ROW_CHARS = 900;

/** Digests remembered, each for a version of a session record read or written here. */
export const KNOWN_PAGES = 10_000;

/** A page as kept: the context without its attachments, and its digest when it goes beside. */
interface Kept {
  context: HostContext;
  /** "" for a page kept inside the record. */
  page: string;
}

/**
 * Each context's page as kept, worked out once: a turn commits the same context object two or
 * more times (the message taken, the turn ended, each continuation), and on a data-rich page
 * its JSON and digest cost about 0.1 ms each time. Contexts are never changed once they are
 * given to a record (they come parsed from a request or read from the store).
 */
const keptPages = new WeakMap<HostContext, Kept>();

function kept(context: HostContext): Kept {
  let known = keptPages.get(context);
  if (known) return known;
  let page: HostContext = context;
  let text: string | undefined;
  if (context.attachments) {
    const { attachments: _, ...rest } = context;
    page = rest;
  } else text = canonicalText(context); // a context from a request: its text was made then
  text ??= JSON.stringify(page);
  const digest = text.length > INLINE_PAGE_CHARS
    ? createHash("sha256").update(text).digest("base64url")
    : "";
  keptPages.set(context, known = { context: page, page: digest });
  return known;
}

/**
 * A version of a record, with its session's generation: a store that numbered versions anew
 * could not make a session deleted and made again look like the one before.
 */
const versionId = (record: SessionRecord, version: string) =>
  `${record.session_id}\n${generationOf(record)}\n${version}`;

/**
 * The page kept beside each recent version of a session record (its digest, "" for none), as
 * read or written in this process: what a commit checked at that version replaces. At a
 * version not known here the commit writes its page (or deletes the one beside) whatever it
 * is, which is never wrong, only a write more.
 *
 * @example
 * ```ts
 * const pages = new StoredPages();
 * const { value, writes } = pages.stored(record, entry.version);
 * ```
 */
export class StoredPages {
  #known = new BoundedMap<string, string>(KNOWN_PAGES);

  /** Notes the page beside a record as read or committed at `version`. */
  saw(record: SessionRecord, version: string): void {
    this.#known.set(versionId(record, version), record.page ?? "");
  }

  /**
   * What `record` is written as, over the record at `version` (null: none), and the writes of
   * the page beside it that go in the same commit: none when the record at `version` has that
   * page beside it already, else the page, or the deletion of the one beside.
   */
  stored(
    record: SessionRecord,
    version: string | null,
  ): { value: SessionRecord; writes: Mutation[] } {
    const { context, page } = record.host_context
      ? kept(record.host_context)
      : { context: null, page: "" };
    const beside = page !== "";
    let value: SessionRecord;
    if (beside) value = { ...record, host_context: null, page };
    else if (record.page === undefined) value = { ...record, host_context: context };
    else {
      const { page: _, ...rest } = record;
      value = { ...rest, host_context: context };
    }
    // No record yet: nothing beside it either (a deletion takes both).
    const before = version === null ? "" : this.#known.get(versionId(record, version));
    if (page === before) return { value, writes: [] };
    const key = pageKey(record.session_id);
    if (!beside) return { value, writes: [{ key }] };
    // A new record's page replaces nothing (a deletion takes both), so no store need look first.
    return {
      value,
      writes: [version === null ? { key, value: context, fresh: true } : { key, value: context }],
    };
  }
}

/**
 * A record as read, with the page beside it put back.
 *
 * @example
 * ```ts
 * const [entry, page] = await store.getMany([sessionKey(id), pageKey(id)]);
 * const record = entry && withPage(entry as Entry<SessionRecord>, page);
 * ```
 */
export function withPage(
  entry: Entry<SessionRecord>,
  page: Entry<unknown> | null,
): Entry<SessionRecord> {
  if (!entry.value.page) return entry;
  const context = (page?.value as HostContext | undefined) ?? null;
  return { ...entry, value: { ...entry.value, host_context: context } };
}
