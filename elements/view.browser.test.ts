/**
 * `<tether-view>` and `<tether-action>` in Chromium: what they declare in the
 * host context, how they find their chat, the event form of a handler, and
 * clean-up when they leave the page.
 */
import { deepEqual, equal, match, ok } from "../tests/browser/_assert.ts";
import type { Body } from "./_fake_runtime.ts";
import { type ChatFixture, mountChat, until } from "./_test_fixture.ts";
import type { TetherAction } from "./action.ts";
import type { TetherView } from "./view.ts";

let f: ChatFixture;
afterEach(() => f?.dispose());

/** The model calls `tool` once with `args`; resolves with the continuation the host sent. */
async function callOnce(tool: string, args: Record<string, unknown>): Promise<Body> {
  f.rt.respond = (body, turn) => {
    if (body.tool_call_id) return turn.reply("ok");
    turn.start();
    turn.hostCall(tool, args);
    turn.end();
  };
  await f.chat.send(`call ${tool}`);
  return f.rt.sent[1];
}

describe("<tether-view>", () => {
  it("declares the view, read fresh for every message, and lays its children out untouched", async () => {
    f = mountChat(
      `<tether-view name="issues" description="The issue list."><p id="inside">list</p></tether-view>`,
    );
    const view = f.root.querySelector<TetherView>("tether-view")!;
    view.data = { issues: [{ number: 42, title: "Fix login" }] };
    view.state = { filters: { label: "bug" } };
    const context = await f.host.context();
    deepEqual(context.view, {
      name: "issues",
      description: "The issue list.",
      data: { issues: [{ number: 42, title: "Fix login" }] },
      state: { filters: { label: "bug" } },
    });
    equal(getComputedStyle(view).display, "contents");
    ok(
      f.root.querySelector("#inside")!.getBoundingClientRect().height > 0,
      "slotted content is shown",
    );
    view.name = "issue";
    view.state = { selected: 42 };
    deepEqual((await f.host.context()).view?.state, { selected: 42 });
    equal((await f.host.context()).view?.name, "issue");
    view.remove();
    equal((await f.host.context()).view, undefined, "a removed view is withdrawn");
  });

  it("binds to the chat its `for` attribute names", async () => {
    f = mountChat();
    const other = mountChat();
    try {
      const view = document.createElement("tether-view") as TetherView;
      view.name = "settings";
      view.setAttribute("for", other.chat.id);
      document.body.append(view);
      await view.updateComplete;
      equal((await other.host.context()).view?.name, "settings");
      equal((await f.host.context()).view, undefined);
      view.remove();
    } finally {
      other.dispose();
    }
  });
});

describe("<tether-action>", () => {
  it("declares its name, description and JSON parameters; a change re-registers it", async () => {
    f = mountChat(`<tether-action name="select_issue" description="Select an issue."
      parameters='{"type":"object","properties":{"number":{"type":"integer"}},"required":["number"]}'></tether-action>`);
    const action = f.root.querySelector<TetherAction>("tether-action")!;
    await action.updateComplete;
    const [declared] = (await f.host.context()).actions!;
    equal(declared.name, "select_issue");
    equal(declared.description, "Select an issue.");
    deepEqual(declared.parameters.required, ["number"]);
    action.name = "pick_issue";
    await action.updateComplete;
    deepEqual((await f.host.context()).actions!.map((a) => a.name), ["pick_issue"]);
    action.remove();
    equal((await f.host.context()).actions, undefined, "a removed action is withdrawn");
  });

  it("without a handler property, a tether-action event answers with respondWith()", async () => {
    f = mountChat(
      `<tether-action name="count_rows" description="Count the rows."></tether-action>`,
    );
    f.root.addEventListener("tether-action", (e) => {
      equal(e.name, "count_rows");
      e.respondWith(Promise.resolve({ rows: 3, asked: e.args }));
    });
    const continuation = await callOnce("count_rows", { table: "issues" });
    deepEqual(continuation.tool_result, { rows: 3, asked: { table: "issues" } });
  });

  it("a cancelled tether-action event declines the call; no listener fails it clearly", async () => {
    f = mountChat(`<tether-action name="wipe" description="Wipe it."></tether-action>`);
    const decline = (e: Event) => e.preventDefault();
    f.root.addEventListener("tether-action", decline);
    let continuation = await callOnce("wipe", {});
    equal(continuation.tool_outcome, "failed");
    match(continuation.tool_result, /the page declined wipe/);
    f.root.removeEventListener("tether-action", decline);
    f.rt.sent.length = 0;
    continuation = await callOnce("wipe", {});
    match(continuation.tool_result, /nothing on the page handles wipe/);
  });

  it("a second action with a taken name is reported, not thrown, and the first keeps working", async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (message: string) => errors.push(message);
    try {
      f = mountChat(
        `<tether-action name="dup" description="One."></tether-action><tether-action name="dup" description="Two."></tether-action>`,
      );
      await until(() => errors.length, "the reported duplicate");
      match(errors[0], /<tether-action>: An action named dup is already registered/);
      equal((await f.host.context()).actions!.length, 1);
    } finally {
      console.error = original;
    }
  });
});
