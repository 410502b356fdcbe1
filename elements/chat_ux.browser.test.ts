/**
 * `<tether-chat>` as people use it, in Chromium: the conversation follows the
 * newest message (measured after preview cards have their size) unless the
 * user scrolled up, when a "new messages" button appears; the focus comes
 * back to the composer after Send, Apply and Cancel; the panel has a
 * heading; a Cancel reads "Cancelled", once.
 */
import { sendKeys, setViewport } from "@web/test-runner-commands";
import { equal, match, ok } from "../tests/browser/_assert.ts";
import type { Body, Turn } from "./_fake_runtime.ts";
import { type ChatFixture, mountChat, until } from "./_test_fixture.ts";
import type { TetherAction } from "./action.ts";
import type { TetherConfirm } from "./confirm.ts";

let f: ChatFixture;
afterEach(() => f?.dispose());

const log = () => f.$<HTMLElement>(".log")!;
const atEnd = () => {
  const l = log();
  return l.scrollHeight - l.scrollTop - l.clientHeight < 40;
};
const frames = (n = 3) =>
  new Promise<void>((resolve) => {
    const step = (left: number) => left ? requestAnimationFrame(() => step(left - 1)) : resolve();
    step(n);
  });
/** What has the focus inside the chat's shadow root. */
const focused = () => (document.activeElement === f.chat ? f.chat.shadowRoot : null)?.activeElement;
const composerFocused = () => focused()?.localName === "textarea";

/** Each turn: a backend call whose result carries two preview cards, then a sentence. */
function cardsTurn(body: Body, turn: Turn) {
  turn.start();
  const n = f.rt.sent.length;
  turn.toolResult("find_issue", `call-${n}`, {
    found: n,
    display: [
      { title: `#${n} Login loops`, url: `https://example.test/${n}`, subtitle: "open · alice" },
      { title: `#${n + 100} Export CSV`, url: `https://example.test/${n + 100}`, badges: ["bug"] },
    ],
  });
  turn.final(`Found issue ${n} for “${body.content}”.`);
  turn.end();
}

/** A chat with a `create_issue` action that asks first; the turn calls it, then answers. */
function mountCreateIssue(): TetherAction {
  f = mountChat(`<tether-action name="create_issue" description="File an issue." confirm
    parameters='{"type":"object","properties":{"title":{"type":"string"}}}'></tether-action>`);
  const action = f.root.querySelector<TetherAction>("tether-action")!;
  action.handler = () => ({ created: 68 });
  f.rt.respond = (body: Body, turn) => {
    if (!body.tool_call_id) {
      turn.start();
      turn.hostCall("create_issue", { title: "Dark mode" });
      turn.end();
    } else void turn.reply(body.tool_outcome === "failed" ? "Nothing changed." : "Created #68.");
  };
  return action;
}

