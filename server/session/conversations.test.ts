// deno-lint-ignore-file no-explicit-any -- JSON read back from the runtime
/**
 * `GET /api/sessions` and `PATCH /api/sessions/{id}` through the real app:
 * titles from the first message (plain with the offline model, by the model
 * otherwise, never from the host context), paging over HTTP, access (another
 * principal, the admin role, a workspace header), and errors naming the field.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { memoryStore } from "../kv/memory.ts";
import { harness, ISSUE_CONTEXT } from "../testing/harness.ts";
import { generated, scriptedModel } from "../testing/scripted_model.ts";

const gateway = () => harness({ access: { mode: "header" } as never });
const as = (id: string, extra: Record<string, string> = {}) => ({
  "x-tether-principal": id,
  ...extra,
});

test("a first message titles the conversation with its words, never with the host context", async () => {
  const h = harness();
  try {
    const context = { ...ISSUE_CONTEXT, view: { ...ISSUE_CONTEXT.view, name: "secret-view" } };
    await h.chat({
      session_id: "t1",
      content: "  show me\nthe open   bugs",
      host_context: context,
    });
    await h.chat({ session_id: "t1", content: "and the closed ones" });
    await h.chat({ session_id: "t2", content: "", host_context: context });
    const { status, body } = await h.call("GET", "/api/sessions");
    assert.equal(status, 200);
    assert.deepEqual(body.sessions.map((s: any) => [s.session_id, s.title]), [
      ["t2", null],
      ["t1", "Show me the open bugs"],
    ]);
    assert.equal(body.sessions[1].message_count, 4);
    assert.equal(body.sessions[1].waiting_for, null);
    assert.equal(body.next_before, null);
    assert.ok(!JSON.stringify(body).includes("secret-view"));
  } finally {
    await h.close();
  }
});

test("sessions of silent decisions are no conversations: they are not listed", async () => {
  const h = harness();
  try {
    await h.chat({ session_id: "talk", content: "hello" });
    const decided = await h.chat({
      session_id: "decision-1",
      content: "select issue 42",
      output_mode: "host_tools",
      host_context: ISSUE_CONTEXT,
    });
    assert.equal(decided.status, 200);
    const { body } = await h.call("GET", "/api/sessions");
    assert.deepEqual(body.sessions.map((s: any) => s.session_id), ["talk"]);
  } finally {
    await h.close();
  }
});

test("pages follow next_before over HTTP; a pending call shows what it waits for", async () => {
  const h = harness();
  try {
    for (let i = 0; i < 5; i++) {
      await h.chat({ session_id: `p${i}`, content: `message ${i}` });
      await new Promise((r) => setTimeout(r, 2));
    }
    await h.chat({ session_id: "p2", content: "select issue 42", host_context: ISSUE_CONTEXT });
    const first = await h.call("GET", "/api/sessions?limit=2");
    assert.deepEqual(first.body.sessions.map((s: any) => s.session_id), ["p2", "p4"]);
    assert.equal(first.body.sessions[0].waiting_for, "host");
    const next = encodeURIComponent(first.body.next_before);
    const second = await h.call("GET", `/api/sessions?limit=2&before=${next}`);
    assert.deepEqual(second.body.sessions.map((s: any) => s.session_id), ["p3", "p1"]);
    const last = await h.call(
      "GET",
      `/api/sessions?limit=2&before=${encodeURIComponent(second.body.next_before)}`,
    );
    assert.deepEqual(last.body.sessions.map((s: any) => s.session_id), ["p0"]);
    assert.equal(last.body.next_before, null);
    await h.call("DELETE", "/api/sessions/p4");
    const after = await h.call("GET", "/api/sessions");
    assert.deepEqual(after.body.sessions.map((s: any) => s.session_id), ["p2", "p3", "p1", "p0"]);
  } finally {
    await h.close();
  }
});

test("rename and archive through PATCH; archived ones listed only when asked", async () => {
  const h = harness();
  try {
    await h.chat({ session_id: "r1", content: "first" });
    await h.chat({ session_id: "r2", content: "second" });
    const renamed = await h.call("PATCH", "/api/sessions/r1", { title: "Login bugs" });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.title, "Login bugs");
    const archived = await h.call("PATCH", "/api/sessions/r2", { archived: true });
    assert.equal(archived.body.archived, true);
    const active = await h.call("GET", "/api/sessions");
    assert.deepEqual(active.body.sessions.map((s: any) => [s.session_id, s.title]), [
      ["r1", "Login bugs"],
    ]);
    const shelf = await h.call("GET", "/api/sessions?archived=true");
    assert.deepEqual(shelf.body.sessions.map((s: any) => s.session_id), ["r2"]);
    // A later message keeps the person's title.
    await h.chat({ session_id: "r1", content: "more" });
    const kept = await h.call("GET", "/api/sessions");
    assert.equal(kept.body.sessions[0].title, "Login bugs");
  } finally {
    await h.close();
  }
});

test("bad queries and bodies are refused with the field named", async () => {
  const h = harness();
  try {
    await h.chat({ session_id: "v1", content: "hello" });
    for (
      const [query, field] of [
        ["limit=0", "limit"],
        ["limit=101", "limit"],
        ["limit=ten", "limit"],
        ["before=yesterday", "before"],
        ["archived=maybe", "archived"],
        ["owner=", "owner"],
      ]
    ) {
      const { status, body } = await h.call("GET", `/api/sessions?${query}`);
      assert.equal(status, 422, query);
      assert.equal(body.error.issues[0].path, field, query);
      assert.match(body.error.message, new RegExp(field));
    }
    for (
      const [patch, field] of [
        [{ title: 5 }, "title"],
        [{ title: " \n " }, "title"],
        [{ title: "x".repeat(121) }, "title"],
        [{ archived: "yes" }, "archived"],
        [{ colour: "red" }, "colour"],
        [{}, ""],
        [[], ""],
      ] as const
    ) {
      const { status, body } = await h.call("PATCH", "/api/sessions/v1", patch);
      assert.equal(status, 422, JSON.stringify(patch));
      assert.equal(body.error.issues[0].path, field, JSON.stringify(patch));
    }
    const missing = await h.call("PATCH", "/api/sessions/nope", { title: "x" });
    assert.equal(missing.status, 404);
    const badId = await h.call("PATCH", "/api/sessions/a%20b", { title: "x" });
    assert.equal(badId.status, 422);
  } finally {
    await h.close();
  }
});

test("a principal lists only its own; the admin role lists anyone's; others are refused", async () => {
  const h = gateway();
  try {
    await h.chat({ session_id: "ann-1", content: "ann's question" }, as("ann"));
    await h.chat({ session_id: "bob-1", content: "bob's question" }, as("bob"));
    const ann = await h.call("GET", "/api/sessions", undefined, as("ann"));
    assert.deepEqual(ann.body.sessions.map((s: any) => s.session_id), ["ann-1"]);
    const bob = await h.call("GET", "/api/sessions", undefined, as("bob"));
    assert.deepEqual(bob.body.sessions.map((s: any) => s.session_id), ["bob-1"]);

    const peek = await h.call("GET", "/api/sessions?owner=ann", undefined, as("bob"));
    assert.equal(peek.status, 403);
    assert.match(peek.body.error.message, /owner/);
    const own = await h.call("GET", "/api/sessions?owner=bob", undefined, as("bob"));
    assert.equal(own.status, 200);

    const admin = as("root", { "x-tether-roles": "admin" });
    const listed = await h.call("GET", "/api/sessions?owner=ann", undefined, admin);
    assert.deepEqual(listed.body.sessions.map((s: any) => s.session_id), ["ann-1"]);
    const mine = await h.call("GET", "/api/sessions", undefined, admin);
    assert.deepEqual(mine.body.sessions, [], "without owner, the admin's own");

    const rename = await h.call("PATCH", "/api/sessions/ann-1", { title: "mine now" }, as("bob"));
    assert.equal(rename.status, 403);
    const archive = await h.call("PATCH", "/api/sessions/ann-1", { archived: true }, as("bob"));
    assert.equal(archive.status, 403);
    const byAdmin = await h.call("PATCH", "/api/sessions/ann-1", { title: "Checked" }, admin);
    assert.equal(byAdmin.status, 200);
    const after = await h.call("GET", "/api/sessions", undefined, as("ann"));
    assert.deepEqual(after.body.sessions.map((s: any) => [s.title, s.archived]), [[
      "Checked",
      false,
    ]]);
  } finally {
    await h.close();
  }
});

test("the workspace header scopes the listing", async () => {
  const h = gateway();
  try {
    const inW = (ws: string) => as("ann", { "x-tether-workspace": ws });
    await h.chat({ session_id: "w1-s", content: "in one" }, inW("one"));
    await h.chat({ session_id: "w2-s", content: "in two" }, inW("two"));
    await h.chat({ session_id: "w0-s", content: "in the default" }, as("ann"));
    const one = await h.call("GET", "/api/sessions", undefined, inW("one"));
    assert.deepEqual(one.body.sessions.map((s: any) => s.session_id), ["w1-s"]);
    const two = await h.call("GET", "/api/sessions", undefined, inW("two"));
    assert.deepEqual(two.body.sessions.map((s: any) => s.session_id), ["w2-s"]);
    const none = await h.call("GET", "/api/sessions", undefined, as("ann"));
    assert.deepEqual(none.body.sessions.map((s: any) => s.session_id), ["w0-s"]);
    const cross = await h.call("GET", "/api/sessions?workspace=two", undefined, inW("one"));
    assert.equal(cross.status, 403);
    assert.match(cross.body.error.message, /workspace/);
    const admin = as("root", { "x-tether-roles": "admin" });
    const byAdmin = await h.call("GET", "/api/sessions?owner=ann&workspace=two", undefined, admin);
    assert.deepEqual(byAdmin.body.sessions.map((s: any) => s.session_id), ["w2-s"]);
  } finally {
    await h.close();
  }
});

/**
 * A model whose turns answer at once (or follow `steps`) and whose title call answers when
 * `release` is called.
 */
