/**
 * The listing contract every store passes (`listing.test.ts` runs it on
 * memory, Deno KV, Redis and Postgres): newest first with cursor paging,
 * rename and archive, deletion, per-owner and per-workspace scopes, and an
 * index that holds exactly one entry per session whatever the commits do
 * (moved, refused, raced). Each test uses owners of its own, so runs may
 * share one backend.
 *
 * @module
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { StoreFixture } from "../kv/_case.ts";
import type { Store } from "../kv/store.ts";
import { KeyedLock } from "./lock.ts";
import { Conversations } from "./conversations.ts";
import { createLogger } from "../log.ts";
import { newSessionRecord } from "./create.ts";
import { LISTING, listSessions } from "./listing.ts";
import type { SessionRecord } from "./records.ts";
import { SessionRepo } from "./repo.ts";
import type { Principal } from "../http/principal.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Kit {
  store: Store;
  repo: SessionRepo;
  conversations: Conversations;
  owner: string;
  me: Principal;
  /** Creates a session of `principal` (default: the kit's owner) with one commit, a millisecond apart. */
  make(id: string, principal?: Principal): Promise<SessionRecord>;
  /** Every index entry of the owner, in any lane or workspace (what a drift would show). */
  raw(owner?: string): Promise<{ lane: string; id: string }[]>;
}

async function withKit(fixture: StoreFixture, body: (kit: Kit) => Promise<void>): Promise<void> {
  const store = await fixture.open();
  const repo = new SessionRepo(store, "default");
  const locks = new KeyedLock();
  const conversations = new Conversations(
    repo,
    (id, fn) => locks.run(id, fn),
    createLogger(() => {}),
  );
  const owner = `owner-${crypto.randomUUID()}`;
  const me: Principal = { id: owner, roles: [] };
  const kit: Kit = {
    store,
    repo,
    conversations,
    owner,
    me,
    async make(id, principal = me) {
      await sleep(2); // distinct times, so the order is the order made
      const record = newSessionRecord(principal, id);
      assert.ok(await repo.commit(record, null));
      return record;
    },
    async raw(who = owner) {
      return (await store.list([LISTING, who])).map((e) => ({
        lane: `${e.key[2]}/${e.key[3]}`,
        id: (e.value as { session_id: string }).session_id,
      }));
    },
  };
  try {
    await body(kit);
  } finally {
    await store.close();
  }
}

const ids = (page: { sessions: { session_id: string }[] }) =>
  page.sessions.map((s) => s.session_id);
const uid = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;

/**
 * Registers the listing tests for one store.
 *
 * @example
 * ```ts
 * runListingContract("memory", { open: async () => memoryStore() });
 * ```
 */
