/**
 * The elements against the real runtime the test setup starts (offline
 * model, memory store): a chat made from its attributes alone, a markup
 * action the model calls, the page changing, and the model's final answer.
 */
import { equal, match, ok } from "../tests/browser/_assert.ts";
import { runtimeUrls } from "../tests/browser/_runtime.ts";
import { until } from "./_test_fixture.ts";
import type { TetherAction } from "./action.ts";
import type { TetherChat } from "./chat.ts";
import "./define.ts";

describe("elements on the runtime", () => {
  it("'select issue 42' selects the issue on the page and the offline model reports it", async () => {
    const { proxied } = await runtimeUrls();
    const root = document.createElement("div");
    root.style.height = "480px";
    root.innerHTML = `
      <ul><li data-n="7">#7</li><li data-n="42">#42</li></ul>
      <tether-chat runtime-url="${proxied}" session-id="elements-${
      crypto.randomUUID().slice(0, 8)
    }"></tether-chat>
      <tether-view name="issues" description="Two issues."></tether-view>
      <tether-action name="select_issue" description="Select an issue in the list."
        parameters='{"type":"object","properties":{"number":{"type":"integer"}},"required":["number"]}'></tether-action>`;
    document.body.append(root);
    const chat = root.querySelector<TetherChat>("tether-chat")!;
    try {
      root.querySelector<TetherAction>("tether-action")!.handler = ({ number }) => {
        const item = root.querySelector(`li[data-n="${number}"]`);
        if (!item) throw new Error(`no issue #${number}`);
        item.classList.add("selected");
        return { selected: number };
      };
      ok(chat.host, "the chat made its host from runtime-url");
      await chat.send("select issue 42");
      ok(root.querySelector('li[data-n="42"]')!.classList.contains("selected"), "the page changed");
      const log = chat.shadowRoot!.querySelector(".log")!;
      await until(
        () => /Done: select issue \(/.test(log.textContent!),
        "the final answer",
        10_000,
      );
      match(log.textContent!.replace(/\s+/g, " "), /Select issue Done selected: 42/);
      equal(chat.host!.state.get().pending, null);
    } finally {
      chat.host?.close();
      root.remove();
    }
  });
});
