/**
 * `<tether-threads>` and `<tether-inspector>` on their own (real Chromium, a
 * real runtime): defined by the package's `elements/threads` and
 * `elements/inspector` entries, bound to a chat by its id, the panel lists
 * the chat's conversations and switches the chat between them; the chat
 * itself shows no Conversations button without `threads`.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { spawnRuntime } from "./spawn_runtime.mjs";
import { launchChromium, startLab, until } from "./_lab.ts";

describe("<tether-threads> on its own", () => {
  let runtime: Awaited<ReturnType<typeof spawnRuntime>>;
  let lab: Awaited<ReturnType<typeof startLab>>;
  let browser: Browser;
  const errors: string[] = [];

  before(async () => {
    runtime = await spawnRuntime();
    lab = await startLab(() => runtime.url, "threads_page");
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await lab?.close();
    await runtime?.stop();
    assert.deepEqual(errors, [], "the page threw no errors");
  });

  test("it lists the chat's conversations and switches the chat; the inspector follows", async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(lab.url);
    const chat = page.locator("tether-chat");
    await chat.locator("[part=connection]", { hasText: "Connected" }).waitFor();
    assert.equal(
      await chat.locator("[part=threads-toggle]").count(),
      0,
      "no button without threads",
    );
    const session = () =>
      page.evaluate(() => document.querySelector("tether-chat")!.host!.sessionId);
    const ask = async (text: string) => {
      await chat.locator("textarea").fill(text);
      await chat.locator("textarea").press("Enter");
      await chat.locator("[part~=message-assistant]").first().waitFor();
    };
    const threads = page.locator("tether-threads");
    await threads.locator("[part=new]").waitFor();
    await ask("hello there");
    const first = await session();
    await threads.locator("[part~=thread]", { hasText: "Hello there" }).waitFor();
    await threads.locator("[part=new]").click();
    await until(async () => (await session()) !== first, "a new conversation");
    await ask("what is on screen?");
    await threads.locator("[part~=thread]", { hasText: "What is on screen?" }).waitFor();
    assert.equal(
      await threads.locator("[part~=thread-current] [part=title]").innerText(),
      "What is on screen?",
    );
    await threads.locator("[part~=thread]", { hasText: "Hello there" }).locator("[part=open]")
      .click();
    await until(async () => (await session()) === first, "the switch back");
    await chat.locator("[part~=message-user]", { hasText: "hello there" }).waitFor();
    assert.equal(
      await chat.locator("[part~=message-user]", { hasText: "what is on screen" }).count(),
      0,
    );
    // The inspector follows the chat's host to the conversation shown.
    const inspector = page.locator("tether-inspector");
    await until(
      async () => (await inspector.locator("[part=connection]").innerText()).includes(first),
      "the inspector on the conversation shown",
    );
    await page.close();
  });

  test("the title field keeps the focus through updates while it is open (F2)", async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(lab.url);
    const chat = page.locator("tether-chat");
    await chat.locator("[part=connection]", { hasText: "Connected" }).waitFor();
    await chat.locator("textarea").fill("rename me later");
    await chat.locator("textarea").press("Enter");
    const threads = page.locator("tether-threads");
    const row = threads.locator("[part~=thread]", { hasText: "Rename me later" });
    await row.waitFor();
    await row.locator("[part=open]").focus();
    await page.keyboard.press("F2");
    const focusedPart = () =>
      page.evaluate(() =>
        document.querySelector("tether-threads")!.shadowRoot!.activeElement?.getAttribute("part")
      );
    await until(async () => (await focusedPart()) === "input", "the title field");
    // Anything that renders the panel again meanwhile (here: the element asked to update twice,
    // as a late rename answer or a list read again does) leaves the person typing in the field.
    for (let i = 0; i < 2; i++) {
      await page.evaluate(() =>
        (document.querySelector("tether-threads") as unknown as { requestUpdate(): void })
          .requestUpdate()
      );
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    }
    assert.equal(await focusedPart(), "input", "the field still has the focus");
    await page.keyboard.type("Renamed here");
    await page.keyboard.press("Enter");
    await threads.locator("[part~=thread]", { hasText: "Renamed here" }).waitFor();
    await page.close();
  });
});
