// deno-lint-ignore-file no-explicit-any -- the page's globals, read in page.evaluate
/**
 * The page's actions over WebMCP, in headless Chromium through
 * playwright-core:
 *
 * - the demo, served as `npm start` serves it, in Chromium launched with
 *   `--enable-features=WebMCP,WebMCPTesting`: this Chromium (147, from
 *   @sparticuz/chromium) has only the older `navigator.modelContext`; its
 *   agent-side `navigator.modelContextTesting` lists the demo's actions and
 *   calls one, which the page performs;
 * - the same demo with `document.modelContext` as the current draft
 *   specifies it (this Chromium predates the move to `document`, so a
 *   polyfill written from the draft, tests/browser/fixtures/webmcp_draft.js,
 *   stands in beside the older shape): the bridge registers on the current
 *   shape only, the actions are listed with `getTools()` and called with
 *   `executeTool()`;
 * - a lab page whose actions read, change and ask first: `readOnlyHint` and
 *   `consequentialHint` follow what each does, a confirmation still asks the
 *   user, and a withdrawn action leaves the list.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type Browser, chromium, type Page } from "playwright-core";
import { buildDemo } from "../../scripts/build-demo.ts";
import { type Started, startNode } from "../../server/runtime/node.ts";
import { SDK_ACTIONS } from "../../demo/actions.ts";
import { CHROMIUM_ARGS, findChromium } from "./chromium.mjs";
import { launchChromium, startLab, until } from "./_lab.ts";

const DRAFT = readFileSync(new URL("fixtures/webmcp_draft.js", import.meta.url), "utf8");

/**
 * Waits until `document.modelContext.getTools()` lists every one of `names`. Not
 * `page.waitForFunction()`: it takes a predicate's answer as it comes, and a promise is truthy,
 * so an async predicate ends the wait at once.
 */
async function toolsOffered(page: Page, names: string[]): Promise<void> {
  await until(async () => {
    const listed: string[] = await page.evaluate(async () =>
      (await (document as any).modelContext.getTools()).map((t: any) => t.name)
    );
    return names.every((name) => listed.includes(name));
  }, `WebMCP to list ${names.join(", ")}`);
}

