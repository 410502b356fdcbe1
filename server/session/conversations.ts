/**
 * A principal's conversations: listed, renamed, archived, titled by the model
 * in the background, and (once, at start) the listing entries of sessions
 * written before listings existed. Every record write here goes through the
 * session's lock, like a turn's, so it never makes a turn's commit fail.
 *
 * @module
 */
import {
  MAX_TITLE_CHARS,
  type SessionList,
  type SessionPatch,
  type SessionSummary,
} from "../../protocol/mod.ts";
import { forbidden, notFound, TetherError, validationError } from "../http/errors.ts";
import { mayAccess, type Principal } from "../http/principal.ts";
import type { Logger } from "../log.ts";
import { DEFAULT_PAGE, isCursor, listedKey, listSessions, MAX_PAGE, summaryOf } from "./listing.ts";
import type { SessionRecord, StoredMessage } from "./records.ts";
import type { SessionRepo } from "./repo.ts";
import { oneLine, plainTitle } from "./title.ts";

/** The query of `GET /api/sessions`, as the URL gives it. */
export interface ListQuery {
  limit?: string;
  before?: string;
  archived?: string;
  owner?: string;
  workspace?: string;
}

/** Marks a store whose sessions all have listing entries. */
const BACKFILLED = ["session_list_meta", "backfilled"];
const BACKFILL_PAGE = 100;

const bad = (path: string, message: string) => validationError(message, [{ path, message }]);

/**
 * The conversations of one engine.
 *
 * @example
 * ```ts
 * const page = await engine.conversations.list(principal, { limit: "20" });
 * ```
 */
export class Conversations {
  #repo: SessionRepo;
  #withSession: <T>(id: string, fn: () => Promise<T>) => Promise<T>;
  #logger: Logger;

  constructor(
    repo: SessionRepo,
    withSession: <T>(id: string, fn: () => Promise<T>) => Promise<T>,
    logger: Logger,
  ) {
    this.#repo = repo;
    this.#withSession = withSession;
    this.#logger = logger;
  }

