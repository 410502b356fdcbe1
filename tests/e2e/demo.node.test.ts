/**
 * End to end: the runtime serving the demo exactly as `npm start` does (the
 * demo built with esbuild and served at `/`, here on a free port with the
 * memory store and the offline model), driven in headless Chromium through
 * playwright-core. The offline model selects an issue, filters the list, and
 * files an issue after the user applies its preview, and a reload shows the
 * conversation again; screenshots of each result go to test-output/.
 *
 * Chromium comes from CHROME_PATH, the system or the @sparticuz/chromium
 * devDependency (tests/browser/chromium.mjs); a test never downloads one.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../browser/_lab.ts";
import { buildDemo } from "../../scripts/build-demo.ts";
import { type Started, startNode } from "../../server/runtime/node.ts";

const OUTPUT = fileURLToPath(new URL("../../test-output/", import.meta.url));
describe("the demo end to end", () => {
  let runtime: Started;
  let browser: Browser;
  let page: Page;
  let staticRoot: string;
  const errors: string[] = [];

  before(async () => {
    staticRoot = await buildDemo({ outdir: mkdtempSync(join(tmpdir(), "tether-demo-")) });
    runtime = await startNode({
      port: 0,
      env: { STORE__URL: "memory:", MODEL__DEFAULT: "offline" },
      staticRoot,
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
    page.on("pageerror", (error) => errors.push(error.message));
    mkdirSync(OUTPUT, { recursive: true });
    await page.goto(`${runtime.url}/`);
    await page.locator("tether-chat [part=connection]", { hasText: "Connected" }).waitFor();
  });

  after(async () => {
    await browser?.close();
    await runtime?.close();
    rmSync(staticRoot, { force: true, recursive: true });
  });

  /** Types a message into the chat and sends it with Enter. */
  async function ask(text: string): Promise<void> {
    const input = page.locator("tether-chat textarea");
    await input.fill(text);
    await input.press("Enter");
  }

  test("the runtime serves the demo page and its bundle at /", async () => {
    assert.equal(await page.title(), "Acme Tracker · Tether demo");
    assert.equal(await page.locator("#app .row").count() > 5, true);
    const health = await (await fetch(`${runtime.url}/health`)).json();
    assert.equal(health.model, "offline");
  });

  test("'select issue 42': the page selects the issue and the model answers", async () => {
    await ask("select issue 42");
    await page.locator('#app .row.selected[data-number="42"]').waitFor();
    await page.locator("tether-chat [part~=tool-done]", { hasText: "Select issue" }).waitFor();
    await page.locator("tether-chat [part~=message-assistant]", {
      hasText: "Done: select issue (",
    }).waitFor();
    assert.match(
      await page.locator("#app .detail h2").innerText(),
      /#42\s+Fix login redirect loop/,
    );
    assert.equal(
      await page.locator("tether-chat tether-card").count(),
      1,
      "the result's preview card is shown",
    );
    await page.screenshot({ path: join(OUTPUT, "demo-select-issue.png") });
  });

  test("'show only bugs': the list keeps the bugs only", async () => {
    await ask("show only bugs");
    await page.locator("tether-chat [part~=message-assistant]", {
      hasText: "Done: show only (",
    }).waitFor();
    const rows = page.locator("#app .row");
    const count = await rows.count();
    assert.ok(count > 0);
    for (let i = 0; i < count; i++) {
      assert.match(await rows.nth(i).locator(".labels").innerText(), /bug/);
    }
    assert.equal(await page.locator('#app .chip[aria-pressed="true"]').innerText(), "bug");
    await page.screenshot({ path: join(OUTPUT, "demo-show-only-bugs.png") });
  });

  test("'create issue': the user applies the preview, then the issue exists", async () => {
    await ask(`create issue "Dark mode flickers on resume" label ui`);
    const confirm = page.locator("tether-chat tether-confirm[data-open]");
    await confirm.locator("[part=preview]", { hasText: "Dark mode flickers on resume" }).waitFor();
    await page.screenshot({ path: join(OUTPUT, "demo-confirm.png") });
    await confirm.locator("[part=apply]").click();
    await page.locator("tether-chat [part~=message-assistant]", {
      hasText: "Done: create issue (",
    }).waitFor();
    await page.locator("#app .detail h2", { hasText: "Dark mode flickers on resume" }).waitFor();
    assert.deepEqual(errors, [], "the page threw no errors");
  });

  test("a reload keeps the conversation in the chat, every call with its status", async () => {
    const before = await page.locator("tether-chat [part~=tool]").evaluateAll((cards) =>
      cards.map((c) => c.getAttribute("part"))
    );
    await page.reload();
    const chat = page.locator("tether-chat");
    for (
      const answer of [
        "Done: select issue (",
        "Done: show only (",
        "Done: create issue (",
      ]
    ) {
      await chat.locator("[part~=message-assistant]", { hasText: answer }).waitFor();
    }
    await chat.locator("[part~=message-user]", { hasText: "select issue 42" }).waitFor();
    const after = await page.locator("tether-chat [part~=tool]").evaluateAll((cards) =>
      cards.map((c) => c.getAttribute("part"))
    );
    assert.deepEqual(after, before, "the same tool cards, with the same statuses");
    assert.ok(
      after.length >= 3 && after.every((part) => part === "tool tool-done"),
      `every call done: ${after}`,
    );
    await page.screenshot({ path: join(OUTPUT, "demo-after-reload.png") });
    assert.deepEqual(errors, [], "the page threw no errors");
  });
});
