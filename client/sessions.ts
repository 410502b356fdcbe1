/**
 * A person's conversations, as `host.sessions` offers them: listed newest
 * first a page at a time, renamed, archived, and switched to (the host then
 * follows that conversation, loads its messages and its pending call; the
 * journal keeps every host call exactly once across the switch).
 *
 * @module
 */
import type { SessionList, SessionSummary } from "./_protocol.ts";

/**
 * Which page of conversations to list.
 *
 * @example
 * ```ts
 * const page = await host.sessions.list({ limit: 20, before: previous.next_before ?? undefined });
 * ```
 */
export interface ListOptions {
  /** 1 to 100 (default 20). */
  limit?: number;
  /** The `next_before` of the page before. */
  before?: string;
  /** List the archived conversations instead. */
  archived?: boolean;
}

/**
 * `host.sessions`.
 *
 * @example
 * ```ts
 * const { sessions } = await host.sessions.list();
 * await host.sessions.rename(sessions[0].session_id, "Login bugs");
 * await host.sessions.switch(sessions[1].session_id);
 * ```
 */
export interface Sessions {
  /** A page of the principal's conversations, newest first (`GET /api/sessions`). */
  list(options?: ListOptions): Promise<SessionList>;
  /** Gives a conversation a title of the person's (1 to 120 characters). */
  rename(sessionId: string, title: string): Promise<SessionSummary>;
  /** Archives a conversation (`false`: brings it back). */
  archive(sessionId: string, archived?: boolean): Promise<SessionSummary>;
  /**
   * Makes another conversation the host's (a fresh one without an id): the
   * host follows it and loads its messages and its pending call. Resolves once
   * the stored conversation is in `host.state`.
   */
  switch(sessionId?: string): Promise<void>;
}

/** The path and query of a listing. */
export const listQuery = ({ limit, before, archived }: ListOptions = {}): string => {
  const q = new URLSearchParams();
  if (limit) q.set("limit", String(limit));
  if (before) q.set("before", before);
  if (archived) q.set("archived", "true");
  return `api/sessions?${q}`;
};
