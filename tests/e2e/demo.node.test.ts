// deno-lint-ignore-file no-explicit-any -- the demo page's globals (tracker), read in page.evaluate
/**
 * End to end: the runtime serving the demo exactly as `npm start` does (the
 * demo built with esbuild and served at `/`, here on a free port with the
 * memory store and the offline model), driven in headless Chromium through
 * playwright-core. The offline model selects an issue, filters the list, and
 * files an issue after the user applies its preview, and a reload shows the
 * conversation again; screenshots of each result go to test-output/. Then
 * the chat as people use it: no console error on a fresh session, the focus
 * back in the composer after Send, Apply and Cancel, a Cancel that reads
 * "Cancelled", a preview still open after a reload, the tracker's data kept
 * across a reload, the conversation following ten turns with cards, and a
 * phone-sized page that scrolls the changed issue into view. Screenshots go
 * to test-output/; the README's are taken by tests/e2e/composed.node.test.ts.
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
  const consoleErrors: string[] = [];

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
    page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
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

  /** Whether the chat's composer has the focus. */
  const composerFocused = (p: Page = page) =>
    p.evaluate(() =>
      document.activeElement?.localName === "tether-chat" &&
      document.activeElement.shadowRoot?.activeElement?.localName === "textarea"
    );

  test("a fresh session logs no console error (no 404 for the session not started yet)", async () => {
    await page.waitForTimeout(300);
    assert.deepEqual(consoleErrors, []);
  });

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
    assert.ok(await composerFocused(), "the focus is back in the composer after Apply");
    // "show only bugs" was on; the new issue is labelled ui, so the filters make way for it.
    const created = page.locator("#app .row.selected", { hasText: "Dark mode flickers on resume" });
    assert.ok(await created.isVisible(), "the new issue is in the list");
    assert.equal(await page.locator('#app .chip[aria-pressed="true"]').count(), 0);
    await page.locator("tether-chat [part~=message-assistant]", {
      hasText: "the filters were cleared",
    }).waitFor();
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

  test("Send keeps the focus in the composer, by button and by Enter", async () => {
    const input = page.locator("tether-chat textarea");
    await input.fill("select issue 12");
    await page.locator("tether-chat [part=send]").click();
    assert.ok(await composerFocused(), "after the Send button");
    await page.locator('#app .row.selected[data-number="12"]').waitFor();
    await input.fill("select issue 15");
    await input.press("Enter");
    assert.ok(await composerFocused(), "after Enter");
    await page.locator('#app .row.selected[data-number="15"]').waitFor();
  });

  test("Cancel reads Cancelled, once and neutrally, and the focus is back in the composer", async () => {
    await ask(`create issue "Never mind this one"`);
    const confirm = page.locator("tether-chat tether-confirm[data-open]");
    await confirm.locator("[part=cancel]").click();
    const card = page.locator("tether-chat [part~=tool-cancelled]").last();
    await card.waitFor();
    assert.equal(await card.locator(".state").innerText(), "Cancelled");
    assert.equal(((await card.innerText()).match(/cancel/gi) ?? []).length, 1, "worded once");
    await page.locator("tether-chat [part~=message-assistant]", {
      hasText: "You cancelled “Create issue”; nothing was changed.",
    }).waitFor();
    assert.equal(await page.locator("tether-chat [part~=tool-failed]").count(), 0);
    assert.equal(await page.locator("tether-chat [part=error]").count(), 0);
    assert.ok(await composerFocused(), "the focus is back in the composer after Cancel");
    assert.equal(await page.locator("#app .row", { hasText: "Never mind this one" }).count(), 0);
  });

  test("a reload with a preview open shows the same preview again, and Apply still works", async () => {
    await ask(`create issue "Survives a reload" label docs`);
    const preview = page.locator("tether-chat tether-confirm[data-open] [part=preview]");
    await preview.waitFor();
    const text = await preview.innerText();
    await page.reload();
    await page.locator("tether-chat [part=connection]", { hasText: "Connected" }).waitFor();
    await preview.waitFor();
    assert.equal(await preview.innerText(), text, "the same preview");
    assert.equal(await page.locator("tether-chat [part~=tool-unknown]").count(), 0);
    assert.ok(!(await page.locator("tether-chat").innerText()).includes("unknown"));
    await page.locator("tether-chat tether-confirm[data-open] [part=apply]").click();
    await page.locator("#app .row", { hasText: "Survives a reload" }).waitFor();
    assert.equal(
      await page.evaluate(() =>
        (globalThis as any).tracker.state.issues.filter((i: any) => i.title === "Survives a reload")
          .length
      ),
      1,
      "created once",
    );
  });

  test("the tracker keeps its data across a reload, as the conversation says", async () => {
    await ask("close 42");
    await page.locator("tether-chat [part~=message-assistant]", {
      hasText: "Done: change status (",
    }).waitFor();
    await page.reload();
    await page.waitForFunction(() => "tracker" in globalThis);
    await page.locator("tether-chat [part~=message-assistant]", {
      hasText: "Done: change status (",
    }).waitFor();
    await page.locator("tether-chat tether-card").last().waitFor();
    await page.waitForTimeout(300);
    assert.ok(
      await page.evaluate(() => {
        const log = document.querySelector("tether-chat")!.shadowRoot!.querySelector(".log")!;
        return log.scrollHeight > log.clientHeight &&
          log.scrollHeight - log.scrollTop - log.clientHeight < 40;
      }),
      "after the reload the conversation sits at its newest message",
    );
    const state = await page.evaluate(() => (globalThis as any).tracker.get(42).state);
    assert.equal(state, "closed", "issue 42 is still closed");
    assert.ok(
      await page.evaluate(() =>
        (globalThis as any).tracker.state.issues.some((i: any) => i.title === "Survives a reload")
      ),
      "the issue filed before the reload is still there",
    );
  });

  test("the conversation follows the newest message through ten turns with cards", async () => {
    const atEnd = () =>
      page.evaluate(() => {
        const log = document.querySelector("tether-chat")!.shadowRoot!.querySelector(".log")!;
        return log.scrollHeight - log.scrollTop - log.clientHeight < 40;
      });
    const numbers = [7, 12, 15, 19, 27, 31, 38, 45, 51, 55];
    for (const [i, n] of numbers.entries()) {
      const before = await page.locator("tether-chat tether-card").count();
      await ask(`select issue ${n}`);
      await page.waitForFunction(
        (count) =>
          document.querySelector("tether-chat")!.shadowRoot!.querySelectorAll("tether-card")
            .length > count,
        before,
      );
      await page.waitForTimeout(100);
      assert.ok(await atEnd(), `at the newest message after turn ${i + 1}`);
    }
    assert.deepEqual(consoleErrors, [], "no console errors");
  });

  test("a few requests and a preview waiting for Apply on the desktop", async () => {
    const desk = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await desk.goto(`${runtime.url}/`);
    await desk.locator("tether-chat [part=connection]", { hasText: "Connected" }).waitFor();
    const input = desk.locator("tether-chat textarea");
    const answers = desk.locator("tether-chat [part~=message-assistant]");
    for (const text of ["select issue 42", "show me the issues assigned to alice"]) {
      const before = await answers.count();
      await input.fill(text);
      await input.press("Enter");
      await desk.waitForFunction(
        (n) =>
          document.querySelector("tether-chat")!.shadowRoot!.querySelectorAll(
              "[part~=message-assistant]",
            ).length > n && !document.querySelector("tether-chat")!.shadowRoot!.querySelector(
              "[part=stop]",
            ),
        before,
      );
    }
    await input.fill(`create issue "Dark mode flickers on resume" label ui`);
    await input.press("Enter");
    await desk.locator("tether-chat tether-confirm[data-open] [part=preview]").waitFor();
    await desk.waitForTimeout(400);
    await desk.screenshot({ path: join(OUTPUT, "demo-desk.png") });
    await desk.close();
  });

  test("on a phone, the issue an action changed is scrolled into view", async () => {
    const phone = await browser.newPage({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const phoneErrors: string[] = [];
    phone.on("console", (m) => m.type() === "error" && phoneErrors.push(m.text()));
    await phone.goto(`${runtime.url}/`);
    await phone.locator("tether-chat [part=connection]", { hasText: "Connected" }).waitFor();
    const input = phone.locator("tether-chat textarea");
    await input.fill("select issue 7");
    await input.press("Enter");
    const row = phone.locator('#app .row.selected[data-number="7"]');
    await row.waitFor();
    await phone.waitForFunction(() => {
      const row = document.querySelector('#app .row[data-number="7"]')!.getBoundingClientRect();
      const app = document.querySelector("#app")!.getBoundingClientRect();
      return row.top >= app.top && row.bottom <= app.bottom;
    });
    await phone.locator("tether-chat [part~=message-assistant]", {
      hasText: "Done: select issue (",
    })
      .waitFor();
    await phone.waitForTimeout(400);
    await phone.screenshot({ path: join(OUTPUT, "demo-phone.png") });
    assert.deepEqual(phoneErrors, []);
    await phone.close();
  });
});