export function runListingContract(name: string, fixture: StoreFixture): void {
  test(`${name}: a principal's sessions list newest first, a page at a time`, () =>
    withKit(fixture, async ({ store, owner, make }) => {
      const made = [];
      for (let i = 0; i < 7; i++) made.push((await make(uid(`s${i}`))).session_id);
      const newest = [...made].reverse();
      const scope = { owner, workspace: "default", archived: false };
      const first = await listSessions(store, scope, { limit: 3 });
      assert.deepEqual(ids(first), newest.slice(0, 3));
      assert.ok(first.next_before);
      const second = await listSessions(store, scope, { limit: 3, before: first.next_before! });
      assert.deepEqual(ids(second), newest.slice(3, 6));
      const third = await listSessions(store, scope, { limit: 3, before: second.next_before! });
      assert.deepEqual(ids(third), newest.slice(6));
      assert.equal(third.next_before, null, "the last page says so");
      const all = await listSessions(store, scope, { limit: 7 });
      assert.deepEqual(ids(all), newest);
      assert.equal(all.next_before, null, "a page that holds everything has no next page");
      const row = all.sessions[0];
      assert.deepEqual(Object.keys(row).sort(), [
        "archived",
        "message_count",
        "session_id",
        "title",
        "updated_at",
        "waiting_for",
      ]);
      assert.equal(row.archived, false);
      assert.equal(row.waiting_for, null);
    }));

  test(`${name}: a commit moves the session to the top, and the index keeps one entry for it`, () =>
    withKit(fixture, async ({ store, repo, owner, make, raw }) => {
      const a = await make(uid("a"));
      const b = await make(uid("b"));
      const entry = await repo.record(a.session_id);
      await sleep(2);
      const next: SessionRecord = {
        ...entry!.value,
        message_count: 2,
        pending_action: {
          tool_call_id: "c1",
          tool_name: "select_issue",
          assistant_message_id: "m1",
          arguments: {},
          queued: [],
          category: "host",
          waiting_for: "host",
          output_mode: "text",
        },
      };
      assert.ok(await repo.commit(next, entry!.version));
      const page = await listSessions(store, { owner, workspace: "default", archived: false });
      assert.deepEqual(ids(page), [a.session_id, b.session_id]);
      assert.equal(page.sessions[0].waiting_for, "host");
      assert.equal(page.sessions[0].message_count, 2);
      assert.deepEqual((await raw()).map((e) => e.id).sort(), [a.session_id, b.session_id].sort());
    }));

  test(`${name}: a refused commit leaves the index as it was; racing commits leave one entry`, () =>
    withKit(fixture, async ({ store, repo, owner, make, raw }) => {
      const a = await make(uid("a"));
      const entry = (await repo.record(a.session_id))!;
      const before = await store.list([LISTING, owner]);
      await sleep(2);
      // A stale version: the commit is refused, record and index untouched.
      assert.ok(await repo.commit({ ...entry.value }, entry.version));
      const stale = { ...entry.value, message_count: 9 };
      assert.equal(await repo.commit(stale, entry.version), null);
      assert.equal((await raw()).length, 1);
      assert.notDeepEqual((await store.list([LISTING, owner]))[0].key, before[0].key);
      // Five writers race from one version: one wins, the index holds its entry only.
      const current = (await repo.record(a.session_id))!;
      const results = await Promise.all(
        Array.from(
          { length: 5 },
          (_, i) => repo.commit({ ...current.value, message_count: 10 + i }, current.version),
        ),
      );
      assert.equal(results.filter(Boolean).length, 1);
      const rows = await listSessions(store, { owner, workspace: "default", archived: false });
      const stored = (await repo.record(a.session_id))!.value;
      assert.deepEqual(rows.sessions.map((s) => s.message_count), [stored.message_count]);
      assert.equal((await raw()).length, 1);
    }));

  test(`${name}: rename keeps the place; archive moves it out of the listing and back`, () =>
    withKit(fixture, async ({ store, conversations, me, owner, make, raw }) => {
      const a = await make(uid("a"));
      const b = await make(uid("b"));
      const c = await make(uid("c"));
      const scope = { owner, workspace: "default", archived: false };
      const renamed = await conversations.patch(me, a.session_id, { title: "  Login\nbugs " });
      assert.equal(renamed.title, "Login bugs");
      let page = await listSessions(store, scope);
      assert.deepEqual(
        ids(page),
        [c.session_id, b.session_id, a.session_id],
        "a rename reorders nothing",
      );
      assert.equal(page.sessions[2].title, "Login bugs");

      const archived = await conversations.patch(me, b.session_id, { archived: true });
      assert.equal(archived.archived, true);
      page = await listSessions(store, scope);
      assert.deepEqual(ids(page), [c.session_id, a.session_id]);
      const shelf = await listSessions(store, { ...scope, archived: true });
      assert.deepEqual(ids(shelf), [b.session_id]);
      assert.equal(shelf.sessions[0].archived, true);
      assert.equal((await raw()).length, 3, "one entry per session");

      await conversations.patch(me, b.session_id, { archived: false, title: "Back" });
      page = await listSessions(store, scope);
      assert.deepEqual(ids(page), [c.session_id, b.session_id, a.session_id], "back in its place");
      assert.equal(page.sessions[1].title, "Back");
      assert.deepEqual((await listSessions(store, { ...scope, archived: true })).sessions, []);
      assert.deepEqual((await raw()).map((e) => e.lane), Array(3).fill("default/active"));
    }));

  test(`${name}: the stored record holds no listing key; read, it names where it is listed, and a record that stored its key moves from that key`, () =>
    withKit(fixture, async ({ store, repo, conversations, me, owner, make, raw }) => {
      const a = await make(uid("a"));
      const stored = await store.get<SessionRecord>(["session", a.session_id]);
      assert.equal(stored!.value.listing?.key, undefined, "no key in the stored record");
      const listed = (await store.list([LISTING, owner])).map((e) => e.key);
      const read = await repo.record(a.session_id);
      assert.deepEqual([read!.value.listing?.key], listed, "read, the record names its entry");
      // A record from before, holding its key, listed where its fields would not place it now:
      // archiving it moves the entry at the key it holds.
      const before = [
        LISTING,
        owner,
        "default",
        "active",
        `2025-01-01T00:00:00.000Z|${a.session_id}`,
      ];
      const summary = (await store.get(listed[0]))!.value;
      await store.commit([], [{ key: listed[0] }, { key: before, value: summary }]);
      const old = { ...stored!.value, listing: { ...stored!.value.listing, key: before } };
      await store.set(["session", a.session_id], old);
      await conversations.patch(me, a.session_id, { archived: true });
      assert.deepEqual((await raw()).map((e) => e.lane), ["default/archived"], "one entry, moved");
      const now = await store.get<SessionRecord>(["session", a.session_id]);
      assert.equal(now!.value.listing?.key, undefined, "its next commit leaves the key out");
      assert.deepEqual(
        [(await repo.record(a.session_id))!.value.listing?.key],
        (await store.list([LISTING, owner])).map((e) => e.key),
      );
    }));

  test(`${name}: deleting a session takes it out of the listing`, () =>
    withKit(fixture, async ({ store, repo, owner, make, raw }) => {
      const a = await make(uid("a"));
      const b = await make(uid("b"));
      await repo.store.set(["message", a.session_id, "00000000"], { role: "user" });
      await repo.delete(a.session_id);
      const page = await listSessions(store, { owner, workspace: "default", archived: false });
      assert.deepEqual(ids(page), [b.session_id]);
      assert.deepEqual((await raw()).map((e) => e.id), [b.session_id]);
      assert.equal(await repo.record(a.session_id), null);
      assert.deepEqual(await store.list(["message", a.session_id]), []);
    }));

  test(`${name}: each owner and each workspace has a listing of its own`, () =>
    withKit(fixture, async ({ store, owner, make, me }) => {
      const other: Principal = { id: `other-${crypto.randomUUID()}`, roles: [] };
      const mine = await make(uid("mine"));
      const theirs = await make(uid("theirs"), other);
      const elsewhere = await make(uid("ws"), { ...me, workspace: "team-b" });
      const scope = { owner, workspace: "default", archived: false };
      assert.deepEqual(ids(await listSessions(store, scope)), [mine.session_id]);
      assert.deepEqual(
        ids(await listSessions(store, { ...scope, workspace: "team-b" })),
        [elsewhere.session_id],
      );
      assert.deepEqual(
        ids(await listSessions(store, { ...scope, owner: other.id })),
        [theirs.session_id],
      );
    }));
}
