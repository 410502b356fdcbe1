// deno-lint-ignore-file no-explicit-any -- JSON read back from the runtime and the page
/**
 * A page reloaded in the middle of a host call neither loses the call nor
 * runs a handler that is not idempotent twice (real Chromium, real runtime).
 */
import assert from "node:assert/strict";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { spawnRuntime } from "./spawn_runtime.mjs";
import { launchChromium, messages, sessionInfo, startLab, until } from "./_lab.ts";

interface Run {
  name: string;
  callId: string;
  phase: string;
}

describe("a reload in the middle of a host call", () => {
  let runtime: Awaited<ReturnType<typeof spawnRuntime>>;
  let lab: Awaited<ReturnType<typeof startLab>>;
  let browser: Browser;

  before(async () => {
    runtime = await spawnRuntime();
    lab = await startLab(() => runtime.url);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await lab?.close();
    await runtime?.stop();
  });

  const openLab = async (
    session: string,
    transport = process.env.LAB_TRANSPORT ?? "sse",
  ): Promise<Page> => {
    const page = await browser.newPage();
    page.on("pageerror", (error) => console.log(`page error: ${error.message}`));
    await page.goto(`${lab.url}/?session=${session}&transport=${transport}`);
    await page.waitForFunction(() => "lab" in globalThis);
    return page;
  };
  const runs = (page: Page): Promise<Run[]> => page.evaluate(() => (globalThis as any).lab.runs());
  const answered = (session: string) =>
    until(
      async () => (await sessionInfo(runtime.url, session)).has_pending_tool_call === false,
      "the call answered",
    );

  test("a handler cut off by the reload is reported as of unknown outcome, not run again", async () => {
    const session = `reload-cut-${Date.now()}`;
    const page = await openLab(session);
    await page.evaluate(() => void (globalThis as any).lab.host.send("slow step"));
    await until(
      async () => (await runs(page)).some((r) => r.phase === "start"),
      "the handler to start",
    );
    await page.reload();
    await page.waitForFunction(() => "lab" in globalThis);
    await answered(session);
    const started = (await runs(page)).filter((r) => r.phase === "start");
    assert.equal(started.length, 1, "the handler ran once, before the reload");
    const [, assistant] = await messages(runtime.url, session);
    assert.equal(assistant.tool_calls[0].call_id, started[0].callId);
    assert.equal(assistant.tool_calls[0].status, "failed");
    assert.match(JSON.stringify(assistant.tool_calls[0].result), /unknown/);
    assert.ok(assistant.content, "the model answered after the failed result");
    await page.close();
  });

  test("an idempotent handler cut off by the reload runs again and its result is sent", async () => {
    const session = `reload-safe-${Date.now()}`;
    const page = await openLab(session);
    await page.evaluate(() => void (globalThis as any).lab.host.send("safe step"));
    await until(async () => (await runs(page)).length === 1, "the handler to start");
    await page.reload();
    await until(
      async () => (await runs(page)).length === 2,
      "the handler to start again after the reload",
    );
    await page.evaluate(() => (globalThis as any).lab.release());
    await answered(session);
    const all = await runs(page);
    assert.deepEqual(all.map((r) => r.phase), ["start", "start", "end"]);
    assert.equal(new Set(all.map((r) => r.callId)).size, 1, "the same call both times");
    const [, assistant] = await messages(runtime.url, session);
    assert.equal(assistant.tool_calls[0].status, "completed");
    assert.deepEqual(assistant.tool_calls[0].result, { done: "safe_step" });
    await page.close();
  });

  test("a finished result whose sending the reload interrupted is sent after it, not run again", async () => {
    const session = `reload-resend-${Date.now()}`;
    const page = await openLab(session);
    let dropped = 0;
    // The continuation never leaves the first page.
    await page.route("**/api/chat", (route) => {
      if (JSON.parse(route.request().postData() ?? "{}").tool_call_id) {
        dropped++;
        return route.abort();
      }
      return route.continue();
    });
    await page.evaluate(() => void (globalThis as any).lab.host.send("quick step"));
    await until(() => dropped > 0, "the continuation to be dropped");
    await page.unrouteAll();
    await page.reload();
    await answered(session);
    const all = await runs(page);
    assert.deepEqual(
      all.map((r) => `${r.name} ${r.phase}`),
      ["quick_step start", "quick_step end"],
      "the handler ran once",
    );
    const [, assistant] = await messages(runtime.url, session);
    assert.equal(assistant.tool_calls[0].status, "completed");
    assert.deepEqual(assistant.tool_calls[0].result, { done: "quick_step" });
    await page.close();
  });
});
