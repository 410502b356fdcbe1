// deno-lint-ignore-file no-explicit-any -- the demo page's globals (tracker, host), read in page.evaluate
/**
 * Conversations end to end: the runtime serving the built demo as `npm start`
 * does (the default store, a Deno KV file, here in a temporary folder; the
 * offline model), driven in headless Chromium through playwright-core, over
 * SSE and over Socket.IO. Three conversations, one of them with a preview
 * open (a host action that asks first): the preview survives switching away
 * and back and a reload, and Apply runs the action once. The panel is used by
 * keyboard alone: open it, move, open a conversation, rename, archive and
 * restore. The README's screenshot of the panel (docs/threads.png) is taken
 * here with UPDATE_SCREENSHOTS=1 (test-output/ otherwise).
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium, messages, until } from "../browser/_lab.ts";
import { buildDemo } from "../../scripts/build-demo.ts";
import { screenshotPath } from "./_screenshots.ts";
import { type Started, startNode } from "../../server/runtime/node.ts";

const OUTPUT = fileURLToPath(new URL("../../test-output/", import.meta.url));

describe("conversations in the demo", () => {
  let runtime: Started;
  let browser: Browser;
  let dir: string;
  const errors: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "tether-threads-"));
    const staticRoot = await buildDemo({ outdir: join(dir, "demo") });
    runtime = await startNode({
      port: 0,
      env: { STORE__URL: join(dir, "store.db"), MODEL__DEFAULT: "offline" },
      staticRoot,
    });
    browser = await launchChromium();
    mkdirSync(OUTPUT, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await runtime?.close();
    rmSync(dir, { force: true, recursive: true });
    assert.deepEqual(errors, [], "the pages threw no errors");
  });

  /** Deletes every conversation listed, so each test starts with none (all run as one principal). */
  const clean = async () => {
    for (const archived of [false, true]) {
      const { sessions } = await (await fetch(
        `${runtime.url}/api/sessions?limit=100&archived=${archived}`,
      )).json();
      for (const s of sessions) {
        await fetch(`${runtime.url}/api/sessions/${s.session_id}`, { method: "DELETE" });
      }
    }
  };
  const open = async (query = "", context?: BrowserContext): Promise<Page> => {
    await clean();
    const viewport = { width: 1280, height: 800 };
    const page = await (context ? context.newPage() : browser.newPage({ viewport }));
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${runtime.url}/${query}`);
    await connected(page);
    return page;
  };
  const connected = (page: Page) =>
    page.locator("tether-chat [part=connection]", { hasText: "Connected" }).waitFor();
  const ask = async (page: Page, text: string) => {
    const input = page.locator("tether-chat textarea");
    await input.fill(text);
    await input.press("Enter");
  };
  const answered = (page: Page, text: string) =>
    page.locator("tether-chat [part~=message-assistant]", { hasText: text }).waitFor();
  const sessionOf = (page: Page): Promise<string> =>
    page.evaluate(() => (globalThis as any).host.sessionId);
  const panel = (page: Page) => page.locator("tether-chat tether-threads");
  const row = (page: Page, title: string) =>
    panel(page).locator("[part~=thread]", { hasText: title });
  const preview = (page: Page) =>
    page.locator("tether-chat tether-confirm[data-open] [part=preview]");
  const created = (page: Page, title: string): Promise<number> =>
    page.evaluate(
      (t) => (globalThis as any).tracker.state.issues.filter((i: any) => i.title === t).length,
      title,
    );
  const openPanel = async (page: Page) => {
    if ((await panel(page).count()) === 0) {
      await page.locator("tether-chat [part=threads-toggle]").click();
    }
    await panel(page).locator("[part=list]").waitFor();
  };
  /** Opens the conversation titled `title` from the panel and waits until it is shown. */
  const switchTo = async (page: Page, title: string) => {
    await openPanel(page);
    const before = await sessionOf(page);
    await row(page, title).locator("[part=open]").click();
    await until(async () => (await sessionOf(page)) !== before, `the switch to "${title}"`);
  };

  for (const transport of ["sse", "socket.io"]) {
    test(`three conversations; an open preview survives a switch and a reload and is applied once (${transport})`, async () => {
      const title = `Survives the switch ${transport}`;
      const page = await open(transport === "sse" ? "" : "?transport=socket.io");

      // A: a host action that asks first; its preview waits for Apply.
      await ask(page, `create issue "${title}" label ui`);
      await preview(page).filter({ hasText: title }).waitFor();
      const a = await sessionOf(page);

      // B and C, each started from the panel's New button.
      await openPanel(page);
      await panel(page).locator("[part=new]").click();
      await until(async () => (await sessionOf(page)) !== a, "a new conversation");
      assert.equal(await preview(page).count(), 0, "a new conversation shows no preview");
      await ask(page, "select issue 42");
      await answered(page, "Done: select issue (");
      const b = await sessionOf(page);
      await openPanel(page);
      await panel(page).locator("[part=new]").click();
      await until(async () => (await sessionOf(page)) !== b, "a third conversation");
      await ask(page, "show only bugs");
      await answered(page, "Done: show only (");
      const c = await sessionOf(page);

      await openPanel(page);
      await until(
        async () => (await panel(page).locator("[part~=thread]").count()) === 3,
        "three rows",
      );
      const titles = await panel(page).locator("[part=title]").allInnerTexts();
      assert.deepEqual(titles, [
        "Show only bugs",
        "Select issue 42",
        `Create issue "${title}" label ui`,
      ]);
      assert.equal(
        await panel(page).locator("[part~=thread-current] [part=title]").innerText(),
        "Show only bugs",
      );
      assert.equal(
        await row(page, title).locator("[part=badge]").innerText(),
        "Working on the page",
        "A waits for the page (its host call)",
      );

      // Back to A: the same preview, asked again (nothing ran).
      await switchTo(page, title);
      assert.equal(await sessionOf(page), a);
      await preview(page).filter({ hasText: title }).waitFor();
      await page.locator("tether-chat [part~=message-user]", { hasText: "create issue" }).waitFor();
      // To B and back: still there.
      await switchTo(page, "Select issue 42");
      assert.equal(await sessionOf(page), b);
      await answered(page, "Done: select issue (");
      assert.equal(await preview(page).count(), 0, "B has no preview");
      await switchTo(page, title);
      await preview(page).filter({ hasText: title }).waitFor();

      // A reload keeps A, with its preview.
      await page.reload();
      await connected(page);
      assert.equal(await sessionOf(page), a, "the reload opens the conversation switched to");
      await preview(page).filter({ hasText: title }).waitFor();
      assert.equal(await created(page, title), 0, "nothing ran yet");

      await page.locator("tether-chat tether-confirm[data-open] [part=apply]").click();
      await answered(page, "Done: create issue (");
      assert.equal(await created(page, title), 1, "applied once");
      const stored = await messages(runtime.url, a);
      const calls = stored.flatMap((m: any) => m.tool_calls ?? []);
      assert.deepEqual(calls.map((c: any) => [c.tool_name, c.status]), [[
        "create_issue",
        "completed",
      ]]);
      // And the other two kept their own conversations.
      assert.equal((await messages(runtime.url, b))[0].content, "select issue 42");
      assert.equal((await messages(runtime.url, c))[0].content, "show only bugs");
      await page.waitForTimeout(300);
      assert.equal(await created(page, title), 1, "still once");
      await page.close();
    });
  }

  test("the README's screenshot: three conversations, one waiting for the page", async () => {
    const page = await open();
    await ask(page, `create issue "Dark mode flickers on resume" label ui`);
    await preview(page).waitFor();
    for (const text of ["show me the issues assigned to alice", "select issue 42"]) {
      const before = await sessionOf(page);
      await openPanel(page);
      await panel(page).locator("[part=new]").click();
      await until(async () => (await sessionOf(page)) !== before, "a new conversation");
      await ask(page, text);
      await page.locator("tether-chat [part~=message-assistant]").first().waitFor();
    }
    await answered(page, "Done: select issue (");
    await openPanel(page);
    await until(async () => (await panel(page).locator("[part=badge]").count()) === 1, "the badge");
    await page.waitForTimeout(400);
    await page.screenshot({ path: screenshotPath("threads.png") });
    await page.close();
  });

  test("two tabs on one conversation: a switch in one hands its open preview to the other, applied once", async () => {
    const title = "Handed to the other tab";
    // Two tabs of one browser: one IndexedDB journal and one set of Web Locks.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const first = await open("", context);
    await ask(first, `create issue "${title}"`);
    await preview(first).filter({ hasText: title }).waitFor();
    const a = await sessionOf(first);
    const second = await context.newPage();
    second.on("pageerror", (error) => errors.push(error.message));
    await second.goto(`${runtime.url}/?session=${a}`);
    await connected(second);
    await second.locator("tether-chat [part~=message-user]", { hasText: "create issue" }).waitFor();
    // One tab asks at a time (the call's lock): the second waits while the first asks.
    await second.waitForTimeout(500);
    assert.equal(await preview(second).count(), 0, "the second tab waits");
    // The first tab starts another conversation: its question is withdrawn, unanswered.
    await openPanel(first);
    await panel(first).locator("[part=new]").click();
    await until(async () => (await sessionOf(first)) !== a, "the first tab's switch");
    await preview(second).filter({ hasText: title }).waitFor();
    await second.locator("tether-chat tether-confirm[data-open] [part=apply]").click();
    await answered(second, "Done: create issue (");
    assert.equal(await created(second, title), 1, "applied once, in the second tab");
    // The tabs read one store: the first shows the one issue the second created, none of its own.
    assert.equal(await created(first, title), 1, "the first tab ran nothing of its own");
    await switchTo(first, `Create issue "${title}"`);
    await answered(first, "Done: create issue (");
    assert.equal(await preview(first).count(), 0, "back in the first tab, nothing asks again");
    await first.waitForTimeout(300);
    assert.equal(await created(first, title), 1, "and nothing runs again: still the one issue");
    await context.close();
  });

  test("the panel by keyboard alone: open it, move, open, rename, archive and restore", async () => {
    const page = await open();
    await ask(page, "select issue 7");
    await answered(page, "Done: select issue (");
    const first = await sessionOf(page);
    // A second conversation, started by keyboard: the toggle, then New.
    const focusToggle = () =>
      page.evaluate(() =>
        (document.querySelector("tether-chat")!.shadowRoot!.querySelector(
          "[part=threads-toggle]",
        ) as HTMLElement).focus()
      );
    await focusToggle();
    await page.keyboard.press("Enter");
    await panel(page).locator("[part=list]").waitFor();
    const focused = () =>
      page.evaluate(() => {
        let at: Element | null = document.activeElement;
        while (at?.shadowRoot?.activeElement) at = at.shadowRoot.activeElement;
        return { part: at?.getAttribute("part") ?? "", text: (at as HTMLElement)?.innerText ?? "" };
      });
    await until(
      async () => (await focused()).part === "open",
      "the focus on the open conversation",
    );
    assert.match((await focused()).text, /Select issue 7/);
    // Shift+Tab from the list reaches New.
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    assert.equal((await focused()).part, "new");
    await page.keyboard.press("Enter");
    await until(async () => (await sessionOf(page)) !== first, "a new conversation");
    await until(
      async () =>
        await page.evaluate(() =>
          document.querySelector("tether-chat")!.shadowRoot!.activeElement?.localName ===
            "textarea"
        ),
      "the focus in the composer",
    );
    await page.keyboard.type("show only bugs");
    await page.keyboard.press("Enter");
    await answered(page, "Done: show only (");
    const second = await sessionOf(page);

    // Open the panel again: the current one has the focus; Down moves to the first one.
    await focusToggle();
    await page.keyboard.press("Enter");
    await until(async () => (await focused()).text.includes("Show only bugs"), "the current row");
    await page.keyboard.press("ArrowDown");
    assert.match((await focused()).text, /Select issue 7/);
    await page.keyboard.press("Home");
    assert.match((await focused()).text, /Show only bugs/);
    await page.keyboard.press("End");
    assert.match((await focused()).text, /Select issue 7/);

    // F2 renames: type, Enter keeps it; the focus comes back to the row.
    await page.keyboard.press("F2");
    await until(async () => (await focused()).part === "input", "the title field");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("Issue seven");
    await page.keyboard.press("Enter");
    await row(page, "Issue seven").waitFor();
    await until(async () => (await focused()).text.includes("Issue seven"), "the focus back");
    const listed = async () =>
      (await (await fetch(`${runtime.url}/api/sessions`)).json()).sessions.map((s: any) => s.title);
    // The row shows the new title at once; the runtime has it once the rename is answered.
    await until(async () => (await listed()).includes("Issue seven"), "renamed in the runtime");
    // Escape leaves a rename without a change.
    await page.keyboard.press("F2");
    await until(async () => (await focused()).part === "input", "the title field again");
    await page.keyboard.type(" not kept");
    await page.keyboard.press("Escape");
    await until(async () => (await focused()).part === "open", "the row again");
    assert.ok((await listed()).includes("Issue seven"));
    assert.equal(await panel(page).count(), 1, "Escape in the field leaves the panel open");

    // Enter opens it.
    await page.keyboard.press("Enter");
    await until(async () => (await sessionOf(page)) === first, "the switch by Enter");
    await answered(page, "Done: select issue (");

    // Delete archives; the Archived shelf lists it and Delete brings it back.
    await focusToggle();
    await page.keyboard.press("Enter");
    await until(async () => (await focused()).text.includes("Issue seven"), "the current row");
    await page.keyboard.press("Delete");
    await until(async () => (await row(page, "Issue seven").count()) === 0, "archived");
    assert.ok(!(await listed()).includes("Issue seven"), "out of the listing");
    assert.equal(
      await panel(page).locator("[role=status]").innerText(),
      "Archived “Issue seven”.",
    );
    await until(async () => (await focused()).text.includes("Show only bugs"), "the next row");
    await page.keyboard.press("Shift+Tab");
    assert.equal((await focused()).text, "Archived");
    await page.keyboard.press("Enter");
    await row(page, "Issue seven").waitFor();
    await page.keyboard.press("Tab");
    assert.match((await focused()).text, /Issue seven/);
    await page.keyboard.press("Delete");
    await until(async () => (await listed()).includes("Issue seven"), "restored");
    assert.equal(
      await panel(page).locator("[part=empty]").innerText(),
      "No archived conversations.",
    );

    // Escape closes the panel and gives the focus back to its button.
    await page.keyboard.press("Escape");
    await until(async () => (await panel(page).count()) === 0, "the panel closed");
    assert.equal((await focused()).part, "threads-toggle");
    assert.equal(await sessionOf(page), first);
    assert.notEqual(first, second);
    await page.close();
  });
});