describe("the page's actions over WebMCP", () => {
  let runtime: Started;
  let staticRoot: string;
  let withFlag: Browser;
  let plain: Browser;

  before(async () => {
    staticRoot = await buildDemo({ outdir: mkdtempSync(join(tmpdir(), "tether-webmcp-")) });
    runtime = await startNode({
      port: 0,
      socketIo: false,
      env: { STORE__URL: "memory:", MODEL__DEFAULT: "offline" },
      staticRoot,
      warn: () => {},
    });
    const { path, env } = await findChromium();
    withFlag = await chromium.launch({
      executablePath: path,
      env,
      headless: true,
      args: [...CHROMIUM_ARGS, "--enable-features=WebMCP,WebMCPTesting"],
    });
    plain = await launchChromium();
  });

  after(async () => {
    await withFlag?.close();
    await plain?.close();
    await runtime?.close();
    rmSync(staticRoot, { force: true, recursive: true });
  });

  const openDemo = async (browser: Browser, draft: boolean) => {
    const page = await browser.newPage();
    if (draft) await page.addInitScript(DRAFT);
    await page.goto(`${runtime.url}/`);
    await page.locator("tether-chat [part=connection]", { hasText: "Connected" }).waitFor();
    return page;
  };

  test("in Chromium with WebMCP on, the demo's actions are registered on the older shape, listed and run on the page", async () => {
    const page = await openDemo(withFlag, false);
    try {
      assert.equal(
        await page.evaluate(() => "modelContext" in document),
        false,
        "this Chromium has the older shape only",
      );
      // Chromium's own agent-side interface, behind WebMCPTesting. The demo registers its
      // actions as its parts start; wait until every one is there, then read the list.
      await page.waitForFunction((wanted) => {
        const have = (navigator as any).modelContextTesting.listTools().map((t: any) => t.name);
        return wanted.every((name) => have.includes(name));
      }, [...Object.keys(SDK_ACTIONS), "select_issue"]);
      const listed = await page.evaluate(() =>
        (navigator as any).modelContextTesting.listTools().map((t: any) => ({
          name: t.name,
          description: t.description,
          schema: JSON.parse(t.inputSchema).type,
        }))
      );
      const names = listed.map((t: any) => t.name);
      for (const name of [...Object.keys(SDK_ACTIONS), "select_issue"]) {
        assert.ok(names.includes(name), name);
      }
      const select = listed.find((t: any) => t.name === "select_issue")!;
      assert.match(select.description, /Select/);
      assert.equal(select.schema, "object");
      const answer = await page.evaluate(() =>
        (navigator as any).modelContextTesting.executeTool(
          "select_issue",
          JSON.stringify({ number: 42 }),
        )
      );
      assert.equal(JSON.parse(answer).isError, false);
      await page.locator('#app .row.selected[data-number="42"]').waitFor();
      // Playwright's page.webmcp speaks the current shape (getTools on the
      // model context), which this Chromium's navigator.modelContext lacks.
      assert.deepEqual(await page.webmcp.tools(), []);
    } finally {
      await page.close();
    }
  });

  test("through document.modelContext (the current draft), getTools() lists the demo's actions and executeTool() runs them", async () => {
    // Both shapes present: the bridge registers on the current one only.
    const page = await openDemo(withFlag, true);
    try {
      await toolsOffered(page, [...Object.keys(SDK_ACTIONS), "select_issue"]);
      assert.deepEqual(
        await page.evaluate(() => (navigator as any).modelContextTesting.listTools()),
        [],
        "nothing registered twice on the older shape, once every action is offered",
      );
      const listed = await page.evaluate(async () => {
        const tools = await (document as any).modelContext.getTools();
        return tools.map((t: any) => ({
          name: t.name,
          origin: t.origin,
          annotations: t.annotations,
          schema: t.inputSchema?.type,
        }));
      });
      const names = listed.map((t: any) => t.name);
      assert.deepEqual(names, [...names].sort(), "in name order, as the draft sorts them");
      for (const name of [...Object.keys(SDK_ACTIONS), "select_issue"]) {
        assert.ok(names.includes(name), name);
      }
      for (const t of listed) {
        assert.equal(t.origin, runtime.url);
        assert.equal(t.schema, "object");
        assert.equal(t.annotations.readOnlyHint, false, `${t.name} changes the page`);
      }
      const answer = await page.evaluate(async () => {
        const context = (document as any).modelContext;
        const tool = (await context.getTools()).find((t: any) => t.name === "select_issue");
        return await context.executeTool(tool, { number: 7 });
      });
      assert.equal(typeof answer, "string", "executeTool answers the result serialised");
      assert.equal(JSON.parse(answer).isError, false);
      await page.locator('#app .row.selected[data-number="7"]').waitFor();
    } finally {
      await page.close();
    }
  });

  test("the hints follow what each action does; a confirmation still asks; a withdrawn action leaves the list", async () => {
    const lab = await startLab(() => runtime.url, "webmcp_page");
    const page = await plain.newPage();
    try {
      await page.addInitScript(DRAFT);
      await page.goto(lab.url);
      await page.waitForFunction(() => (globalThis as any).ready === true);
      // The bridge loads on first use (client/webmcp.ts): wait until it has offered every action.
      await toolsOffered(page, ["count_items", "peek_items", "add_item", "clear_items"]);
      const hints = await page.evaluate(async () => {
        const tools = await (document as any).modelContext.getTools();
        return Object.fromEntries(tools.map((t: any) => [t.name, t.annotations]));
      });
      assert.equal(hints.count_items.readOnlyHint, true, "declared read-only");
      assert.equal(hints.count_items.consequentialHint, false);
      assert.equal(hints.peek_items.readOnlyHint, true, "<tether-action read-only>");
      assert.equal(hints.add_item.readOnlyHint, false, "changes the list");
      assert.equal(hints.clear_items.consequentialHint, true, "the page asks before it runs");
      assert.equal(hints.clear_items.readOnlyHint, false);
      const run = (name: string, input: unknown) =>
        page.evaluate(async ([name, input]) => {
          const context = (document as any).modelContext;
          const tool = (await context.getTools()).find((t: any) => t.name === name);
          return JSON.parse(await context.executeTool(tool, input));
        }, [name, input] as const);
      assert.deepEqual(JSON.parse((await run("count_items", {})).content[0].text), { count: 2 });
      assert.deepEqual(JSON.parse((await run("add_item", { name: "gamma" })).content[0].text), {
        items: ["alpha", "beta", "gamma"],
      });
      const refused = await run("add_item", { name: 3 });
      assert.equal(refused.isError, true, "arguments are checked against the schema");
      const declined = await run("clear_items", {});
      assert.equal(declined.isError, true, "the user did not apply it");
      assert.deepEqual(await page.evaluate(() => (globalThis as any).items), [
        "alpha",
        "beta",
        "gamma",
      ]);
      await page.evaluate(() => ((globalThis as any).allowClear = true));
      assert.equal((await run("clear_items", {})).isError, false);
      assert.deepEqual(await page.evaluate(() => (globalThis as any).items), []);
      await page.evaluate(() => (globalThis as any).withdraw());
      const after = await page.evaluate(async () =>
        (await (document as any).modelContext.getTools()).map((t: any) => t.name)
      );
      assert.equal(after.includes("temporary"), false);
      assert.ok(after.includes("count_items"));
    } finally {
      await page.close();
      await lab.close();
    }
  });
});
