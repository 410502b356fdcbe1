/**
 * The confirmation and approval UI in Chromium: a preview with Apply and
 * Cancel before a `<tether-action confirm>` runs, the second confirmation of
 * a destructive action, the waiting-for-approval state with its countdown,
 * and the keyboard.
 */
import { sendKeys } from "@web/test-runner-commands";
import { equal, match, ok } from "../tests/browser/_assert.ts";
import type { Body } from "./_fake_runtime.ts";
import { type ChatFixture, mountChat, until } from "./_test_fixture.ts";
import type { TetherAction } from "./action.ts";
import type { TetherConfirm } from "./confirm.ts";

let f: ChatFixture;
afterEach(() => f?.dispose());

const confirmEl = () => f.$<TetherConfirm>("tether-confirm[data-open]");
const inConfirm = (el: TetherConfirm, selector: string) =>
  el.shadowRoot!.querySelector<HTMLButtonElement>(selector);

/** A chat with one confirmed action whose handler counts its runs; the model calls it once. */
function withAction(attributes: string) {
  f = mountChat(`<tether-action name="create_issue" description="File an issue." ${attributes}
    parameters='{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}'></tether-action>`);
  const runs: unknown[] = [];
  const action = f.root.querySelector<TetherAction>("tether-action")!;
  action.handler = (args) => (runs.push(args), { created: 68 });
  action.preview = ({ title }) => `Create the issue “${title}”.`;
  f.rt.respond = (body: Body, turn) => {
    if (!body.tool_call_id) {
      turn.start();
      turn.hostCall("create_issue", { title: "Dark mode flickers" });
      turn.end();
    } else {void turn.reply(
        body.tool_outcome === "failed" ? `Not done: ${body.tool_result}` : "Created #68.",
      );}
  };
  return runs;
}

describe("confirmations", () => {
  it("Apply runs the action after the user saw its preview; the composer waits meanwhile", async () => {
    const runs = withAction("confirm");
    const done = f.chat.send("create issue");
    const confirm = await until(confirmEl, "the confirmation");
    await confirm.updateComplete;
    match(
      inConfirm(confirm, "[part=preview]")!.textContent!,
      /Create the issue “Dark mode flickers”\./,
    );
    equal(runs.length, 0, "nothing runs before Apply");
    ok(f.$("textarea[readonly]"), "the composer is locked while the user decides");
    match(f.$("[part=notice]")!.textContent!, /Waiting for your decision/);
    equal(
      confirm.shadowRoot!.activeElement?.getAttribute("part"),
      "apply",
      "Apply takes the focus",
    );
    inConfirm(confirm, "[part=apply]")!.click();
    await done;
    equal(runs.length, 1);
    equal(f.rt.sent[1].tool_outcome, undefined);
    equal(confirm.state, "applied");
    await until(() => f.$(".log")!.textContent!.includes("Created #68."), "the answer");
  });

  it("Cancel does not run the action and tells the model it was cancelled", async () => {
    const runs = withAction("confirm");
    const done = f.chat.send("create issue");
    const confirm = await until(confirmEl, "the confirmation");
    await confirm.updateComplete;
    inConfirm(confirm, "[part=cancel]")!.click();
    await done;
    equal(runs.length, 0);
    equal(f.rt.sent[1].tool_outcome, "failed");
    equal(f.rt.sent[1].tool_result, "The user cancelled create_issue; nothing was changed.");
    equal(confirm.state, "cancelled");
    await until(() => f.$("[part~=tool-cancelled]"), "the cancelled tool card");
    ok(!f.$("[part~=tool-failed]"), "a decline is not a failure");
  });

  it("a destructive action asks a second time, with the focus on Cancel", async () => {
    const runs = withAction("destructive");
    const done = f.chat.send("delete it");
    const confirm = await until(confirmEl, "the confirmation");
    await confirm.updateComplete;
    match(inConfirm(confirm, "[part=apply]")!.textContent!, /Continue/);
    inConfirm(confirm, "[part=apply]")!.click();
    await until(() => confirm.state === "confirm-again", "the second confirmation");
    await confirm.updateComplete;
    match(confirm.shadowRoot!.textContent!, /cannot be undone/);
    match(confirm.shadowRoot!.textContent!, /Cancel has the focus, so Enter cancels/);
    equal(runs.length, 0, "one Apply is not enough");
    equal(
      confirm.shadowRoot!.activeElement?.getAttribute("part"),
      "cancel",
      "the safe choice has the focus",
    );
    inConfirm(confirm, "[part=apply]")!.click();
    await done;
    equal(runs.length, 1);
  });

  it("Escape cancels an open confirmation", async () => {
    const runs = withAction("confirm");
    const done = f.chat.send("create issue");
    const confirm = await until(confirmEl, "the confirmation");
    await until(() => confirm.shadowRoot!.activeElement, "the focus in the confirmation");
    await sendKeys({ press: "Escape" });
    await done;
    equal(runs.length, 0);
    equal(confirm.state, "cancelled");
    equal(f.rt.cancels, 0, "Escape in a confirmation does not stop the turn as well");
  });

  it("shows an approval hold with its reason and the time left, until it is settled", async () => {
    f = mountChat();
    const hold = f.chat.approval({
      action: "run_shell",
      reason: "Shell commands need a person's approval.",
      expires: Date.now() + 65_000,
    });
    const confirm = await until(confirmEl, "the approval hold");
    await confirm.updateComplete;
    equal(confirm.state, "waiting");
    match(confirm.shadowRoot!.textContent!, /Waiting for approval/);
    match(
      inConfirm(confirm, "[part=reason]")!.textContent!,
      /Shell commands need a person's approval\./,
    );
    match(inConfirm(confirm, "[part=countdown]")!.textContent!, /^1:0[45] left$/);
    hold.settle("applied");
    await until(() => confirm.state === "applied", "the settled state");
    ok(!f.$("tether-confirm[data-open]"));
  });

  it("an approval hold expires on its own clock; Stop waiting resolves `stopped`", async () => {
    f = mountChat();
    f.chat.approval({
      action: "deploy",
      reason: "Deploys need approval.",
      expires: Date.now() + 900,
    });
    const first = await until(confirmEl, "the first hold");
    await until(() => first.state === "expired", "the expiry", 4000);
    match(first.shadowRoot!.textContent!, /No approval arrived in time/);
    const hold = f.chat.approval({ action: "deploy", reason: "Deploys need approval." });
    const second = await until(confirmEl, "the second hold");
    await second.updateComplete;
    inConfirm(second, "[part=cancel]")!.click();
    await hold.stopped;
    equal(second.state, "cancelled");
  });
});
