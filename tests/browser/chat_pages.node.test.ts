// deno-lint-ignore-file no-explicit-any -- the page's test hooks
/**
 * `<tether-chat>` on real pages (node:test driving Chromium, a real
 * runtime): a reloaded page shows the conversation so far, with each call's
 * status and the image the user sent; a second page on the same session
 * follows a turn the first page started, over SSE and over Socket.IO, and
 * runs none of its calls. Screenshots go to test-output/.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { spawnRuntime } from "./spawn_runtime.mjs";
import { launchChromium, messages, startLab, until } from "./_lab.ts";
// The tags typed in page.evaluate: document.querySelector("tether-chat") is a TetherChat.
import type {} from "../../elements/global.ts";

const OUTPUT = fileURLToPath(new URL("../../test-output/", import.meta.url));

describe("<tether-chat> on real pages", () => {
  let runtime: Awaited<ReturnType<typeof spawnRuntime>>;
  let lab: Awaited<ReturnType<typeof startLab>>;
  let browser: Browser;
  const errors: string[] = [];

  before(async () => {
    runtime = await spawnRuntime();
    lab = await startLab(() => runtime.url, "chat_page");
    browser = await launchChromium();
    mkdirSync(OUTPUT, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await lab?.close();
    await runtime?.stop();
    assert.deepEqual(errors, [], "the pages threw no errors");
  });

  const openChat = async (session: string, transport = "sse"): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 480, height: 620 } });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${lab.url}/?session=${session}&transport=${transport}`);
    await page.waitForFunction(() => "chatPage" in globalThis);
    return page;
  };
  const log = (page: Page): Promise<string> =>
    page.evaluate(() => (globalThis as any).chatPage.log());
  const shown = (page: Page) => page.evaluate(() => (globalThis as any).chatPage.shown());
  const runs = (page: Page): Promise<number[]> =>
    page.evaluate(() => (globalThis as any).chatPage.runs());
  const shows = (page: Page, text: string) =>
    until(async () => (await log(page)).includes(text), `the chat to show "${text}"`);

  test("a reload shows the conversation so far: the calls' status and the image sent", async () => {
    const session = `chat-reload-${Date.now()}`;
    const page = await openChat(session);
    await page.evaluate(() => (globalThis as any).chatPage.send("select issue 42", true));
    await shows(page, "Done: select issue (");
    const live = await shown(page);
    assert.deepEqual(live.tools, ["tool tool-done"]);
    assert.deepEqual(live.attachments, [{
      name: "screen.png",
      thumbnail: "data:image/jpeg;base64,",
    }]);

    await page.reload();
    await page.waitForFunction(() => "chatPage" in globalThis);
    await shows(page, "Done: select issue (");
    const text = await log(page);
    assert.match(text, /select issue 42/);
    assert.match(text, /Select issue Done selected: 42/);
    assert.deepEqual(await shown(page), live, "the same messages, cards and attachments as before");
    assert.deepEqual(await runs(page), [], "nothing ran again after the reload");
    await page.screenshot({ path: join(OUTPUT, "chat-after-reload.png") });
    await page.close();
  });

  for (const transport of ["sse", "socket.io"]) {
    test(`a second page follows a turn the first page started (${transport})`, async () => {
      const session = `chat-follow-${transport.replace(".", "")}-${Date.now()}`;
      const first = await openChat(session, transport);
      await first.evaluate(() => (globalThis as any).chatPage.send("hello"));
      await shows(first, "I am the offline assistant");

      const second = await openChat(session, transport);
      // It follows from when it connected: its history read and its stream open.
      await second.evaluate(() => document.querySelector("tether-chat")!.host!.connect());
      await shows(second, "hello");
      await first.evaluate(() => void (globalThis as any).chatPage.send("select issue 42"));
      await shows(second, "Done: select issue (");
      const text = await log(second);
      assert.match(text, /select issue 42/, "the first page's message is shown");
      assert.match(text, /Select issue Done selected: 42/, "with the call and its status");
      assert.deepEqual(
        await shown(second),
        await shown(first),
        "both pages show the same conversation",
      );
      assert.deepEqual(await runs(first), [42], "the first page ran the call");
      assert.deepEqual(await runs(second), [], "the second page ran nothing");
      const stored = await messages(runtime.url, session);
      assert.equal(stored.length, 4);
      assert.equal(stored[3].tool_calls[0].status, "completed");
      await second.screenshot({
        path: join(OUTPUT, `chat-follow-${transport.replace(".", "")}.png`),
      });
      await first.close();
      await second.close();
    });
  }
});