function titlingModel(
  steps: Parameters<typeof scriptedModel>[0] = [{ text: "Here is the answer." }],
) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const model = scriptedModel(steps);
  const calls: LanguageModelV3CallOptions[] = [];
  model.doGenerate = async (options) => {
    calls.push(options);
    await held;
    return generated('"Login redirect loop."');
  };
  return { model, calls, release };
}

const until = async (check: () => Promise<boolean>, what: string) => {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
};

test("a model that is not the offline one titles the conversation once its first turn answered", async () => {
  const { model, calls, release } = titlingModel();
  const h = harness({ model, modelName: "scripted" });
  try {
    const context = { ...ISSUE_CONTEXT, view: { ...ISSUE_CONTEXT.view, name: "secret-view" } };
    const answer = await h.chat({
      session_id: "m1",
      content: "why does login loop?",
      host_context: context,
    });
    // The turn answered while the title call still waits.
    assert.equal(answer.body.content, "Here is the answer.");
    await until(() => Promise.resolve(calls.length === 1), "the title call");
    const plain = await h.call("GET", "/api/sessions");
    assert.equal(plain.body.sessions[0].title, "Why does login loop?");
    const prompt = JSON.stringify(calls[0].prompt);
    assert.match(prompt, /why does login loop\?/);
    assert.ok(!prompt.includes("secret-view"), "the title call never sees the host context");
    release();
    await until(
      async () =>
        (await h.call("GET", "/api/sessions")).body.sessions[0].title === "Login redirect loop",
      "the model's title",
    );
    // The second message asks for no title.
    await h.chat({ session_id: "m1", content: "still?" });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(calls.length, 1);
  } finally {
    await h.close();
  }
});

