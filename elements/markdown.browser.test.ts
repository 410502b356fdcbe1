/**
 * The Markdown renderer in Chromium: the forms it supports, and that model
 * text can never inject markup, scripts or unsafe links.
 */
import { render } from "lit";
import { equal, ok } from "../tests/browser/_assert.ts";
import { renderMarkdown } from "./markdown.ts";

const box = (text: string) => {
  const el = document.createElement("div");
  render(renderMarkdown(text), el);
  return el;
};

describe("renderMarkdown", () => {
  it("renders paragraphs, line breaks, emphasis, code and strike-through", () => {
    const el = box(
      "Hello **bold** and *em* and _em2_ and `x < y` and ~~gone~~\nnext line\n\nsecond paragraph",
    );
    equal(el.querySelectorAll("p").length, 2);
    equal(el.querySelector("strong")!.textContent, "bold");
    equal([...el.querySelectorAll("em")].map((e) => e.textContent).join(","), "em,em2");
    equal(el.querySelector("code")!.textContent, "x < y");
    equal(el.querySelector("s")!.textContent, "gone");
    equal(el.querySelectorAll("br").length, 1);
  });

  it("keeps underscores inside words and escaped markers as text", () => {
    const el = box("call select_issue_now and \\*not em\\*");
    equal(el.querySelector("em"), null);
    equal(el.textContent!.trim(), "call select_issue_now and *not em*");
  });

  it("renders headings, lists, quotes, rules and fenced code", () => {
    const el = box(
      "# Title\n\n- one\n- two **2**\n\n3. three\n4. four\n\n> quoted\n\n---\n\n```js\nconst a = '<b>';\n```",
    );
    equal(el.querySelector("h3")!.textContent, "Title");
    equal(el.querySelectorAll("ul li").length, 2);
    equal(el.querySelector("ul strong")!.textContent, "2");
    equal(el.querySelector("ol")!.getAttribute("start"), "3");
    equal(el.querySelector("blockquote p")!.textContent, "quoted");
    ok(el.querySelector("hr"));
    equal(el.querySelector("pre code")!.textContent, "const a = '<b>';");
  });

  it("an unclosed fence (a stream cut mid-block) is code up to the end", () => {
    const el = box("Here:\n```\nline 1\nline 2");
    equal(el.querySelector("pre code")!.textContent, "line 1\nline 2");
  });

  it("links http(s) and mailto targets in a new tab without opener or referrer", () => {
    const el = box(
      "[docs](https://example.com/a) <mailto:team@example.com> and https://example.com/b.",
    );
    const links = [...el.querySelectorAll("a")];
    equal(
      links.map((a) => a.href).join(" "),
      "https://example.com/a mailto:team@example.com https://example.com/b",
    );
    for (const a of links) {
      equal(a.target, "_blank");
      equal(a.rel, "noopener noreferrer");
    }
    ok(el.textContent!.endsWith("https://example.com/b."), "the full stop is not part of the link");
  });

  it("never links javascript:, data: or vbscript: URLs, however they are spelled", () => {
    const el = box(
      "[a](javascript:alert%281%29) [b](JaVaScRiPt:alert) [c](data:text/html;base64,PHNjcmlwdD4=) " +
        "[d](vbscript:msgbox) [e](java&#09;script:alert) <javascript:alert(1)> [f](/relative/path)",
    );
    equal(el.querySelectorAll("a").length, 0);
    ok(el.textContent!.includes("a b c d e"), "the link texts stay readable");
  });

  it("shows raw HTML as text: no element, attribute or handler from the model reaches the DOM", async () => {
    const w = window as unknown as { __pwned?: number };
    delete w.__pwned;
    const el = box(
      `<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script> <a href="javascript:window.__pwned=3">x</a>\n\n` +
        `**<svg onload="window.__pwned=4">**`,
    );
    document.body.append(el);
    await new Promise((r) => setTimeout(r, 100));
    el.remove();
    equal(el.querySelectorAll("img, script, svg, a").length, 0);
    ok(
      el.textContent!.includes(`<img src=x onerror="window.__pwned=1">`),
      "the markup shows as text",
    );
    equal(w.__pwned, undefined);
    const handlers = [...el.querySelectorAll("*")].flatMap((e) =>
      [...e.attributes].filter((a) => a.name.startsWith("on"))
    );
    equal(handlers.length, 0, "no element carries an event handler attribute");
  });

  it("renders nothing for empty text", () => {
    equal(box("").textContent, "");
  });
});
