/**
 * A principal's conversations, listed from an index rather than a scan. Each
 * session is listed under one key,
 * `["session_list", owner, workspace, "active" | "archived", "<updated_at>|<id>"]`,
 * holding its summary; `store.list()` walks that prefix newest first, which on
 * every store is a range read of an ordered index (Deno KV's keys, Redis's
 * sorted set, Postgres's primary key, the memory store's tree).
 *
 * The index entry is written in the same atomic commit as the session record
 * (`SessionRepo.commit`), and a record read names the key it is listed under
 * (`listing.key`), so a commit that moves it deletes exactly the entry the
 * stored record was listed at. A crash between two writes can leave nothing
 * half done: either the commit with both happened or neither did.
 *
 * The key is not stored in the record: its listing fields give it again
 * (`withListingKey`), and the record is the row a session rewrites most, with
 * little room under Deno KV's overflow line (`session/_page.ts`). Records
 * written before keep the key they name.
 *
 * @module
 */
import type { SessionList, SessionSummary } from "../../protocol/mod.ts";
import type { Entry, Mutation, Store } from "../kv/store.ts";
import { now } from "./create.ts";
import { waitingOf } from "./pending.ts";
import type { ListingFields, SessionRecord } from "./records.ts";

/** The first part of every listing key. */
export const LISTING = "session_list";

/** Who a listing is for: an owner's sessions in one workspace, archived or not. */
export interface ListingScope {
  owner: string;
  workspace: string;
  archived: boolean;
}

/** Most entries in one page. */
export const MAX_PAGE = 100;
/** Entries in a page when the caller names no limit. */
export const DEFAULT_PAGE = 20;

/** A cursor: the last part of a listing key. */
const CURSOR = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\|[A-Za-z0-9._:-]{1,64}$/;

/**
 * Whether `text` is a cursor a listing could have answered (`next_before`).
 *
 * @example
 * ```ts
 * isCursor("2026-01-01T12:00:00.000Z|s-1"); // true
 * ```
 */
export const isCursor = (text: string): boolean => CURSOR.test(text);

const prefix = (scope: ListingScope): string[] => [
  LISTING,
  scope.owner,
  scope.workspace,
  scope.archived ? "archived" : "active",
];

/**
 * The summary a listing shows of a record.
 *
 * @example
 * ```ts
 * summaryOf(record).waiting_for; // "host" while a host call is pending
 * ```
 */
export function summaryOf(record: SessionRecord): SessionSummary {
  const listing = record.listing;
  return {
    session_id: record.session_id,
    title: listing?.title ?? null,
    updated_at: listing?.updated_at ?? record.created_at,
    waiting_for: record.pending_action ? waitingOf(record.pending_action) : null,
    message_count: record.message_count,
    archived: listing?.archived === true,
  };
}

/** The key a session with these listing fields is listed under. */
function keyOf(
  record: SessionRecord,
  fields: ListingFields & { workspace: string; updated_at: string },
): string[] {
  return [
    ...prefix({
      owner: record.owner_id,
      workspace: fields.workspace,
      archived: fields.archived === true,
    }),
    `${fields.updated_at}|${record.session_id}`,
  ];
}

/**
 * The key a stored record is listed under, or undefined when it is not listed: the key it
 * names (records written before the key was left out), else the one its listing fields give.
 * A record is listed once a commit gave it a workspace and a time, unless it is unlisted.
 */
export function listedKey(record: SessionRecord): string[] | undefined {
  const listing = record.listing;
  if (!listing || listing.unlisted) return undefined;
  if (listing.key) return listing.key;
  const { workspace, updated_at } = listing;
  return workspace && updated_at ? keyOf(record, { ...listing, workspace, updated_at }) : undefined;
}

/**
 * A record as read from the store, with the key it is listed under in `listing.key` (the same
 * object when there is nothing to add).
 *
 * @example
 * ```ts
 * const record = withListingKey(entry.value); // record.listing?.key: where it is listed
 * ```
 */
export function withListingKey(record: SessionRecord): SessionRecord {
  const listing = record.listing;
  if (!listing || listing.key) return record;
  const key = listedKey(record);
  return key ? { ...record, listing: { ...listing, key } } : record;
}

/**
 * Listing fields as stored: without the key, which `withListingKey` gives again on reading.
 *
 * @example
 * ```ts
 * const value = { ...record, listing: storedListing(record.listing) };
 * ```
 */
export function storedListing(listing: ListingFields): ListingFields {
  const { key: _, ...fields } = listing;
  return fields;
}

/**
 * The listing fields a record is committed with, and the index writes of
 * that commit: the entry at its (new) key, and the deletion of the entry the
 * record was listed under before, when the key moved. `touch` moves the
 * conversation to the top (a message, a call answered); a rename or an
 * archive does not.
 *
 * @example
 * ```ts
 * const { listing, mutations } = relist(record, "default", true);
 * ```
 */
export function relist(
  record: SessionRecord,
  defaultWorkspace: string,
  touch: boolean,
): { listing: ListingFields; mutations: Mutation[] } {
  const before = record.listing;
  const { key: _key, ...kept } = before ?? {};
  const fields = {
    ...kept,
    workspace: kept.workspace || defaultWorkspace,
    updated_at: touch || !before?.updated_at ? now() : before.updated_at,
  };
  const key = keyOf(record, fields);
  if (fields.unlisted) {
    // Silent decisions are no conversations: no entry (and none left behind).
    return { listing: fields, mutations: before?.key ? [{ key: before.key }] : [] };
  }
  const listing = { ...fields, key } satisfies ListingFields;
  const moved = !before?.key || !sameKey(before.key, key);
  const mutations: Mutation[] = [{
    key,
    value: summaryOf({ ...record, listing }),
    // A session has one entry at a time: one under another key was deleted in the commit that
    // wrote its successor, so a key the entry moves to holds nothing now.
    ...(moved ? { fresh: true } : {}),
  }];
  if (before?.key && moved) mutations.push({ key: before.key });
  return { listing, mutations };
}

/**
 * The deletion of a record's index entry (in the commit that deletes the record).
 *
 * @example
 * ```ts
 * const mutations = unlist(record);
 * ```
 */
export function unlist(record: SessionRecord): Mutation[] {
  return record.listing?.key ? [{ key: record.listing.key }] : [];
}

function sameKey(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}

/**
 * One page of a scope's sessions, newest first, after the cursor `before`.
 *
 * @example
 * ```ts
 * const page = await listSessions(store, { owner: "ann", workspace: "default", archived: false }, { limit: 20 });
 * ```
 */
export async function listSessions(
  store: Store,
  scope: ListingScope,
  options: { limit?: number; before?: string } = {},
): Promise<SessionList> {
  const limit = Math.min(Math.max(1, options.limit ?? DEFAULT_PAGE), MAX_PAGE);
  // One more than asked tells whether another page follows.
  const entries = await store.list<SessionSummary>(prefix(scope), {
    reverse: true,
    limit: limit + 1,
    ...(options.before ? { after: options.before } : {}),
  });
  const page = entries.slice(0, limit);
  return {
    sessions: page.map((e) => e.value),
    next_before: entries.length > limit ? cursorOf(page[page.length - 1]) : null,
  };
}

const cursorOf = (entry: Entry): string => entry.key[entry.key.length - 1];
