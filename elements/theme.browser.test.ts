/**
 * Theming in Chromium: custom properties and `::part` reach into the
 * elements, light and dark follow the `theme` attribute, and CSS crosses the
 * shadow boundary in neither direction otherwise.
 */
import { equal, ok } from "../tests/browser/_assert.ts";
import { type ChatFixture, mountChat, until } from "./_test_fixture.ts";

let f: ChatFixture;
let style: HTMLStyleElement;
afterEach(() => {
  f?.dispose();
  style?.remove();
});

const page = (css: string) => {
  style = document.createElement("style");
  style.textContent = css;
  document.head.append(style);
};

describe("theming", () => {
  it("custom properties and ::part style the inside of the chat", async () => {
    page(`tether-chat { --tether-accent: rgb(1, 2, 3); --tether-radius: 3px; }
      tether-chat::part(panel) { border-width: 5px; }`);
    f = mountChat();
    const send = await until(() => f.$("[part=send]"), "Send");
    equal(getComputedStyle(send).backgroundColor, "rgb(1, 2, 3)");
    equal(getComputedStyle(f.$("[part=panel]")!).borderTopWidth, "5px");
    equal(getComputedStyle(f.$("[part=panel]")!).borderTopLeftRadius, "3px");
  });

  it("the theme attribute switches light and dark", async () => {
    f = mountChat();
    const panel = await until(() => f.$("[part=panel]"), "the panel");
    f.chat.theme = "light";
    await f.chat.updateComplete;
    equal(getComputedStyle(panel).backgroundColor, "rgb(255, 255, 255)");
    f.chat.theme = "dark";
    await f.chat.updateComplete;
    equal(f.chat.getAttribute("theme"), "dark");
    equal(getComputedStyle(panel).backgroundColor, "rgb(20, 23, 29)");
  });

  it("page CSS does not leak in, and the elements' CSS does not leak out", async () => {
    page(
      `button { font-size: 40px !important; background: rgb(9, 9, 9) !important; } p, .text, .panel { color: rgb(200, 0, 0) !important; }`,
    );
    f = mountChat(`<button id="outside">outside</button><p class="message">outside</p>`);
    const send = await until(() => f.$("[part=send]"), "Send");
    ok(
      getComputedStyle(send).fontSize !== "40px",
      "a page rule for button does not reach the chat's buttons",
    );
    ok(
      getComputedStyle(f.$("[part=panel]")!).color !== "rgb(200, 0, 0)",
      "a page rule for .panel does not reach the chat's panel",
    );
    const outside = f.root.querySelector<HTMLElement>("p.message")!;
    equal(
      getComputedStyle(outside).color,
      "rgb(200, 0, 0)",
      "the page's own rule still applies to the page",
    );
    equal(
      getComputedStyle(outside).maxWidth,
      "none",
      "the chat's .message rule does not reach the page",
    );
    equal(getComputedStyle(f.root.querySelector("#outside")!).fontSize, "40px");
  });
});
