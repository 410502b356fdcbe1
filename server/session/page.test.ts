import assert from "node:assert/strict";
import { test } from "node:test";
import { memoryStore } from "../kv/memory.ts";
import type { Mutation, Store } from "../kv/store.ts";
import { harness, ISSUE_CONTEXT } from "../testing/harness.ts";
import { scriptedModel } from "../testing/scripted_model.ts";
import { wrapStore } from "../testing/wrap_store.ts";
import { newSessionRecord } from "./create.ts";
import { INLINE_PAGE_CHARS, pageKey, RECORD_ROW_CHARS } from "./_page.ts";
import type { SessionRecord } from "./records.ts";
import type { HostContext } from "../../protocol/mod.ts";
import { sessionKey, SessionRepo } from "./repo.ts";

/** A memory store that keeps every mutation committed through it, in order. */
function counted(): { store: Store; writes: Mutation[] } {
  const inner = memoryStore();
  const writes: Mutation[] = [];
  const store = wrapStore(inner, {
    name: inner.name,
    capabilities: inner.capabilities,
    commit: async (checks, mutations) => {
      const versions = await inner.commit(checks, mutations);
      if (versions) writes.push(...mutations);
      return versions;
    },
    set: async (key, value, options) => {
      await inner.set(key, value, options);
      writes.push({ key, value });
    },
  });
  return { store, writes };
}

const pageWrites = (writes: Mutation[], id: string) =>
  writes.filter((m) => m.key[0] === pageKey(id)[0] && m.key[1] === id);

const SCREENSHOT = `data:image/png;base64,${"A".repeat(50_000)}`;

/** A data-rich page: the issue list with a hundred issues. */
const RICH = {
  ...ISSUE_CONTEXT,
  version: 1,
  view: {
    ...ISSUE_CONTEXT.view,
    data: {
      issues: Array.from({ length: 100 }, (_, i) => ({ number: i + 1, title: `Issue ${i + 1}` })),
    },
  },
} as HostContext;
/** A page of a few fields, which stays in the record. */
const SMALL: HostContext = { version: 1, view: { name: "settings", description: "The settings." } };

test("the pages these tests use are on either side of the limit", () => {
  assert.ok(JSON.stringify(SMALL).length <= INLINE_PAGE_CHARS);
  assert.ok(JSON.stringify(ISSUE_CONTEXT).length > INLINE_PAGE_CHARS);
  assert.ok(JSON.stringify(RICH).length > INLINE_PAGE_CHARS);
});

test("on the contract's example page, a turn's record stays under Deno KV's overflow line", async () => {
  const { store, writes } = counted();
  const h = harness({
    store,
    // A call id as long as a hosted provider's.
    model: scriptedModel([{
      calls: [{ name: "select_issue", args: { number: 42 }, id: "call_Xq3b9TzL0cV8mN2pR7sK1wYd" }],
    }]),
  });
  const id = "s-0190d2c4-5b6e-7f00-8a1b-2c3d4e5f6a7b";
  const turn = await h.chat({
    session_id: id,
    // Long enough for a title of the most characters a title keeps.
    content: "please select issue 42 in the list so that I can read what the login bug is about",
    host_context: ISSUE_CONTEXT,
  });
  assert.ok(turn.body.pending_tool_call, "the record holds the pending call");
  const records = writes.filter((m) => m.key[0] === "session" && m.key[1] === id);
  assert.equal(records.length, 2);
  for (const record of records) {
    const row = JSON.stringify(record.key).length + JSON.stringify(record.value).length;
    assert.ok(row < RECORD_ROW_CHARS, `a record row of ${row} characters`);
  }
  const pages = pageWrites(writes, id);
  assert.equal(pages.length, 1, "the page is written once, beside");
  assert.equal(pages[0].fresh, true, "a new session's page replaces nothing: no store looks first");
  await h.close();
});

