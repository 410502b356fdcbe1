/**
 * `<tether-chat>` in Chromium on a scripted runtime: rendering, streaming,
 * a host action changing the page, the composer lock, stop, errors and the
 * keyboard, the attachments a message carried and every call status.
 */
import { sendKeys } from "@web/test-runner-commands";
import { TetherError } from "../client/mod.ts";
import { deepEqual, equal, match, ok } from "../tests/browser/_assert.ts";
import type { Body, Turn } from "./_fake_runtime.ts";
import { chatOn } from "./_stored_session.ts";
import { type ChatFixture, mountChat, until } from "./_test_fixture.ts";
import type { TetherAction } from "./action.ts";
import type { TetherStopEvent } from "./events.ts";

let f: ChatFixture;
afterEach(() => f?.dispose());

const type = async (text: string) => {
  const input = await until(() => f.$<HTMLTextAreaElement>("textarea"), "the composer");
  input.focus();
  await sendKeys({ type: text });
  return input;
};
const text = () => f.$(".log")?.textContent?.replace(/\s+/g, " ") ?? "";

describe("<tether-chat>", () => {
  it("renders the conversation and the connection state", async () => {
    f = mountChat();
    await until(() => f.$("[part=connection]")?.textContent?.includes("Connected"), "connected");
    ok(f.$(".empty"), "an empty conversation shows its placeholder");
    f.rt.respond = (body, turn) => turn.reply(`You said *${body.content}*.`);
    await f.chat.send("hello");
    equal(f.$$("[part~=message-user]").length, 1);
    match(text(), /You said hello\./);
    ok(f.$("[part~=message-assistant] em"), "the reply's Markdown is rendered");
  });

  it("streams text as it arrives, with the log busy until the turn completes", async () => {
    f = mountChat();
    let turn!: Turn;
    f.rt.respond = (_b, t) => {
      turn = t;
      t.start();
      t.delta("Looking **at");
    };
    void f.chat.send("stream please");
    await until(() => text().includes("Looking"), "the first delta");
    equal(f.$(".log")!.getAttribute("aria-busy"), "true");
    ok(f.$("[part=stop]"), "Stop replaces Send while the turn runs");
    turn.delta(" it** now");
    await until(
      () => f.$("[part~=message-assistant] strong")?.textContent === "at it",
      "the bold text completed by a later delta",
    );
    turn.final("Looking **at it** now");
    turn.end();
    await until(() => f.$(".log")!.getAttribute("aria-busy") === "false", "the turn to end");
    equal(
      f.$$("[part~=message-assistant]").length,
      1,
      "the streamed and the final text are one message",
    );
    ok(f.$("[part=send]"));
  });

  it("a host action changes the page, shows its card as done, and the answer follows", async () => {
    f = mountChat(
      `<p id="selected">none</p><tether-action name="select_issue" description="Select an issue."
      parameters='{"type":"object","properties":{"number":{"type":"integer"}},"required":["number"]}'></tether-action>`,
    );
    const action = f.root.querySelector<TetherAction>("tether-action")!;
    action.handler = ({ number }) => {
      f.root.querySelector("#selected")!.textContent = `issue ${number}`;
      return { selected: number };
    };
    f.rt.respond = (body: Body, turn) => {
      if (!body.tool_call_id) {
        turn.start();
        turn.hostCall("select_issue", { number: 42 });
        turn.end();
      } else void turn.reply(`Done: selected ${body.tool_result.selected}.`);
    };
    const context = await f.host.context();
    equal(
      context.actions?.[0]?.name,
      "select_issue",
      "the markup action is declared in the context",
    );
    await f.chat.send("select issue 42");
    equal(f.root.querySelector("#selected")!.textContent, "issue 42");
    const continuation = f.rt.sent[1];
    equal(continuation.tool_call_id, "call-1");
    equal(continuation.tool_result.selected, 42);
    await until(() => f.$("[part~=tool-done]"), "the tool card to say done");
    const card = f.$("[part~=tool]")!;
    match(
      card.textContent!,
      /Select issue\s+Done\s+selected: 42/,
      "the name in words and a summary",
    );
    ok(
      card.querySelector("details pre")!.textContent!.includes('"selected": 42'),
      "the JSON behind a disclosure",
    );
    ok(!card.querySelector("details")!.open, "closed until asked");
    match(text(), /Done: selected 42\./);
  });

  it("locks the composer while a host action runs, and unlocks it after", async () => {
    f = mountChat(`<tether-action name="slow_thing" description="Takes a while."></tether-action>`);
    let finish!: (v: unknown) => void;
    f.root.querySelector<TetherAction>("tether-action")!.handler = () =>
      new Promise((resolve) => (finish = resolve));
    f.rt.respond = (body, turn) => {
      if (body.tool_call_id) return turn.reply("finished");
      turn.start();
      turn.hostCall("slow_thing", {});
      turn.end();
    };
    const done = f.chat.send("do the slow thing");
    const input = await until(
      () => f.$<HTMLTextAreaElement>("textarea[readonly]"),
      "the locked composer",
    );
    equal(input.getAttribute("aria-disabled"), "true");
    match(f.$("[part=notice]")!.textContent!, /Slow thing is running on this page/);
    await type("more");
    await sendKeys({ press: "Enter" });
    equal(f.rt.sent.length, 1, "Enter sends nothing while locked");
    finish({ ok: true });
    await done;
    await until(
      () => !f.$("textarea[readonly]") && !f.$("[part=notice]"),
      "the composer to unlock",
    );
    ok(f.$("[part=send]"));
  });

  it("Stop cancels the live turn; Escape does too; tether-stop can veto it", async () => {
    f = mountChat();
    f.rt.respond = (_b, t) => {
      t.start();
      t.delta("working…");
    };
    void f.chat.send("long task");
    const stop = await until(() => f.$<HTMLButtonElement>("[part=stop]"), "Stop");
    let stops = 0;
    f.chat.addEventListener(
      "tether-stop",
      (e: TetherStopEvent) => (stops++, stops === 3 && e.preventDefault()),
    );
    stop.click();
    await until(() => f.rt.cancels === 1, "the cancel");
    f.$<HTMLTextAreaElement>("textarea")!.focus();
    await sendKeys({ press: "Escape" });
    await until(() => f.rt.cancels === 2, "the cancel by Escape");
    stop.click();
    await new Promise((r) => setTimeout(r, 50));
    equal(f.rt.cancels, 2, "a cancelled tether-stop event keeps the turn running");
    equal(stops, 3);
  });

  it("shows a turn error with its retry hint, and Try again sends the message again", async () => {
    f = mountChat();
    f.rt.respond = (_b, t) => {
      t.start();
      t.error("The provider is busy.", "rate_limit", true);
      t.end();
    };
    await f.chat.send("hello?");
    const error = await until(() => f.$("[part=error]"), "the error");
    match(error.textContent!, /The provider is busy\. You can try again\./);
    f.rt.respond = (_b, t) => t.reply("Back again.");
    error.querySelector("button")!.click();
    await until(() => text().includes("Back again."), "the retried answer");
    equal(f.rt.sent.at(-1)!.content, "hello?");
    ok(!f.$("[part=error]"), "the error is gone after a successful turn");
  });

  it("Send again replaces the message the runtime never received: it is listed once, then answered", async () => {
    f = mountChat();
    f.rt.unreachable = new TetherError(0, "network", "Could not reach the runtime.");
    await f.chat.send("close it");
    const retry = await until(() => f.$("[part=retry]"), "Send again");
    match(retry.textContent!, /Send again/);
    equal(f.$$("[part~=message-user]").length, 1, "the unsent message stays listed");
    f.rt.unreachable = undefined;
    f.rt.respond = (_b, t) => t.reply("Closed.");
    retry.click();
    await until(() => text().includes("Closed."), "the answer");
    equal(f.$$("[part~=message-user]").length, 1, "the message sent again is listed once");
    equal(f.rt.sent.length, 1);
    equal(f.rt.sent[0].content, "close it");
  });

  it("Stop in another tab following the session stops the turn it did not start, and the call it announces", async () => {
    f = mountChat(
      `<tether-action name="close_issue" description="Close an issue."></tether-action>`,
    );
    let ran = 0;
    f.root.querySelector<TetherAction>("tether-action")!.handler = () => ++ran;
    const { chat: other, host: otherHost } = chatOn(f.rt, f.host.sessionId, f.root);
    await otherHost.connect();
    let turn!: Turn;
    f.rt.respond = (body, t) => {
      if (body.tool_call_id) return t.reply("Closed.");
      turn = t;
      t.start();
      t.delta("Closing it");
    };
    void f.chat.send("close it");
    const stop = await until(
      () => other.shadowRoot!.querySelector<HTMLButtonElement>("[part=stop]"),
      "Stop in the other tab",
    );
    // Tabs hear a Stop through a BroadcastChannel, whose messages reach listeners in the order
    // they were created: once this one (created last) heard it, the first tab has too.
    const heard = new Promise((resolve) => {
      const tabs = new BroadcastChannel(`tether-stop:${f.host.sessionId}`);
      tabs.onmessage = () => (tabs.close(), resolve(undefined));
    });
    stop.click();
    await until(() => f.rt.cancels === 1, "the cancel to reach the runtime");
    await heard;
    // The runtime had already planned the call (a cancel does not revoke a pending host call).
    turn.hostCall("close_issue", { number: 7 });
    turn.end();
    await until(() => f.rt.sent.length === 2, "the outcome of the call");
    equal(ran, 0, "the page never ran the call another tab stopped");
    equal(f.rt.sent[1].tool_outcome, "failed", "reported as not done (declined)");
    await until(
      () => !f.$("[part=stop]") && !other.shadowRoot!.querySelector("[part=stop]"),
      "both tabs idle",
    );
    otherHost.close();
  });

  it("is usable from the keyboard: Enter sends, Shift+Enter adds a line, focus is visible", async () => {
    f = mountChat();
    f.rt.respond = (body, turn) => turn.reply(`Got ${JSON.stringify(body.content)}`);
    const input = await type("first line");
    await sendKeys({ press: "Shift+Enter" });
    await sendKeys({ type: "second line" });
    equal(f.rt.sent.length, 0, "Shift+Enter does not send");
    await sendKeys({ press: "Enter" });
    await until(() => f.rt.sent.length === 1, "the message");
    equal(f.rt.sent[0].content, "first line\nsecond line");
    equal(input.value, "", "the composer is cleared");
    await until(() => f.$("[part=send]"), "the turn to end");
    await sendKeys({ press: "Tab" });
    await sendKeys({ press: "Tab" });
    const focused = f.chat.shadowRoot!.activeElement as HTMLElement;
    equal(focused?.getAttribute("part"), "send", "Tab reaches Send after the attach button");
    ok(getComputedStyle(focused).outlineStyle !== "none", "the focused button shows a focus ring");
  });

  it("attaches a pasted image as a reference attachment", async () => {
    f = mountChat();
    const input = await until(() => f.$<HTMLTextAreaElement>("textarea"), "the composer");
    const data = new DataTransfer();
    data.items.add(
      new File([new Uint8Array([137, 80, 78, 71])], "shot.png", { type: "image/png" }),
    );
    input.dispatchEvent(
      new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
    );
    const chip = await until(() => f.$(".chip"), "the attachment chip");
    match(chip.textContent!, /shot\.png/);
    input.value = "what is this?";
    f.$<HTMLButtonElement>("[part=send]")!.click();
    await until(() => f.rt.sent.length === 1, "the message");
    const [attachment] = f.rt.sent[0].attachments;
    equal(attachment.kind, "image");
    equal(attachment.purpose, "reference");
    match(attachment.data_uri, /^data:image\/png;base64,/);
    ok(!f.$(".chip"), "the chips are cleared after sending");
  });

  it("attaches a picked file as a document, and a chip can be removed", async () => {
    f = mountChat();
    const picker = await until(() => f.$<HTMLInputElement>("input[type=file]"), "the file input");
    const data = new DataTransfer();
    data.items.add(new File(["%PDF-1.4"], "spec.pdf", { type: "application/pdf" }));
    data.items.add(new File(["notes"], "notes.txt", { type: "text/plain" }));
    picker.files = data.files;
    picker.dispatchEvent(new Event("change"));
    await until(() => f.$$(".chip").length === 2, "two chips");
    f.$<HTMLButtonElement>('.chip button[aria-label="Remove notes.txt"]')!.click();
    await until(() => f.$$(".chip").length === 1, "one chip left");
    f.$<HTMLTextAreaElement>("textarea")!.value = "summarise";
    f.$<HTMLButtonElement>("[part=send]")!.click();
    await until(() => f.rt.sent.length === 1, "the message");
    equal(f.rt.sent[0].attachments.length, 1);
    equal(f.rt.sent[0].attachments[0].kind, "document");
    equal(f.rt.sent[0].attachments[0].name, "spec.pdf");
  });

  it("shows what a sent message carried: a thumbnail for an image, the name of a file", async () => {
    f = mountChat();
    const canvas = document.createElement("canvas");
    canvas.width = 200;
    canvas.height = 100;
    canvas.getContext("2d")!.fillRect(0, 0, 200, 100);
    await f.chat.send("what are these?", [
      {
        kind: "image",
        purpose: "reference",
        name: "chart.png",
        media_type: "image/png",
        data_uri: canvas.toDataURL(),
      },
      {
        kind: "document",
        purpose: "reference",
        name: "spec.pdf",
        media_type: "application/pdf",
        data_uri: "data:application/pdf;base64,JVBERg==",
      },
    ]);
    const shown = await until(
      () =>
        f.$$("[part~=message-user] [part=attachment]").length === 2 && f.$$("[part=attachment]"),
      "the attachments",
    );
    deepEqual(shown.map((a) => a.textContent!.trim()), ["chart.png", "spec.pdf"]);
    match(shown[0].querySelector("img")!.getAttribute("src"), /^data:image\/jpeg;base64,/);
    equal(shown[0].getAttribute("title"), "image/png");
    ok(!shown[1].querySelector("img"), "a document shows no picture");
  });

  it("shows each call status of the state on its card", async () => {
    f = mountChat();
    const statuses = [
      "pending",
      "running",
      "completed",
      "failed",
      "cancelled",
      "superseded",
      "unknown",
    ] as const;
    f.host.state.set((s) => ({
      ...s,
      messages: [
        { id: "u1", role: "user", content: "do it all", toolCalls: [] },
        {
          id: "a1",
          role: "assistant",
          content: "",
          toolCalls: statuses.map((status, i) => ({
            callId: `c${i}`,
            toolName: `step_${i}`,
            arguments: {},
            category: "host",
            status,
            output: status === "unknown" ? "its outcome is unknown" : undefined,
          })),
        },
      ],
    }));
    const cards = await until(
      () => f.$$("[part~=tool]").length === statuses.length && f.$$("[part~=tool]"),
      "the cards",
    );
    deepEqual(cards.map((c) => c.getAttribute("part")), [
      "tool tool-running",
      "tool tool-running",
      "tool tool-done",
      "tool tool-failed",
      "tool tool-cancelled",
      "tool tool-superseded",
      "tool tool-unknown",
    ]);
    deepEqual(cards.map((c) => c.querySelector(".state")!.textContent), [
      "Running…",
      "Running…",
      "Done",
      "Failed",
      "Cancelled",
      "Superseded",
      "Outcome unknown",
    ]);
    match(cards[6].textContent!, /its outcome is unknown/, "the reason is shown");
  });

  it("a new message shows the host call it overtook as superseded", async () => {
    f = mountChat(
      `<tether-action name="select_issue" description="Select an issue."></tether-action>`,
    );
    let release!: () => void;
    f.root.querySelector<TetherAction>("tether-action")!.handler = () =>
      new Promise<void>((r) => (release = r));
    f.rt.respond = (body: Body, turn) => {
      if (body.content === "select issue 42") {
        turn.start();
        turn.hostCall("select_issue", { number: 42 });
        turn.end();
      } else if (!body.tool_call_id) void turn.reply("Fine.");
    };
    void f.chat.send("select issue 42");
    await until(() => f.$("[part~=tool-running]"), "the running call");
    await f.host.send("never mind");
    await until(() => f.$("[part~=tool-superseded]"), "the superseded card");
    release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    ok(f.$("[part~=tool-superseded]"), "its late result does not change it");
  });
});
