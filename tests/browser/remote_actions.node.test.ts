// deno-lint-ignore-file no-explicit-any -- the page's test hooks
/**
 * Remote tools' actions in `<tether-chat>` against the real runtime (offline
 * model) and a real tool server on loopback (the host kit), in headless
 * Chromium through playwright-core: a create's preview and Apply run the
 * tool once; a delete runs only after the second confirmation; Cancel runs
 * nothing and reads as cancelled; a reload between the two confirmations
 * shows the same open preview; another tab follows the preview and its
 * outcome; a result's cards render as preview cards, the hostile ones
 * dropped. Screenshots go to test-output/.
 */
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { remoteToolsHost } from "../../server/remote-tools/host.ts";
import { type Started, startNode } from "../../server/runtime/node.ts";
import { type Loopback, serveLoopback } from "../../server/testing/loopback.ts";
import { launchChromium, startLab } from "./_lab.ts";

const OUTPUT = fileURLToPath(new URL("../../test-output/", import.meta.url));
const ADMIN = `admin-${crypto.randomUUID()}`;
const SECRET = `secret-${crypto.randomUUID()}`;
const task = { type: "object", properties: { number: { type: "integer" } }, required: ["number"] };

describe("remote actions in <tether-chat> on the real runtime", () => {
  let host: Loopback;
  let runtime: Started;
  let lab: Awaited<ReturnType<typeof startLab>>;
  let browser: Browser;
  const executed: string[] = [];
  const errors: string[] = [];

  before(async () => {
    host = await serveLoopback(
      remoteToolsHost({
        secret: SECRET,
        tools: [{
          name: "create_task",
          description: "Create a task with a title",
          verb: "create",
          inputSchema: {
            type: "object",
            properties: { title: { type: "string" } },
            required: ["title"],
          },
          preview: ({ title }) => `Create the task “${title}” in Project Apollo`,
          execute: ({ title }) => (executed.push(`create ${title}`), { id: "t-9", title }),
        }, {
          name: "delete_task",
          description: "Delete a task by its number",
          verb: "delete",
          inputSchema: task,
          preview: ({ number }) => `Delete task ${number} for good`,
          execute: ({ number }) => (executed.push(`delete ${number}`), { deleted: number }),
        }, {
          name: "find_tasks",
          description: "Find tasks by a word of their title",
          verb: "get",
          inputSchema: { type: "object", properties: { query: { type: "string" } } },
          execute: () => ({
            results: [{ id: "t-1" }],
            display: [
              { title: `<img src=x onerror="alert(1)">Ship it`, url: "https://tasks.example/t-1" },
              { title: "a script", url: "javascript:alert(1)" },
              {
                title: "plain http image",
                url: "https://tasks.example/t-2",
                image: "http://a/b.png",
              },
            ],
          }),
        }],
      }).fetch,
    );
    runtime = await startNode({
      port: 0,
      hostname: "127.0.0.1",
      env: {
        STORE__URL: "memory:",
        MODEL__DEFAULT: "offline",
        ACCESS__ADMIN_TOKEN: ADMIN,
        REMOTE_TOOLS__ALLOWED_HOSTS: "127.0.0.1",
      },
    });
    const connected = await fetch(`${runtime.url}/v1/integrations/generic-rest/connect`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({
        workspace_id: "default",
        base_url: host.url,
        secret: SECRET,
        allowed_tools: [],
      }),
    });
    assert.equal(connected.status, 201);
    lab = await startLab(() => runtime.url, "chat_page");
    browser = await launchChromium();
    mkdirSync(OUTPUT, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await lab?.close();
    await runtime?.close();
    await host?.close();
    assert.deepEqual(errors, [], "the pages threw no errors");
  });

  const openChat = async (session: string): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 480, height: 680 } });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${lab.url}/?session=${session}`);
    await page.waitForFunction(() => "chatPage" in globalThis);
    await page.locator("tether-chat [part=connection]", { hasText: "Connected" }).waitFor();
    return page;
  };
  const send = (page: Page, text: string) =>
    page.evaluate((t) => void (globalThis as any).chatPage.send(t), text);
  const preview = (page: Page) => page.locator("tether-chat tether-confirm[stepwise]");
  const fresh = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}`;

  test("a create shows the tool server's preview; Apply runs it once", async () => {
    const page = await openChat(fresh("create"));
    await send(page, `create task "Ship the release"`);
    const box = preview(page);
    await box.locator("[part=preview]", {
      hasText: "Create the task “Ship the release” in Project Apollo",
    })
      .waitFor();
    assert.deepEqual(executed, [], "nothing runs before Apply");
    await page.screenshot({ path: join(OUTPUT, "remote-preview.png") });
    await box.locator("[part=apply]").click();
    await page.locator("tether-chat [part~=tool-done]").waitFor();
    assert.equal(await box.count(), 0);
    assert.deepEqual(executed, ["create Ship the release"]);
    await page.close();
  });

  test("a delete runs only after the second confirmation, also across a reload", async () => {
    executed.length = 0;
    const session = fresh("delete");
    const page = await openChat(session);
    await send(page, "delete task 5");
    let box = preview(page);
    await box.locator("[part=preview]", { hasText: "Delete task 5 for good" }).waitFor();
    await box.locator("[part=apply]", { hasText: "Continue" }).click();
    await page.locator("tether-chat tether-confirm[state=confirm-again]").waitFor();
    assert.deepEqual(executed, [], "one Apply runs nothing");

    await page.reload();
    await page.waitForFunction(() => "chatPage" in globalThis);
    box = preview(page);
    await page.locator("tether-chat tether-confirm[state=confirm-again] [part=preview]", {
      hasText: "Delete task 5 for good",
    }).waitFor();
    assert.doesNotMatch(await page.evaluate(() => (globalThis as any).chatPage.log()), /unknown/i);
    assert.deepEqual(executed, [], "a reload runs nothing");
    await page.screenshot({ path: join(OUTPUT, "remote-confirm-again-after-reload.png") });
    await box.locator("[part=apply]", { hasText: "Yes, apply" }).click();
    await page.locator("tether-chat [part~=tool-done]").waitFor();
    assert.deepEqual(executed, ["delete 5"]);
    await page.close();
  });

  test("Cancel runs nothing and the call reads as cancelled, not failed", async () => {
    executed.length = 0;
    const page = await openChat(fresh("cancel"));
    await send(page, `create task "Never mind"`);
    await preview(page).locator("[part=cancel]").click();
    const card = page.locator("tether-chat [part~=tool-cancelled]");
    await card.waitFor();
    assert.match(await card.innerText(), /Cancelled/);
    assert.equal(await page.locator("tether-chat [part~=tool-failed]").count(), 0);
    assert.equal(await page.locator("tether-chat [part=error]").count(), 0);
    assert.deepEqual(executed, []);
    await page.close();
  });

  test("another tab on the session sees the open preview, the live ones, and their outcomes", async () => {
    executed.length = 0;
    const session = fresh("tabs");
    const first = await openChat(session);
    await send(first, `create task "Opened before"`);
    await preview(first).locator("[part=preview]", { hasText: "Opened before" }).waitFor();
    const second = await openChat(session);
    await preview(second).locator("[part=preview]", { hasText: "Opened before" }).waitFor();
    await preview(first).locator("[part=apply]").click();
    await second.locator("tether-chat [part~=tool-done]").waitFor();
    assert.equal(await preview(second).count(), 0);

    // Any attached client may confirm: the second tab applies what the first asked for.
    await send(first, `create task "Applied elsewhere"`);
    await preview(second).locator("[part=preview]", { hasText: "Applied elsewhere" }).waitFor();
    await preview(second).locator("[part=apply]").click();
    await first.locator("tether-chat [part~=tool-done]").nth(1).waitFor();
    assert.equal(await preview(first).count(), 0);
    assert.deepEqual(executed, ["create Opened before", "create Applied elsewhere"]);
    await first.close();
    await second.close();
  });

  test("a result's display cards render as preview cards, hostile entries neutralised", async () => {
    const page = await openChat(fresh("cards"));
    await send(page, `find tasks "ship"`);
    const cards = page.locator("tether-chat tether-card");
    await cards.first().waitFor();
    assert.equal(await cards.count(), 2, "the javascript: card is dropped");
    const hrefs = await cards.evaluateAll((els) =>
      els.map((el) => el.shadowRoot!.querySelector("a")!.getAttribute("href"))
    );
    assert.deepEqual(hrefs, ["https://tasks.example/t-1", "https://tasks.example/t-2"]);
    assert.equal(
      await cards.evaluateAll((els) =>
        els.flatMap((el) => [...el.shadowRoot!.querySelectorAll("img")]).length
      ),
      0,
      "neither the markup nor the plain http image becomes an image",
    );
    const title = await cards.first().evaluate((el) =>
      el.shadowRoot!.querySelector("[part=title]")!.textContent
    );
    assert.equal(title, `<img src=x onerror="alert(1)">Ship it`, "markup shows as text");
    await page.close();
  });
});