test("a turn writes a large page once, beside the record; a later commit of the same page writes none", async () => {
  const { store, writes } = counted();
  const h = harness({
    store,
    model: scriptedModel([{ calls: [{ name: "select_issue", args: { number: 42 } }] }]),
  });
  const first = await h.chat({ session_id: "p", content: "go", host_context: RICH });
  assert.equal(first.status, 200);
  assert.ok(first.body.pending_tool_call, "the turn ends pending a host call");
  // The record was written twice (the message taken, the turn ended); the page once.
  assert.equal(writes.filter((m) => m.key[0] === "session" && m.key[1] === "p").length, 2);
  assert.equal(pageWrites(writes, "p").length, 1);
  const stored = await store.get<SessionRecord>(sessionKey("p"));
  assert.equal(stored!.value.host_context, null, "the record holds no page of its own");
  assert.equal(typeof stored!.value.page, "string");
  assert.deepEqual((await store.get(pageKey("p")))!.value, RICH);
  // Read back through the repo (another process's, here), the record has its page.
  const read = await new SessionRepo(store).record("p");
  assert.deepEqual(read!.value.host_context, RICH);
  await h.close();
});

test("a changed page is written again, and a message without one keeps the stored page", async () => {
  const { store, writes } = counted();
  const model = scriptedModel([{ text: "one" }, { text: "two" }, { text: "three" }]);
  const h = harness({ store, model });
  await h.chat({ session_id: "q", content: "one", host_context: RICH });
  const moved = {
    ...RICH,
    view: { ...RICH.view!, name: "settings", description: "The settings." },
  };
  await h.chat({ session_id: "q", content: "two", host_context: moved });
  assert.deepEqual(
    pageWrites(writes, "q").map((m) => m.fresh),
    [true, undefined],
    "a changed page replaces one",
  );
  assert.deepEqual((await store.get(pageKey("q")))!.value, moved);
  // No host_context in the body: the turn takes the page stored beside the record (without one,
  // the message would carry no page block at all).
  await h.chat({ session_id: "q", content: "three" });
  assert.equal(pageWrites(writes, "q").length, 2, "the same page is not written again");
  const last = JSON.stringify(model.prompts[2].prompt.at(-1));
  assert.match(last, /host_context_unchanged/);
  await h.close();
});

test("a page of a few fields stays in the record, and no page's attachments are kept: a screenshot reaches no stored value", async () => {
  const { store, writes } = counted();
  const h = harness({ store });
  const shot = [{ kind: "image", purpose: "screenshot", data_uri: SCREENSHOT }];
  const small = await h.chat({
    session_id: "shot",
    content: "hello",
    host_context: { ...SMALL, attachments: shot },
  });
  const large = await h.chat({
    session_id: "shot-rich",
    content: "hello",
    host_context: { ...RICH, attachments: shot },
  });
  assert.deepEqual([small.status, large.status], [200, 200]);
  assert.ok(writes.length > 6, "the sessions were stored");
  for (const entry of writes) {
    assert.ok(
      !String(JSON.stringify(entry.value)).includes("AAAAAAAAAA"),
      `${JSON.stringify(entry.key)} holds the screenshot`,
    );
  }
  assert.equal(pageWrites(writes, "shot").length, 0, "a small page is not written beside");
  const record = await store.get<SessionRecord>(sessionKey("shot"));
  assert.deepEqual(record!.value.host_context, SMALL);
  assert.equal(record!.value.page, undefined);
  assert.deepEqual((await store.get(pageKey("shot-rich")))!.value, RICH);
  await h.close();
});

test("a record written with a large page inside is read as it is, and its next commit moves the page", async () => {
  const { store, writes } = counted();
  const old: SessionRecord = {
    ...newSessionRecord({ id: "ann", roles: [] }, "old"),
    host_context: RICH,
  };
  await store.set(sessionKey("old"), old);
  const repo = new SessionRepo(store);
  const entry = await repo.record("old");
  assert.deepEqual(entry!.value.host_context, RICH);
  assert.ok(await repo.commit({ ...entry!.value, turn_number: 1 }, entry!.version));
  assert.equal(pageWrites(writes, "old").length, 1);
  assert.equal((await store.get<SessionRecord>(sessionKey("old")))!.value.host_context, null);
  assert.deepEqual((await repo.record("old"))!.value.host_context, RICH);
});