test("a first turn that pends a host action asks for a title only once it is answered", async () => {
  const { model, calls, release } = titlingModel([
    { calls: [{ name: "select_issue", args: { number: 42 }, id: "call_t1" }] },
    { text: "Selected it." },
  ]);
  const h = harness({ model, modelName: "scripted" });
  try {
    const first = await h.chat({
      session_id: "m3",
      content: "open issue 42",
      host_context: ISSUE_CONTEXT,
    });
    assert.equal(first.body.pending_tool_call?.call_id, "call_t1");
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(calls.length, 0, "no title call while the first turn waits for the host");
    const done = await h.chat({
      session_id: "m3",
      content: "",
      tool_call_id: "call_t1",
      tool_result: { ok: true },
    });
    assert.equal(done.body.content, "Selected it.");
    await until(() => Promise.resolve(calls.length === 1), "the title call");
    assert.match(JSON.stringify(calls[0].prompt), /open issue 42/);
    release();
    await until(
      async () =>
        (await h.call("GET", "/api/sessions")).body.sessions[0].title === "Login redirect loop",
      "the model's title",
    );
  } finally {
    await h.close();
  }
});

test("a person's rename is never replaced by the model's title", async () => {
  const { model, release } = titlingModel();
  const h = harness({ model, modelName: "scripted" });
  try {
    await h.chat({ session_id: "m2", content: "why does login loop?" });
    await h.call("PATCH", "/api/sessions/m2", { title: "Mine" });
    release();
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await h.call("GET", "/api/sessions")).body.sessions[0].title, "Mine");
  } finally {
    await h.close();
  }
});

test("sessions written before listings are listed once, at start, by their last message", async () => {
  const store = memoryStore();
  const old = (id: string) => ({
    session_id: id,
    owner_id: "local",
    created_at: "2025-01-01T00:00:00.000Z",
    turn_number: 1,
    message_count: 2,
    host_context: null,
    pending_action: null,
  });
  await store.set(["session", "old-a"], old("old-a"));
  await store.set(["session", "old-b"], old("old-b"));
  await store.set(["message", "old-a", "00000000"], {
    role: "user",
    content: "where is the invoice?",
    created_at: "2025-01-02T00:00:00.000Z",
  });
  await store.set(["message", "old-a", "00000001"], {
    role: "assistant",
    text: "here",
    created_at: "2025-01-03T00:00:00.000Z",
  });
  const h = harness({ store });
  try {
    await h.app.engine();
    await until(
      async () => (await store.get(["session_list_meta", "backfilled"])) !== null,
      "the backfill",
    );
    const { body } = await h.call("GET", "/api/sessions");
    assert.deepEqual(body.sessions.map((s: any) => [s.session_id, s.title, s.updated_at]), [
      ["old-a", "Where is the invoice?", "2025-01-03T00:00:00.000Z"],
      ["old-b", null, "2025-01-01T00:00:00.000Z"],
    ]);
    assert.deepEqual((await store.get<any>(["session_list_meta", "backfilled"]))?.value.listed, 2);
  } finally {
    await h.close();
  }
});
