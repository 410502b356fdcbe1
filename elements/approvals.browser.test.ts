/**
 * The policy gate in `<tether-chat>` (Chromium, scripted runtime; the
 * payloads are the wire's): a held call shows the reason and a live
 * countdown and offers nothing to release it, its outcome follows when the
 * runtime resumes the turn by itself, a host call an approver released runs
 * on the page that asked, and a denial shows its reason.
 */
import { equal, match, ok } from "../tests/browser/_assert.ts";
import type { Body, Turn } from "./_fake_runtime.ts";
import { chatOn, storeSession } from "./_stored_session.ts";
import { type ChatFixture, mountChat, until } from "./_test_fixture.ts";
import type { TetherAction } from "./action.ts";
import type { TetherConfirm } from "./confirm.ts";

let f: ChatFixture;
const cleanup: (() => void)[] = [];
afterEach(() => {
  f?.dispose();
  for (const undo of cleanup.splice(0)) undo();
});

const REASON = "Deleting issues needs a maintainer's approval.";

/** Plays a call the gate holds: its tool_call with the approval, and the turn ending on it. */
function hold(turn: Turn, toolName: string, args: Record<string, unknown>, category: string) {
  const approval = {
    status: "pending",
    request_id: "apr_1",
    reason: REASON,
    expires_at: new Date(Date.now() + 90_000).toISOString(),
    timeout_seconds: 300,
  };
  turn.start();
  turn.emit("tool_call", {
    type: "tool_call",
    tool_name: toolName,
    arguments: args,
    call_id: "held-1",
    category,
    approval,
  });
  turn.pend({
    tool_name: toolName,
    call_id: "held-1",
    arguments: args,
    queued: [],
    category,
    waiting_for: "approval",
    approval,
  });
  turn.end();
}

const held = () => f.$<TetherConfirm>(`tether-confirm[data-call="held-1"]`);
const countdown = () => held()?.shadowRoot?.querySelector("[part=countdown]")?.textContent ?? "";
const log = () => f.$(".log")?.textContent?.replace(/\s+/g, " ") ?? "";

