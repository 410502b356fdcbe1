/**
 * Preview cards and model text in Chromium: the contract's sanitising rules
 * for `display`, and that a `javascript:` link or an `<img onerror>` in a
 * card or in the model's text never executes.
 */
import { deepEqual, equal, ok } from "../tests/browser/_assert.ts";
import { type ChatFixture, mountChat, until } from "./_test_fixture.ts";
import type { TetherCard } from "./card.ts";
import { cardsOf, turnCards } from "./display.ts";

const w = window as unknown as { __pwned?: unknown };
let f: ChatFixture | undefined;
afterEach(() => {
  f?.dispose();
  f = undefined;
  delete w.__pwned;
});

const EVIL = [
  {
    title: `<img src=x onerror="window.__pwned='title'">`,
    url: "https://shop.example.com/1",
    image: "https://cdn.example.com/1.png",
  },
  { title: "Script link", url: "javascript:window.__pwned='url'" },
  { title: "Data link", url: "data:text/html,<script>window.__pwned='data'</script>" },
  { title: "Relative", url: "/product/2" },
  {
    title: "Plain http image",
    url: "http://shop.example.com/3",
    image: "http://cdn.example.com/3.png",
    subtitle: "<b>bold?</b>",
  },
  {
    title: "Image handler",
    url: "https://shop.example.com/4",
    image: "javascript:window.__pwned='image'",
    badges: ["<i>x</i>", 7, "b", "c", "d", "e"],
  },
];

describe("preview cards", () => {
  it("follow the contract: no http(s) url drops the entry, a non-https image is cleared, text is trimmed", () => {
    const cards = cardsOf({
      display: [
        ...EVIL,
        { title: "x".repeat(200), url: "https://a.example/long", subtitle: "y".repeat(150) },
        "junk",
        null,
      ],
    });
    deepEqual(cards.map((c) => c.url), [
      "https://shop.example.com/1",
      "http://shop.example.com/3",
      "https://shop.example.com/4",
      "https://a.example/long",
    ]);
    equal(cards[1].image, undefined);
    equal(cards[2].image, undefined);
    deepEqual(cards[2].badges, ["<i>x</i>", "b", "c", "d"]);
    equal(cards[3].title.length, 120);
    equal(cards[3].subtitle!.length, 100);
  });

  it("keep at most 6 per result and 8 per turn, de-duplicated by url", () => {
    const many = (prefix: string) => ({
      display: Array.from(
        { length: 9 },
        (_, i) => ({ title: `t${i}`, url: `https://${prefix}.example/${i % 7}` }),
      ),
    });
    equal(cardsOf(many("a")).length, 6);
    const turn = turnCards([many("a"), many("a"), many("b")]);
    equal(turn.length, 8);
    equal(new Set(turn.map((c) => c.url)).size, 8);
  });

  it("render as plain text with safe links; nothing in a card executes", async () => {
    f = mountChat();
    f.rt.respond = (_b, turn) => {
      turn.start();
      turn.toolResult("search_products", "r1", { results: [], display: EVIL }, "remote");
      turn.final("Here they are.");
      turn.end();
    };
    await f.chat.send("find products");
    const cards = await until(
      () => f!.$$<TetherCard>("tether-card").length === 3 && f!.$$<TetherCard>("tether-card"),
      "three cards",
    );
    await Promise.all(cards.map((c) => c.updateComplete));
    await new Promise((r) => setTimeout(r, 100));
    equal(w.__pwned, undefined);
    const first = cards[0].shadowRoot!;
    equal(
      first.querySelector("[part=title]")!.textContent,
      EVIL[0].title,
      "the title is text, not markup",
    );
    const links = cards.map((c) => c.shadowRoot!.querySelector("a")!);
    deepEqual(links.map((a) => a.protocol), ["https:", "http:", "https:"]);
    ok(links.every((a) => a.target === "_blank" && a.rel === "noopener noreferrer"));
    const images = cards.flatMap((c) => [...c.shadowRoot!.querySelectorAll("img")]);
    deepEqual(images.map((i) => i.src), ["https://cdn.example.com/1.png"]);
    equal(images[0].referrerPolicy, "no-referrer");
    const elements = cards.flatMap((c) => [...c.shadowRoot!.querySelectorAll("*")]);
    equal(elements.filter((e) => [...e.attributes].some((a) => a.name.startsWith("on"))).length, 0);
    equal(cards[1].shadowRoot!.querySelector("[part=subtitle]")!.textContent, "<b>bold?</b>");
  });

  it("an unsafe card set directly on <tether-card> renders nothing", async () => {
    const card = document.createElement("tether-card") as TetherCard;
    card.heading = "Click me";
    card.href = "javascript:window.__pwned='direct'";
    document.body.append(card);
    await card.updateComplete;
    equal(card.shadowRoot!.querySelector("a"), null);
    card.remove();
  });

  it("model text with an <img onerror> or a javascript: link never executes in the chat", async () => {
    f = mountChat();
    const evil =
      `Look: <img src=x onerror="window.__pwned='text'"> and [click](javascript:window.__pwned='link') ` +
      `and <a href="javascript:window.__pwned='a'">a</a>`;
    f.rt.respond = (_b, turn) => turn.reply(evil);
    await f.chat.send("be evil");
    const message = await until(() => f!.$("[part~=message-assistant] .text"), "the answer");
    await new Promise((r) => setTimeout(r, 100));
    equal(message.querySelectorAll("img, a, script").length, 0);
    ok(message.textContent!.includes(`<img src=x onerror="window.__pwned='text'">`));
    for (const a of f.$$<HTMLAnchorElement>("a")) a.click();
    equal(w.__pwned, undefined);
  });
});
