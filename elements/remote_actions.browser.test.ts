/**
 * Remote tools' actions in `<tether-chat>` (Chromium, scripted runtime; the
 * payloads are the wire's): the preview with Apply and Cancel, the two
 * confirmations of a delete counted by the runtime, a declined call shown
 * neutrally, the same open preview after a reload, another tab following
 * the preview and its outcome, and hostile preview cards neutralised.
 */
import { deepEqual, equal, match, ok } from "../tests/browser/_assert.ts";
import type { Body, Turn } from "./_fake_runtime.ts";
import { chatOn, storeSession } from "./_stored_session.ts";
import { type ChatFixture, mountChat, until } from "./_test_fixture.ts";
import type { TetherConfirm } from "./confirm.ts";

let f: ChatFixture;
const cleanup: (() => void)[] = [];
afterEach(() => {
  f?.dispose();
  for (const undo of cleanup.splice(0)) undo();
});

const CALL = "rc-1";
const remoteCall = (verb: "create" | "delete", preview: string) => ({
  tool_name: verb === "create" ? "create_task" : "delete_task",
  call_id: CALL,
  arguments: verb === "create" ? { title: "Ship the release" } : { id: "task_789" },
  verb,
  preview,
});

/** Plays the model calling a remote tool: the tool_call, then the turn ending on its preview. */
function pendRemote(turn: Turn, call: ReturnType<typeof remoteCall>, received: 0 | 1 = 0): void {
  const { tool_name, call_id, arguments: args, verb, preview } = call;
  if (!received) {
    turn.emit("tool_call", {
      type: "tool_call",
      tool_name,
      arguments: args,
      call_id,
      category: "remote",
      verb,
    });
  }
  turn.pend({
    tool_name,
    call_id,
    arguments: args,
    queued: [],
    category: "remote",
    waiting_for: "confirmation",
    verb,
    preview,
    confirmations_required: verb === "delete" ? 2 : 1,
    confirmations_received: received,
  });
}

/** The model calls `call` on a message; `answer` plays the turn of the continuation. */
function remoteTurns(call: ReturnType<typeof remoteCall>, answer: (turn: Turn) => void): void {
  f.rt.respond = (body: Body, turn) => {
    turn.start();
    if (!body.tool_call_id) {
      pendRemote(turn, call);
      turn.end();
    } else answer(turn);
  };
}

/** A create the user declines: the runtime answers the cancel with a declined tool_error, then `rest`. */
function declinedTurns(rest: (turn: Turn) => void): void {
  const call = remoteCall("create", "Create a task “Ship the release”");
  remoteTurns(call, (turn) => {
    turn.emit("tool_error", {
      type: "tool_error",
      tool_name: call.tool_name,
      call_id: CALL,
      error: "The user declined create_task.",
      declined: true,
    });
    rest(turn);
  });
}

const box = (chat = f.chat) =>
  chat.shadowRoot!.querySelector<TetherConfirm>(`tether-confirm[data-call="${CALL}"]`);
const inBox = (el: TetherConfirm, selector: string) =>
  el.shadowRoot!.querySelector<HTMLButtonElement>(selector);
const log = (chat = f.chat) =>
  chat.shadowRoot!.querySelector(".log")?.textContent?.replace(/\s+/g, " ") ?? "";

/** The preview box once rendered, in `state`. */
async function openBox(state: string, chat = f.chat): Promise<TetherConfirm> {
  const el = await until(
    () => (box(chat)?.state === state ? box(chat) : null),
    `the preview (${state})`,
  );
  await el.updateComplete;
  return el;
}