  /**
   * A page of the principal's conversations in its workspace, newest first.
   * `owner` and a `workspace` other than the principal's are for the `admin` role.
   */
  async list(principal: Principal, query: ListQuery): Promise<SessionList> {
    const admin = principal.roles.includes("admin");
    const limit = query.limit === undefined ? DEFAULT_PAGE : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
      throw bad(
        "limit",
        `limit must be a whole number from 1 to ${MAX_PAGE}; got "${query.limit}".`,
      );
    }
    if (query.before !== undefined && !isCursor(query.before)) {
      throw bad(
        "before",
        "before must be the next_before of an earlier page; leave it out for the first page.",
      );
    }
    if (query.archived !== undefined && query.archived !== "true" && query.archived !== "false") {
      throw bad("archived", `archived must be true or false; got "${query.archived}".`);
    }
    for (const field of ["owner", "workspace"] as const) {
      if (query[field] === "") {
        throw bad(field, `${field} must not be empty; leave it out instead.`);
      }
    }
    const own = principal.workspace ?? this.#repo.workspace;
    if (query.owner !== undefined && query.owner !== principal.id && !admin) {
      throw new TetherError(
        403,
        "forbidden",
        "owner: only the admin role may list another principal's sessions.",
      );
    }
    if (query.workspace !== undefined && query.workspace !== own && !admin) {
      throw new TetherError(
        403,
        "forbidden",
        "workspace: only the admin role may list the sessions of another workspace.",
      );
    }
    return await listSessions(this.#repo.store, {
      owner: query.owner ?? principal.id,
      workspace: query.workspace ?? own,
      archived: query.archived === "true",
    }, { limit, before: query.before });
  }

  /** Renames or archives a session of the principal's (or any, for the `admin` role). */
  patch(principal: Principal, sessionId: string, body: unknown): Promise<SessionSummary> {
    const patch = parsePatch(body);
    return this.#withSession(sessionId, async () => {
      const entry = await this.#repo.record(sessionId);
      if (!entry) throw notFound(sessionId);
      if (!mayAccess(principal, entry.value.owner_id)) throw forbidden(sessionId);
      const listing = { ...entry.value.listing };
      if (patch.title !== undefined) {
        Object.assign(listing, { title: patch.title, title_source: "user" });
      }
      if (patch.archived !== undefined) listing.archived = patch.archived;
      const record: SessionRecord = { ...entry.value, listing };
      if (!(await this.#repo.commit(record, entry.version, [], { touch: false }))) {
        throw new TetherError(
          409,
          "conflict",
          `Session ${sessionId} changed meanwhile; try again.`,
        );
      }
      return summaryOf(record);
    });
  }

  /** Puts a model's title on a session that still has its automatic one. */
  retitle(sessionId: string, title: string): Promise<void> {
    return this.#withSession(sessionId, async () => {
      const entry = await this.#repo.record(sessionId);
      const listing = entry?.value.listing;
      if (!entry || listing?.title_source !== "auto" || listing.title === title) return;
      const record = { ...entry.value, listing: { ...listing, title } };
      await this.#repo.commit(record, entry.version, [], { touch: false });
    });
  }

  /**
   * Lists the sessions written before listings existed, once per store: a page of records at
   * a time, each under its lock, placed by its last message. Later starts read one key.
   */
  async backfill(signal: AbortSignal): Promise<void> {
    const store = this.#repo.store;
    if (await store.get(BACKFILLED)) return;
    let after: string | undefined;
    let listed = 0;
    while (!signal.aborted) {
      const page = await store.list<SessionRecord>(["session"], { limit: BACKFILL_PAGE, after });
      for (const { value } of page) {
        if (signal.aborted) return;
        if (!listedKey(value)) listed += await this.#listOld(value.session_id);
      }
      if (page.length < BACKFILL_PAGE) break;
      after = page[page.length - 1].key[1];
    }
    if (signal.aborted) return;
    await store.set(BACKFILLED, { at: new Date().toISOString(), listed });
    if (listed) this.#logger.info("listed the sessions written before listings", { listed });
  }

  #listOld(sessionId: string): Promise<number> {
    return this.#withSession(sessionId, async () => {
      const entry = await this.#repo.record(sessionId);
      if (!entry || entry.value.listing?.key) return 0;
      const [last] = await this.#repo.store.list<StoredMessage>(["message", sessionId], {
        reverse: true,
        limit: 1,
      });
      const first = entry.value.message_count > 0
        ? (await this.#repo.store.list<StoredMessage>(["message", sessionId], { limit: 1 }))[0]
        : undefined;
      const title = first?.value.role === "user" ? plainTitle(first.value.content) : "";
      const record: SessionRecord = {
        ...entry.value,
        listing: {
          ...entry.value.listing,
          updated_at: last?.value.created_at ?? entry.value.created_at,
          ...(title ? { title, title_source: "auto" as const } : {}),
        },
      };
      return (await this.#repo.commit(record, entry.version, [], { touch: false })) ? 1 : 0;
    });
  }
}

/** Reads a PATCH body: `title`, `archived`, or both, and nothing else. */
function parsePatch(body: unknown): SessionPatch {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw bad("", "The body must be a JSON object with title or archived.");
  }
  const input = body as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (key !== "title" && key !== "archived") {
      throw bad(key, `${key} is not a field of a session change; send title or archived.`);
    }
  }
  const patch: SessionPatch = {};
  if ("title" in input) {
    if (typeof input.title !== "string") throw bad("title", "title must be a string.");
    const title = oneLine(input.title);
    if (!title) throw bad("title", "title must not be empty; give the conversation a name.");
    if (title.length > MAX_TITLE_CHARS) {
      throw bad("title", `title holds more than ${MAX_TITLE_CHARS} characters; shorten it.`);
    }
    patch.title = title;
  }
  if ("archived" in input) {
    if (typeof input.archived !== "boolean") {
      throw bad("archived", "archived must be true or false.");
    }
    patch.archived = input.archived;
  }
  if (patch.title === undefined && patch.archived === undefined) {
    throw bad("", "The body changes nothing; send title or archived.");
  }
  return patch;
}
