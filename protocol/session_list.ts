/**
 * A principal's conversations as `GET /api/sessions` lists them, and the
 * body of `PATCH /api/sessions/{id}` (rename, archive).
 *
 * @module
 */
import type { WaitingFor } from "./pending_kinds.ts";

/**
 * One conversation in the listing.
 *
 * @example
 * ```ts
 * const row: SessionSummary = {
 *   session_id: "s-1", title: "Issues assigned to alice", updated_at: "2026-01-01T12:00:00.000Z",
 *   waiting_for: null, message_count: 4, archived: false,
 * };
 * ```
 */
export interface SessionSummary {
  /** The session id. */
  session_id: string;
  /** Made from the first message, or the one a person gave it; null before the first message. */
  title: string | null;
  /** When the conversation last changed (ISO 8601); the listing is newest first by it. */
  updated_at: string;
  /** What its pending call waits for, or null when nothing is pending. */
  waiting_for: WaitingFor | null;
  /** How many messages it holds. */
  message_count: number;
  /** Archived conversations are listed only with `archived=true`. */
  archived: boolean;
}

/**
 * The body of `GET /api/sessions`: a page, newest first, and the cursor of the next one.
 *
 * @example
 * ```ts
 * const page: SessionList = await (await fetch("/api/sessions?limit=20")).json();
 * const more = page.next_before && await fetch(`/api/sessions?before=${encodeURIComponent(page.next_before)}`);
 * ```
 */
export interface SessionList {
  sessions: SessionSummary[];
  /** Pass as `before` for the next page; null on the last page. */
  next_before: string | null;
}

/**
 * The body of `PATCH /api/sessions/{id}`: a new title, archived or not, or both.
 *
 * @example
 * ```ts
 * const rename: SessionPatch = { title: "Login bugs" };
 * const archive: SessionPatch = { archived: true };
 * ```
 */
export interface SessionPatch {
  /** 1 to 120 characters, one line. */
  title?: string;
  archived?: boolean;
}

/** The longest title a person may give a conversation. */
export const MAX_TITLE_CHARS = 120;