describe("held and denied calls in <tether-chat>", () => {
  it("a held call shows its reason and a live countdown, and nothing can apply it", async () => {
    f = mountChat();
    let turn!: Turn;
    f.rt.respond = (_body, t) => hold(turn = t, "delete_issue", { number: 42 }, "backend");
    await f.chat.send("delete issue 42");
    const el = await until(() => (held()?.state === "waiting" ? held() : null), "the hold");
    await el.updateComplete;
    match(el.shadowRoot!.textContent!, /Waiting for approval/);
    match(el.shadowRoot!.querySelector("[part=reason]")!.textContent!, /needs a maintainer's/);
    match(el.shadowRoot!.querySelector("[part=preview]")!.textContent!, /Delete issue.*42/);
    match(countdown(), /^1:(29|30) left$/);
    const first = countdown();
    await until(() => countdown() !== first, "the countdown to tick", 2500);
    equal(el.shadowRoot!.querySelectorAll("button").length, 0, "no Apply, no Cancel");
    ok(f.$("[part~=tool-held]"), "the tool card says it waits for approval");
    match(f.$("[part=notice]")!.textContent!, /Delete issue is waiting for a person.s approval/);
    ok(!/delete_issue/.test(f.$("[part=notice]")!.textContent!), "no tool name");
    ok(!f.$("textarea[readonly]"), "the composer stays free");
    equal(f.rt.sent.length, 1, "the page sends nothing for a held call");

    // The approver denied it: the runtime resumes the turn by itself.
    turn.start();
    turn.emit("tool_error", {
      type: "tool_error",
      tool_name: "delete_issue",
      call_id: "held-1",
      error: "Denied by an operator: not during the release freeze.",
      policy: "deny",
    });
    turn.final("I could not delete it: an operator denied it.");
    turn.end();
    const card = await until(() => f.$("[part~=tool-denied]"), "the denied card");
    match(card.querySelector(".reason")!.textContent!, /not during the release freeze/);
    match(card.querySelector(".state")!.textContent!, /Denied/);
    await until(() => !held(), "the hold gone");
  });

  it("a host call an approver released runs once on the page that asked", async () => {
    f = mountChat(
      `<tether-action name="close_issue" description="Close an issue."
        parameters='{"type":"object","properties":{"number":{"type":"integer"}},"required":["number"]}'></tether-action>`,
    );
    const runs: unknown[] = [];
    f.root.querySelector<TetherAction>("tether-action")!.handler = (args) => (
      runs.push(args), { closed: true }
    );
    let turn!: Turn;
    f.rt.respond = (body: Body, t) => {
      if (!body.tool_call_id) return hold(turn = t, "close_issue", { number: 7 }, "host");
      void t.reply("Closed #7.");
    };
    await f.chat.send("close issue 7");
    await until(() => held(), "the hold");
    equal(runs.length, 0, "a held call does not run");

    // Approved: the runtime resumes and hands the call to the host as if allowed at first.
    turn.start();
    turn.pend({
      tool_name: "close_issue",
      call_id: "held-1",
      arguments: { number: 7 },
      queued: [],
      category: "host",
      waiting_for: "host",
    });
    turn.end();
    await until(() => f.rt.sent.length === 2, "the result sent back");
    equal(f.rt.sent[1].tool_call_id, "held-1");
    equal(f.rt.sent[1].tool_result.closed, true);
    equal(runs.length, 1);
    await until(() => log().includes("Closed #7."), "the answer");
    ok(f.$("[part~=tool-done]"));
  });

  it("a call the policy denies outright shows the reason", async () => {
    f = mountChat();
    f.rt.respond = (_body, turn) => {
      turn.start();
      turn.emit("tool_error", {
        type: "tool_error",
        tool_name: "run_shell",
        call_id: "d-1",
        error: "rm -rf is blocked by policy shell-safety.",
        policy: "deny",
      });
      void turn.reply("That command is not allowed here.");
    };
    await f.chat.send("clean the disk");
    const card = await until(() => f.$("[part~=tool-denied]"), "the denied card");
    match(card.textContent!, /Run shell/);
    match(card.querySelector(".reason")!.textContent!, /rm -rf is blocked by policy shell-safety/);
  });

  it("after a reload the hold shows again with its reason and time left, and nothing runs", async () => {
    const sessionId = `held-reload-${crypto.randomUUID().slice(0, 8)}`;
    const approval = {
      status: "pending",
      request_id: "apr_9",
      reason: REASON,
      expires_at: new Date(Date.now() + 45_000).toISOString(),
      timeout_seconds: 300,
    };
    const call = { call_id: "held-1", tool_name: "close_issue", arguments: { number: 7 } };
    cleanup.push(storeSession(sessionId, {
      turn_number: 1,
      has_pending_tool_call: true,
      message_count: 2,
      pending_action: {
        ...call,
        tool_call_id: "held-1",
        assistant_message_id: "a-1",
        queued: [],
        category: "host",
        waiting_for: "approval",
        approval,
      },
    }, [
      { id: "m-1", role: "user", content: "close issue 7" },
      {
        id: "a-1",
        role: "assistant",
        content: "",
        tool_calls: [{ ...call, category: "host", status: "pending" }],
      },
    ]));
    f = mountChat(
      `<tether-action name="close_issue" description="Close an issue."></tether-action>`,
    );
    const runs: unknown[] = [];
    f.root.querySelector<TetherAction>("tether-action")!.handler = (args) => runs.push(args);
    const { chat, host } = chatOn(f.rt, sessionId, f.root);
    cleanup.push(() => host.close());
    const el = await until(
      () => chat.shadowRoot!.querySelector<TetherConfirm>("tether-confirm[held]"),
      "the hold after the reload",
    );
    await el.updateComplete;
    match(el.shadowRoot!.querySelector("[part=reason]")!.textContent!, /maintainer's approval/);
    match(el.shadowRoot!.querySelector("[part=countdown]")!.textContent!, /^0:4[45] left$/);
    ok(chat.shadowRoot!.querySelector("[part~=tool-held]"), "the card waits for approval");
    await new Promise((r) => setTimeout(r, 300));
    equal(runs.length, 0, "a held host call does not run on load");
    equal(f.rt.sent.length, 0, "nothing is reported");
  });
});
