// deno-lint-ignore-file no-explicit-any -- JSON read back from the runtime and the page
/**
 * The runtime restarts while a host call is pending (Deno KV file store):
 * the page's result waits in its journal, reaches the new process, and the
 * run resumes once (real Chromium, real runtime processes).
 */
import assert from "node:assert/strict";
import process from "node:process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { spawnRuntime } from "./spawn_runtime.mjs";
import { launchChromium, messages, sessionInfo, startLab, until } from "./_lab.ts";

describe("a runtime restart while a host call is pending", () => {
  let dir: string;
  let runtime: Awaited<ReturnType<typeof spawnRuntime>> | undefined;
  let lab: Awaited<ReturnType<typeof startLab>>;
  let browser: Browser;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "tether-restart-"));
    lab = await startLab(() => runtime?.url ?? "http://127.0.0.1:9");
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await lab?.close();
    await runtime?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  for (const transport of (process.env.LAB_TRANSPORTS ?? "sse,socketio").split(",")) {
    test(`the result reaches the restarted runtime and the run resumes once (${transport})`, async (t) => {
      const storeUrl = join(dir, `${transport}.db`);
      runtime = await spawnRuntime({ storeUrl });
      const probe = await fetch(`${runtime.url}/socket.io/?EIO=4&transport=polling`).catch(() =>
        null
      );
      if (transport === "socketio" && !probe?.ok) {
        console.log("SKIPPED: restart over Socket.IO: the runtime does not serve /socket.io");
        await runtime.stop();
        return t.skip("no Socket.IO");
      }
      const session = `restart-${transport}-${Date.now()}`;
      const page = await browser.newPage();
      page.on("pageerror", (error) => console.log(`page error: ${error.message}`));
      await page.goto(`${lab.url}/?session=${session}&transport=${transport}`);
      await page.waitForFunction(() => "lab" in globalThis);
      const runs = () =>
        page.evaluate(() => (globalThis as any).lab.runs()) as Promise<
          { phase: string; callId: string }[]
        >;

      await page.evaluate(() => void (globalThis as any).lab.host.send("slow step"));
      await until(async () => (await runs()).length === 1, "the handler to start");
      const pending = await sessionInfo(runtime.url, session);
      assert.equal(pending.pending_action.tool_name, "slow_step");

      const port = runtime.port;
      await runtime.stop();
      // The handler finishes while no runtime is up: the result waits in the journal.
      await page.evaluate(() => (globalThis as any).lab.release());
      await new Promise((resolve) => setTimeout(resolve, 700));
      runtime = await spawnRuntime({ storeUrl, port });
      const restarted = runtime.url;

      await until(
        async () => (await sessionInfo(restarted, session)).has_pending_tool_call === false,
        "the result after the restart",
        45_000,
      );
      const all = await runs();
      assert.deepEqual(all.map((r) => r.phase), ["start", "end"], "the handler ran once");
      // The call's result is recorded before the model runs again: wait for the run to end.
      const assistant = await until(async () => {
        const [, message] = await messages(restarted, session);
        return message?.status === "completed" && message;
      }, "the resumed run to finish");
      assert.equal(assistant.tool_calls[0].call_id, all[0].callId);
      assert.equal(assistant.tool_calls[0].status, "completed");
      assert.deepEqual(assistant.tool_calls[0].result, { done: "slow_step" });
      assert.match(assistant.content ?? "", /slow_step/, "the model resumed with the result");
      await page.close();
      await runtime.stop();
      runtime = undefined;
    });
  }
});
