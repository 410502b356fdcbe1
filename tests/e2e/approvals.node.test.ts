/**
 * The policy gate end to end in the demo (the runtime serving the built
 * demo as `npm start` does, a policy file, the admin token; headless
 * Chromium through playwright-core): a held call shows its reason and a
 * countdown in the chat with nothing to release it, the operator page lists
 * it and approves it, and the page then runs the call; an operator's denial
 * and a policy's outright denial show their reasons; the operator page says
 * when a request was decided meanwhile (409) and when the token is not an
 * admin's (403). Screenshots go to test-output/.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../browser/_lab.ts";
import { buildDemo } from "../../scripts/build-demo.ts";
import { type Started, startNode } from "../../server/runtime/node.ts";

const OUTPUT = fileURLToPath(new URL("../../test-output/", import.meta.url));
const TOKEN = `op-${crypto.randomUUID()}`;
const POLICY = {
  policies: [{
    id: "demo-approvals",
    name: "Selections need a look, new issues are not filed here",
    type: "tool_permission",
    version: 1,
    config: {
      requires_approval: ["select_issue"],
      denied_tools: ["create_issue"],
      approval_timeout_seconds: 120,
    },
  }],
};

describe("approvals in the demo", () => {
  let runtime: Started;
  let browser: Browser;
  let dir: string;
  let staticRoot: string;
  const errors: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "tether-approvals-"));
    writeFileSync(join(dir, "policy.json"), JSON.stringify(POLICY));
    staticRoot = await buildDemo({ outdir: join(dir, "demo") });
    runtime = await startNode({
      port: 0,
      hostname: "127.0.0.1",
      env: {
        STORE__URL: "memory:",
        MODEL__DEFAULT: "offline",
        POLICY__FILE: join(dir, "policy.json"),
        // The operator sees the arguments only when capture keeps them (metadata, the default, does not).
        POLICY__CONTENT_CAPTURE: "full",
        ACCESS__ADMIN_TOKEN: TOKEN,
      },
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

  const open = async (path: string): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 820 } });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${runtime.url}${path}`);
    return page;
  };

  /** The demo on a fresh session, connected, with `text` sent. */
  const ask = async (text: string): Promise<Page> => {
    const page = await open(`/?session=ap-${crypto.randomUUID().slice(0, 8)}`);
    await page.locator("tether-chat [part=connection]", { hasText: "Connected" }).waitFor();
    const input = page.locator("tether-chat textarea");
    await input.fill(text);
    await input.press("Enter");
    return page;
  };

  const operator = (token = TOKEN) => open(`/operator.html#token=${token}`);

  test("a held call waits with its reason and countdown; the operator approves; the page runs it", async () => {
    const page = await ask("select issue 42");
    const hold = page.locator("tether-chat tether-confirm[held]");
    await hold.locator("[part=reason]").waitFor();
    assert.match(await hold.locator("[part=countdown]").innerText(), /^\d+:\d\d left$/);
    assert.equal(await hold.locator("button").count(), 0, "nothing in the chat can release it");
    await page.locator("tether-chat [part~=tool-held]", { hasText: "Select issue" }).waitFor();
    assert.equal(await page.locator('#app .row.selected[data-number="42"]').count(), 0);
    await page.screenshot({ path: join(OUTPUT, "approvals-held.png") });

    const ops = await operator();
    const item = ops.locator(".approval", { hasText: '"number":42' });
    await item.waitFor();
    assert.match(await item.locator(".tool").innerText(), /select_issue/);
    assert.match(await item.locator(".left").innerText(), /^\d+:\d\d left$/);
    assert.equal(new URL(ops.url()).hash, "", "the token leaves the address bar");
    await ops.screenshot({ path: join(OUTPUT, "approvals-operator.png") });
    await item.locator("[data-decision=approve]").click();
    await ops.locator(".notice", { hasText: "Approved" }).waitFor();
    await ops.locator(".empty").waitFor();

    await page.locator('#app .row.selected[data-number="42"]').waitFor();
    await page.locator("tether-chat [part~=tool-done]", { hasText: "Select issue" }).waitFor();
    assert.equal(await hold.count(), 0, "the hold is gone");
    await ops.close();
    await page.close();
  });

  test("an operator's denial shows in the chat as denied, with the reason", async () => {
    const page = await ask("select issue 7");
    await page.locator("tether-chat tether-confirm[held]").waitFor();
    const ops = await operator();
    const item = ops.locator(".approval", { hasText: '"number":7' });
    await item.locator("input").fill("Not during the release freeze");
    await item.locator("[data-decision=deny]").click();
    const card = page.locator("tether-chat [part~=tool-denied]", { hasText: "Select issue" });
    await card.waitFor();
    assert.ok((await card.locator(".reason").innerText()).length > 0, "a reason is shown");
    assert.equal(await page.locator('#app .row.selected[data-number="7"]').count(), 0);
    await ops.close();
    await page.close();
  });

  test("a call the policy denies outright shows its reason", async () => {
    const page = await ask(`create issue "Dark mode flickers" label ui`);
    const card = page.locator("tether-chat [part~=tool-denied]", { hasText: "Create issue" });
    await card.locator(".reason").waitFor();
    assert.equal(await page.locator("tether-chat tether-confirm[data-open]").count(), 0);
    await page.screenshot({ path: join(OUTPUT, "approvals-denied.png") });
    await page.close();
  });

  test("the operator page says when a request was decided meanwhile, and when the token is refused", async () => {
    const page = await ask("select issue 12");
    const ops = await operator();
    const item = ops.locator(".approval", { hasText: '"number":12' });
    await item.waitFor();
    const id = await item.getAttribute("data-request");
    const decided = await fetch(`${runtime.url}/api/approvals/${id}/decision`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ decision: "approve" }),
    });
    assert.equal(decided.status, 200);
    await item.locator("[data-decision=deny]").click();
    await ops.locator(".notice", { hasText: "409" }).waitFor();
    await page.locator('#app .row.selected[data-number="12"]').waitFor();

    // Without ACCESS__TOKEN a wrong token is just the local principal, who has no role: 403.
    const stranger = await operator("not-the-token");
    await stranger.locator(".error", { hasText: "(403)" }).waitFor();
    assert.equal(await stranger.locator(".approval").count(), 0);
    await ops.close();
    await stranger.close();
    await page.close();
  });
});