describe("<tether-chat> follows the conversation", () => {
  it("stays at the newest message through 10 turns with preview cards", async () => {
    f = mountChat();
    f.rt.respond = cardsTurn;
    for (let i = 1; i <= 10; i++) {
      await f.chat.send(`find issue ${i}`);
      await until(() => f.$$("tether-card").length === i * 2, `the cards of turn ${i}`);
      await frames();
      ok(atEnd(), `at the end after turn ${i} (${log().scrollTop} of ${log().scrollHeight})`);
    }
    ok(log().scrollHeight > log().clientHeight * 2, "the conversation is longer than the panel");
    ok(!f.$("[part=new-messages]"), "no button while following");
  });

  it("leaves a reader who scrolled up in place, offers New messages, and follows again from it", async () => {
    f = mountChat();
    f.rt.respond = cardsTurn;
    for (let i = 1; i <= 6; i++) await f.chat.send(`find issue ${i}`);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    f.rt.respond = async (body, turn) => (await held, cardsTurn(body, turn));
    const sent = f.chat.send("one more");
    await frames();
    // The user scrolls up to read while the answer is on its way.
    log().scrollTop = 0;
    await frames();
    release();
    await sent;
    await until(() => f.$$("tether-card").length === 14, "the new cards");
    await frames();
    equal(log().scrollTop, 0, "the reader's place is kept");
    const jump = await until(() => f.$<HTMLButtonElement>("[part=new-messages]"), "the button");
    match(jump.textContent!, /New messages/);
    jump.click();
    await frames();
    ok(atEnd(), "the button goes to the newest message");
    f.rt.respond = cardsTurn;
    await f.chat.send("and another");
    await until(() => f.$$("tether-card").length === 16, "the next cards");
    await frames();
    ok(atEnd(), "and the chat follows again");
    ok(!f.$("[part=new-messages]"), "the button is gone");
  });

  it("on a phone, draws the settled Applied box in place, before the answer, and keeps the answer in view", async () => {
    await setViewport({ width: 390, height: 844 });
    try {
      const action = mountCreateIssue();
      f.root.style.height = "422px"; // the demo gives the chat half a phone's screen
      action.preview = () =>
        Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of the preview`).join("\n");
      const done = f.chat.send("create issue");
      const confirm = await until(() => f.$<TetherConfirm>("tether-confirm[data-open]"), "preview");
      await confirm.updateComplete;
      await frames();
      confirm.shadowRoot!.querySelector<HTMLButtonElement>("[part=apply]")!.click();
      await done;
      const answer = await until(
        () => f.$$("[part~=message-assistant] .text").find((t) => t.textContent!.includes("#68")),
        "the answer",
      );
      await frames(6);
      const settled = f.$<TetherConfirm>("tether-confirm")!;
      equal(settled.state, "applied");
      ok(
        settled.compareDocumentPosition(answer) & Node.DOCUMENT_POSITION_FOLLOWING,
        "the settled box comes before the answer",
      );
      const [box, seen] = [log().getBoundingClientRect(), answer.getBoundingClientRect()];
      ok(
        seen.top >= box.top && seen.bottom <= box.bottom,
        `the answer is in view (${seen.top}..${seen.bottom} in ${box.top}..${box.bottom})`,
      );
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });
});

describe("<tether-chat> focus and heading", () => {
  it("has a heading element with its title", async () => {
    f = mountChat();
    await f.chat.updateComplete;
    const heading = f.$("h2[part=heading]");
    ok(heading, "an h2");
    match(heading!.textContent!, /Assistant/);
    equal(f.$("[part=panel]")!.getAttribute("aria-labelledby"), heading!.id);
  });

  it("keeps the focus in the composer after the Send button and after Enter", async () => {
    f = mountChat();
    await f.chat.updateComplete;
    f.rt.respond = (_body, turn) => turn.reply("Sure.");
    const input = f.$<HTMLTextAreaElement>("textarea")!;
    input.focus();
    input.value = "hello";
    f.$<HTMLButtonElement>("[part=send]")!.click();
    ok(composerFocused(), `the composer has the focus, not ${focused()?.localName}`);
    await until(() => f.rt.sent.length === 1 && !f.$("[part=stop]"), "the turn to end");
    ok(composerFocused(), "still after the turn");
    await sendKeys({ type: "again" });
    await sendKeys({ press: "Enter" });
    await until(() => f.rt.sent.length === 2, "the second message");
    ok(composerFocused(), "after Enter too");
  });

  for (const decision of ["apply", "cancel"] as const) {
    it(`gives the focus back to the composer after ${decision === "apply" ? "Apply" : "Cancel"}`, async () => {
      mountCreateIssue();
      await f.chat.updateComplete;
      f.$<HTMLTextAreaElement>("textarea")!.focus();
      const done = f.chat.send("create issue");
      const confirm = await until(
        () => f.$<TetherConfirm>("tether-confirm[data-open]"),
        "the preview",
      );
      await confirm.updateComplete;
      const waiting = await until(() => f.$("[part~=tool-confirming]"), "the card waiting");
      equal(waiting.querySelector(".state")!.textContent, "Waiting for you", "not running yet");
      match(confirm.shadowRoot!.querySelector(".label")!.textContent!, /Create issue/);
      confirm.shadowRoot!.querySelector<HTMLButtonElement>(`[part=${decision}]`)!.click();
      await done;
      await frames();
      ok(
        composerFocused(),
        `the composer has the focus, not ${
          focused()?.localName ?? document.activeElement?.localName
        }`,
      );
      if (decision === "cancel") {
        const card = await until(() => f.$("[part~=tool-cancelled]"), "the cancelled card");
        equal(card.querySelector(".state")!.textContent, "Cancelled");
        equal((card.textContent!.match(/cancel/gi) ?? []).length, 1, "worded once");
        ok(!f.$("[part~=tool-failed]") && !f.$("[part=error]"), "no failure anywhere");
      } else {
        await until(() => f.$("[part~=tool-done]"), "the done card");
      }
    });
  }
});