test("another process's page is read, its commit at a version this one never saw writes the page", async () => {
  const { store, writes } = counted();
  const a = new SessionRepo(store);
  const b = new SessionRepo(store);
  const record = { ...newSessionRecord({ id: "ann", roles: [] }, "two"), host_context: RICH };
  const v1 = await a.commit(record, null);
  assert.ok(v1);
  const moved = { ...RICH, view: { ...RICH.view!, name: "board" } };
  const seen = await b.record("two");
  assert.ok(await b.commit({ ...seen!.value, host_context: moved }, seen!.version));
  assert.deepEqual((await a.record("two"))!.value.host_context, moved);
  // `a` commits its own record over a version it did not read through this object's page.
  const now = await store.get<SessionRecord>(sessionKey("two"));
  assert.ok(await a.commit({ ...record, turn_number: 5 }, now!.version));
  assert.equal(pageWrites(writes, "two").length, 3, "a page read nowhere here is written");
  assert.deepEqual((await b.record("two"))!.value.host_context, RICH);
});

test("a page set to none or made small leaves nothing beside; deleting the session deletes its page; made again, it has its page", async () => {
  const { store } = counted();
  const repo = new SessionRepo(store);
  const record = { ...newSessionRecord({ id: "ann", roles: [] }, "gone"), host_context: RICH };
  const v1 = await repo.commit(record, null);
  assert.ok(await repo.commit({ ...record, host_context: null }, v1));
  assert.equal(await store.get(pageKey("gone")), null);
  assert.equal((await repo.record("gone"))!.value.host_context, null);
  let entry = await repo.record("gone");
  assert.ok(await repo.commit({ ...entry!.value, host_context: RICH }, entry!.version));
  entry = await repo.record("gone");
  assert.ok(await repo.commit({ ...entry!.value, host_context: SMALL }, entry!.version));
  assert.equal(await store.get(pageKey("gone")), null, "a page made small goes back inside");
  assert.deepEqual((await repo.record("gone"))!.value.host_context, SMALL);
  entry = await repo.record("gone");
  assert.ok(await repo.commit({ ...entry!.value, host_context: RICH }, entry!.version));
  await repo.delete("gone");
  assert.equal(await store.get(pageKey("gone")), null);
  assert.equal(await repo.record("gone"), null);
  // Made again with the same page: whatever versions the store reuses, the page is there.
  const again = { ...newSessionRecord({ id: "ann", roles: [] }, "gone"), host_context: RICH };
  assert.ok(await repo.commit(again, null));
  assert.deepEqual((await repo.record("gone"))!.value.host_context, RICH);
});

test("a record is one read, of its key and its page's, whether its page is inside, beside or none", async () => {
  const inner = memoryStore();
  const reads: string[] = [];
  const store = wrapStore(inner, {
    name: inner.name,
    capabilities: inner.capabilities,
    get: (key) => (reads.push(`get ${key[0]}`), inner.get(key)),
    getMany: (
      keys,
    ) => (reads.push(`getMany ${keys.map((k) => k[0]).join(",")}`), inner.getMany(keys)),
  });
  const repo = new SessionRepo(store);
  const one = ["getMany session,session_page"];
  assert.equal(await repo.record("new"), null);
  assert.deepEqual(reads, one, "a new session");
  const small = { ...newSessionRecord({ id: "ann", roles: [] }, "small"), host_context: SMALL };
  assert.ok(await repo.commit(small, null));
  reads.length = 0;
  assert.deepEqual((await repo.record("small"))!.value.host_context, SMALL);
  assert.deepEqual(reads, one, "a page inside");
  const rich = { ...newSessionRecord({ id: "ann", roles: [] }, "rich"), host_context: RICH };
  assert.ok(await repo.commit(rich, null));
  reads.length = 0;
  assert.deepEqual((await repo.record("rich"))!.value.host_context, RICH);
  assert.deepEqual(reads, one, "a page beside");
});
