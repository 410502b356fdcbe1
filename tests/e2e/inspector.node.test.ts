// deno-lint-ignore-file no-explicit-any -- the demo page's globals and the inspector's answer
/**
 * The inspector end to end: the runtime serving the built demo as `npm start`
 * does (the default store, a Deno KV file in a temporary folder; the offline
 * model), with `DEBUG__INSPECT=true` and a policy that holds `select_issue`
 * for an approver, driven in headless Chromium through playwright-core. The
 * chat's Inspect button fetches the inspector then and not before; it shows
 * a turn's context as the model received it and the held call's policy
 * decision and reason, over SSE and Socket.IO; a `<tether-inspector>` given
 * only a session id shows an AG-UI session's turn. The README's screenshot
 * (docs/inspector.png) is taken here with UPDATE_SCREENSHOTS=1 (test-output/ otherwise).
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { HttpAgent } from "@ag-ui/client";
import type { Browser, Page } from "playwright-core";
import { launchChromium, until } from "../browser/_lab.ts";
import { screenshotPath } from "./_screenshots.ts";
import { buildDemo } from "../../scripts/build-demo.ts";
import { type Started, startNode } from "../../server/runtime/node.ts";

const OUTPUT = fileURLToPath(new URL("../../test-output/", import.meta.url));
const POLICY = {
  policies: [{
    id: "inspect-holds",
    name: "Selecting an issue changes what everyone sees",
    type: "tool_permission",
    version: 1,
    config: { requires_approval: ["select_issue"], approval_timeout_seconds: 300 },
  }],
};

describe("the inspector in the demo", () => {
  let runtime: Started;
  let browser: Browser;
  let dir: string;
  const errors: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "tether-inspector-"));
    writeFileSync(join(dir, "policy.json"), JSON.stringify(POLICY));
    const staticRoot = await buildDemo({ outdir: join(dir, "demo") });
    runtime = await startNode({
      port: 0,
      env: {
        STORE__URL: join(dir, "store.db"),
        MODEL__DEFAULT: "offline",
        DEBUG__INSPECT: "true",
        POLICY__FILE: join(dir, "policy.json"),
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

  const open = async (path: string): Promise<{ page: Page; fetched: string[] }> => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const fetched: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
    await page.goto(`${runtime.url}${path}`);
    await page.locator("tether-chat [part=connection]", { hasText: "Connected" }).waitFor();
    return { page, fetched };
  };
  const inspector = (page: Page) => page.locator("tether-chat tether-inspector");

  for (const transport of ["sse", "socket.io"]) {
    test(`the inspector shows a turn's rendered context and the held call's policy reason (${transport})`, async () => {
      const session = `insp-${transport.replace(".", "")}-${crypto.randomUUID().slice(0, 8)}`;
      const { page, fetched } = await open(`/?session=${session}&transport=${transport}`);
      const input = page.locator("tether-chat textarea");
      await input.fill("select issue 42");
      await input.press("Enter");
      await page.locator("tether-chat tether-confirm[held] [part=reason]").waitFor();
      assert.ok(
        !fetched.some((p) => /\/inspector-[^/]*\.js$/.test(p)),
        "the inspector is not fetched before it is opened",
      );

      await page.locator("tether-chat [part=inspect-toggle]").click();
      const turn = inspector(page).locator("[part=turn]").first();
      await turn.waitFor();
      assert.ok(fetched.some((p) => /\/inspector-[^/]*\.js$/.test(p)), "fetched on first use");

      // The context as the model received it: the tracker's view, rendered by the runtime.
      const context = await turn.locator("[part=context]").first().innerText();
      assert.match(context, /^<host_context>\nhost: acme-tracker \(browser 1\.0\)\nview: issues/);
      assert.match(context, /Fix login redirect loop on expired sessions/);
      assert.match(context, /<\/host_context>$/);
      const view = await (await page.evaluate(
        (sid) => fetch(`/api/sessions/${sid}/inspect`).then((r) => r.json()),
        session,
      ));
      const recorded = view.runs[0].context.find((b: any) => b.tag === "host_context");
      assert.equal(context, recorded.text, "the element shows the runtime's record as it is");
      assert.match(await turn.innerText(), new RegExp(`host_context: ≈ ${recorded.tokens} tokens`));

      // The held call: its kind, status, what it waits for, the policy's decision and reason.
      const call = turn.locator("[part=calls] li", { hasText: "select_issue" });
      const cells = await Promise.all(
        [".tool", ".kind", ".status", ".waits", ".decision", ".reason"].map((c) =>
          call.locator(c).innerText()
        ),
      );
      assert.deepEqual(cells.slice(0, 5), ["select_issue", "host", "pending", "approval", "ask"]);
      // The policy's own reason, as the gate gave it and as the hold carries it.
      const reason = view.pending.approval.reason;
      assert.ok(reason.length > 10, `a reason: ${reason}`);
      assert.equal(cells[5], reason);
      assert.deepEqual(view.runs[0].calls[0].policy, { decision: "ask", reason });
      const pending = inspector(page).locator("[part=pending]");
      assert.match(await pending.innerText(), /select_issue.*waits for approval/s);
      assert.ok((await pending.innerText()).includes(reason));

      // The tools offered, the request's timings, and the connection.
      const tools = await turn.locator("[part=tools] li").allInnerTexts();
      assert.ok(tools.includes("select_issue host"), `tools: ${tools}`);
      assert.ok(tools.some((t) => t.startsWith("look_at_screen backend")));
      const request = turn.locator("[part=requests] li").first();
      assert.match(
        await request.locator(".first").innerText(),
        /^\d[\d,]* ms$/,
        "to the first chunk",
      );
      assert.match(await request.innerText(), /\d+ in \(0 cached\) \/ \d+ out · tool-calls/);
      const facts = await inspector(page).locator("[part=connection]").innerText();
      assert.match(facts, new RegExp(`Transport\\s+${transport.replace(".", "\\.")}`));
      assert.match(facts, /Connection\s+open/);
      await until(
        async () => (await inspector(page).locator("[part=events] li").count()) > 0,
        "the event stream",
      );
      const events = await inspector(page).locator("[part=events]").innerText();
      assert.match(events, /assistant:final_response/);
      assert.doesNotMatch(
        JSON.stringify(view),
        /ACCESS__|api[_-]?key/i,
        "no configuration reaches the inspector",
      );

      if (transport === "sse") {
        await page.waitForTimeout(300);
        await page.screenshot({ path: screenshotPath("inspector.png") });
      }

      // Live: the next turn shows up by itself.
      await page.locator("tether-chat [part=inspect-toggle]").click();
      await input.fill("show only bugs");
      await input.press("Enter");
      await page.locator("tether-chat [part~=message-assistant]", { hasText: "Done: show only (" })
        .waitFor();
      await page.locator("tether-chat [part=inspect-toggle]").click();
      await until(
        async () =>
          (await inspector(page).locator("[part=turn] summary").first().innerText()).startsWith(
            "Turn 2",
          ),
        "the second turn in the inspector",
      );
      await page.close();
    });
  }

  test("a <tether-inspector> given a session id shows an AG-UI session's turn", async () => {
    const session = `agui-${crypto.randomUUID().slice(0, 8)}`;
    const agent = new HttpAgent({
      url: `${runtime.url}/api/agui`,
      threadId: session,
      initialState: {
        version: 1,
        view: { name: "agents", description: "Three agents, all idle." },
      },
    });
    agent.addMessage({ id: "u1", role: "user", content: "what is on screen?" });
    await agent.runAgent({ runId: "run-1" });
    const { page } = await open("/");
    // The chat's Inspect button defines the element; a second one follows the AG-UI session.
    await page.locator("tether-chat [part=inspect-toggle]").click();
    await inspector(page).waitFor();
    await page.evaluate((sid) => {
      const element = document.createElement("tether-inspector");
      element.setAttribute("session-id", sid);
      element.setAttribute("runtime-url", location.origin);
      element.id = "agui-inspector";
      document.body.append(element);
    }, session);
    const standalone = page.locator("#agui-inspector");
    const context = standalone.locator("[part=turn] [part=context]").first();
    await context.waitFor();
    assert.match(await context.innerText(), /view: agents - Three agents, all idle\./);
    assert.match(await standalone.locator("[part=connection]").innerText(), new RegExp(session));
    await until(
      async () => (await standalone.locator("[part=events] li").count()) > 0,
      "the AG-UI session's events",
    );
    await page.close();
  });
});