describe("remote actions in <tether-chat>", () => {
  it("a create shows its preview; Apply sends the apply continuation for that call", async () => {
    f = mountChat();
    const call = remoteCall("create", "Create a task “Ship the release” in Project Apollo");
    remoteTurns(call, (turn) => {
      turn.emit("tool_result", {
        type: "tool_result",
        tool_name: call.tool_name,
        output: { id: "task_789", title: "Ship the release" },
        call_id: CALL,
      });
      void turn.reply("Done: I created Ship the release.");
    });
    await f.chat.send("create a task Ship the release");
    const confirm = await openBox("preview");
    match(
      inBox(confirm, "[part=preview]")!.textContent!,
      /Create a task “Ship the release” in Project Apollo/,
    );
    equal(f.rt.sent.length, 1, "nothing is sent before the user decides");
    ok(f.$("[part~=tool-confirming]"), "the tool card waits for the user");
    ok(f.$("textarea[readonly]"), "the composer waits for the decision");
    match(f.$("[part=notice]")!.textContent!, /Waiting for your decision/);
    inBox(confirm, "[part=apply]")!.click();
    await until(() => f.rt.sent.length === 2, "the continuation");
    const continuation = f.rt.sent[1];
    equal(continuation.session_id, f.host.sessionId);
    equal(continuation.content, "");
    equal(continuation.tool_call_id, CALL);
    deepEqual(continuation.tool_result, { decision: "apply" });
    await until(() => log().includes("Done: I created"), "the answer");
    await until(() => f.$("[part~=tool-done]") && !box(), "the done card, the preview gone");
    ok(!f.$("textarea[readonly]"), "the composer is free again");
  });

  it("a delete needs two confirmations: the first Apply only brings the second question", async () => {
    f = mountChat();
    const call = remoteCall("delete", "Delete the task “Ship the release”");
    let executed = 0;
    f.rt.respond = (body: Body, turn) => {
      turn.start();
      if (!body.tool_call_id) pendRemote(turn, call);
      else if (f.rt.sent.length === 2) pendRemote(turn, call, 1); // the runtime counts one
      else {
        executed++;
        turn.emit("tool_result", {
          type: "tool_result",
          tool_name: call.tool_name,
          output: { deleted: true },
          call_id: CALL,
        });
        turn.final("Deleted.");
      }
      turn.end();
    };
    await f.chat.send("delete task 789");
    const first = await openBox("preview");
    match(inBox(first, "[part=apply]")!.textContent!, /Continue/);
    inBox(first, "[part=apply]")!.click();
    await until(() => f.rt.sent.length === 2, "the first apply");
    deepEqual(f.rt.sent[1].tool_result, { decision: "apply" });
    const second = await openBox("confirm-again");
    match(second.shadowRoot!.textContent!, /cannot be undone/);
    equal(executed, 0, "one Apply runs nothing");
    ok(f.$("[part~=tool-confirming]"), "still waiting for the user");
    inBox(second, "[part=apply]")!.click();
    await until(() => f.rt.sent.length === 3, "the second apply");
    equal(f.rt.sent[2].tool_call_id, CALL);
    deepEqual(f.rt.sent[2].tool_result, { decision: "apply" });
    await until(() => f.$("[part~=tool-done]") && !box(), "the done card");
    equal(executed, 1);
  });

  it("Cancel sends the cancel continuation; the declined call shows as cancelled, not failed", async () => {
    f = mountChat();
    declinedTurns((turn) => void turn.reply("All right, I left it."));
    await f.chat.send("create a task");
    inBox(await openBox("preview"), "[part=cancel]")!.click();
    await until(() => f.rt.sent.length === 2, "the continuation");
    deepEqual(f.rt.sent[1].tool_result, { decision: "cancel" });
    equal(f.rt.sent[1].tool_call_id, CALL);
    const card = await until(() => f.$("[part~=tool-cancelled]"), "the cancelled card");
    match(card.querySelector(".state")!.textContent!, /^cancelled$/i);
    ok(!card.querySelector(".reason"), "no failure reason is shown");
    ok(!f.$("[part~=tool-failed]") && !f.$("[part=error]"), "nothing says it failed");
    await until(() => !box(), "the preview gone");
  });

  it("a preview waiting for the user shows no Stop; stop() (Escape) cancels it; the composer says what it waits for", async () => {
    f = mountChat();
    declinedTurns((turn) => (turn.final("Left as it was."), turn.end()));
    await f.chat.send("create a task");
    await openBox("preview");
    match(f.$("textarea")!.getAttribute("placeholder")!, /Apply or cancel the preview first/);
    ok(!f.$("[part=stop]"), "waiting for the user is not something running");
    void f.chat.stop();
    await until(() => f.rt.sent.length === 2, "the continuation");
    deepEqual(f.rt.sent[1].tool_result, { decision: "cancel" });
    equal(f.rt.cancels, 0, "no turn was running to cancel");
    await until(() => f.$("[part~=tool-cancelled]"), "the cancelled card");
  });

  it("after a reload the same open preview is shown again, nothing is run or reported", async () => {
    const sessionId = `remote-reload-${crypto.randomUUID().slice(0, 8)}`;
    const stored = {
      turn_number: 1,
      has_pending_tool_call: true,
      message_count: 2,
      pending_action: {
        tool_call_id: CALL,
        tool_name: "delete_task",
        assistant_message_id: "a-1",
        arguments: { id: "task_789" },
        queued: [],
        category: "remote",
        waiting_for: "confirmation",
        verb: "delete",
        preview: "Delete the task “Ship the release”",
        confirmations_required: 2,
        confirmations_received: 1,
      },
    };
    const messages = [
      { id: "m-1", role: "user", content: "delete task 789" },
      {
        id: "a-1",
        role: "assistant",
        content: "",
        tool_calls: [{
          call_id: CALL,
          tool_name: "delete_task",
          category: "remote",
          arguments: { id: "task_789" },
          status: "pending",
        }],
      },
    ];
    cleanup.push(storeSession(sessionId, stored, messages));
    f = mountChat();
    const { chat, host } = chatOn(f.rt, sessionId, f.root);
    cleanup.push(() => host.close());
    const started: string[] = [];
    host.on("action:start", ({ call }) => started.push(call.call_id));
    const again = await openBox("confirm-again", chat);
    match(inBox(again, "[part=preview]")!.textContent!, /Delete the task “Ship the release”/);
    const card = chat.shadowRoot!.querySelector("[part~=tool]")!;
    match(card.getAttribute("part")!, /tool-confirming/);
    ok(!/unknown/.test(log(chat)), "never an unknown outcome: nothing ran");
    await new Promise((r) => setTimeout(r, 300));
    deepEqual(started, [], "the page runs nothing for a remote action");
    equal(f.rt.sent.length, 0, "nothing is reported on its own");
    inBox(again, "[part=apply]")!.click();
    await until(() => f.rt.sent.length === 1, "the second apply");
    equal(f.rt.sent[0].tool_call_id, CALL);
    deepEqual(f.rt.sent[0].tool_result, { decision: "apply" });
  });

  it("another tab following the session sees the preview, then its outcome", async () => {
    f = mountChat();
    const call = remoteCall("create", "Create a task “Ship the release”");
    remoteTurns(call, (turn) => {
      turn.emit("tool_result", {
        type: "tool_result",
        tool_name: call.tool_name,
        output: { id: "task_789" },
        call_id: CALL,
      });
      turn.final("Created.");
      turn.end();
    });
    const { chat: other, host: otherHost } = chatOn(f.rt, f.host.sessionId, f.root);
    cleanup.push(() => otherHost.close());
    await otherHost.connect();
    await f.chat.send("create a task");
    const there = await openBox("preview", other);
    match(inBox(there, "[part=preview]")!.textContent!, /Create a task “Ship the release”/);
    inBox(await openBox("preview"), "[part=apply]")!.click();
    await until(
      () => !box(other) && other.shadowRoot!.querySelector("[part~=tool-done]"),
      "the other tab to show the outcome",
    );
    equal(f.rt.sent.length, 2, "one continuation, from the tab that applied");
  });

  it("preview cards from a result's display render with hostile input neutralised", async () => {
    f = mountChat();
    const alerts: unknown[] = [];
    const realAlert = globalThis.alert;
    globalThis.alert = (m) => alerts.push(m);
    cleanup.push(() => (globalThis.alert = realAlert));
    const shop = (p: string) => `https://shop.example.com/${p}`;
    const display = [
      {
        title: `<img src=x onerror="alert(1)">Evil <b>bold</b>`,
        url: shop("a"),
        image: "http://shop.example.com/a.jpg",
        subtitle: "one\nline",
        badges: ["1", "2", "3", "4", "5"],
      },
      { title: "script link", url: "javascript:alert(1)" },
      { title: "relative", url: "/product/1" },
      { title: "data image", url: shop("b"), image: "data:image/png;base64,AAAA" },
      { title: "x".repeat(500), url: shop("c"), image: shop("c.jpg") },
      { title: "duplicate", url: shop("a") },
      "not a card",
      null,
      { url: shop("untitled") },
      { title: "d", url: shop("d") },
      { title: "e", url: shop("e") },
      { title: "f", url: shop("f") },
      { title: "g: the seventh", url: shop("g") },
    ];
    f.rt.respond = (_body, turn) => {
      turn.start();
      turn.emit("tool_call", {
        type: "tool_call",
        tool_name: "search_products",
        arguments: { q: "gpu" },
        call_id: "g-1",
        category: "remote",
        verb: "get",
      });
      turn.emit("tool_result", {
        type: "tool_result",
        tool_name: "search_products",
        output: { results: [{ id: 1 }] },
        call_id: "g-1",
        display,
      });
      void turn.reply("Here is what I found.");
    };
    await f.chat.send("find gpus");
    await until(() => f.$$("tether-card").length > 0, "the cards");
    const cards = f.$$<HTMLElement & { updateComplete: Promise<unknown> }>("tether-card");
    await Promise.all(cards.map((c) => c.updateComplete));
    equal(cards.length, 6, "at most 6 cards per result, the bad ones dropped");
    const links = cards.map((c) => c.shadowRoot!.querySelector("a")!);
    deepEqual(links.map((a) => a.href), [
      shop("a"),
      shop("b"),
      shop("c"),
      shop("d"),
      shop("e"),
      shop("f"),
    ]);
    for (const a of links) {
      equal(a.target, "_blank");
      match(a.rel, /noopener/);
    }
    const images = cards.flatMap((c) => [...c.shadowRoot!.querySelectorAll("img")]);
    deepEqual(images.map((i) => i.src), [shop("c.jpg")], "only https images load");
    const first = cards[0].shadowRoot!;
    match(
      first.querySelector("[part=title]")!.textContent!,
      /^<img src=x onerror="alert\(1\)">Evil/,
    );
    ok(!first.querySelector("[part=title] img, [part=title] b"), "the title is plain text");
    equal(first.querySelectorAll("[part=badge]").length, 4);
    equal(first.querySelector("[part=subtitle]")!.textContent, "one line");
    ok(cards[2].shadowRoot!.querySelector("[part=title]")!.textContent!.length <= 120);
    deepEqual(alerts, []);
  });
});
