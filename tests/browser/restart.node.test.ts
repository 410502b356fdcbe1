// deno-lint-ignore-file no-explicit-any -- JSON read back from the runtime and the page
/**
 * The runtime restarts (Deno KV file store; real Chromium, real runtime
 * processes, both transports):
 *
 * - while a host call is pending: the page's result waits in its journal,
 *   reaches the new process, and the run resumes once;
 * - killed (SIGKILL) during a turn, after its first words streamed: the
 *   turn's end is never logged, so no event can tell the page it ended. Once
 *   the runtime is back, the page asks it (`turn_running` in GET
 *   /api/sessions/{id}), shows the turn ended with the words that came kept,
 *   and the next message is sent and answered.
 * - two processes on one file, the page following the session through one:
 *   the other, running a turn another client started, is killed. The page's
 *   connection never drops, so only the quiet tells it: after
 *   `quietTurnCheck` without an event it asks, and once the dead process's
 *   lease lapsed it shows the turn ended and goes on.
 * - a page opened while another client's turn runs shows it running, from
 *   its first words, and its Stop ends it.
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

/** The words that stall a turn in the test runtime (`STALL_PHRASE`, tests/browser/runtime.ts). */
const STALL = "think it over slowly";

/** The lab page at `url`, with its host's `running` flag and streamed text. */
async function labPage(browser: Browser, url: string) {
  const page = await browser.newPage();
  page.on("pageerror", (error) => console.log(`page error: ${error.message}`));
  await page.goto(url);
  await page.waitForFunction(() => "lab" in globalThis);
  // Connected: the conversation read and the session followed from here on.
  await page.evaluate(() => (globalThis as any).lab.host.connect());
  return {
    page,
    running: () =>
      page.evaluate(() => (globalThis as any).lab.host.state.get().running) as Promise<boolean>,
    streamed: () =>
      page.evaluate(() => (globalThis as any).lab.host.state.get().streamingText) as Promise<
        string
      >,
  };
}
type LabPage = Awaited<ReturnType<typeof labPage>>;

/** The stalled turn streamed its first words to the page, and `runtimeUrl` says it runs. */
async function stalled(lab: LabPage, runtimeUrl: string, session: string): Promise<void> {
  await until(async () => (await lab.streamed()).startsWith("Let me think"), "the first words");
  assert.equal(await lab.running(), true);
  assert.equal((await sessionInfo(runtimeUrl, session)).turn_running, true);
}

/** The page shows the turn ended with its first words kept, and its next message is answered. */
async function endedAndGoesOn(lab: LabPage, runtimeUrl: string, session: string): Promise<void> {
  await until(async () => !(await lab.running()), "the page to show the turn ended", 40_000);
  assert.equal((await sessionInfo(runtimeUrl, session)).turn_running, false);
  assert.match(await lab.streamed(), /^Let me think/, "what streamed of the answer stays");
  const answer = await lab.page.evaluate(async () => {
    const final = await (globalThis as any).lab.host.send("Hello again.");
    return { content: final?.content };
  });
  assert.equal(typeof answer.content, "string", "the next message is answered");
  assert.ok(answer.content.length > 0);
  await until(async () => !(await lab.running()), "the new turn to end");
}

describe("a runtime restart", () => {
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
  for (const transport of (process.env.LAB_TRANSPORTS ?? "sse,socketio").split(",")) {
    test(`the page shows the turn ended once the runtime is back, and goes on (${transport})`, async () => {
      const storeUrl = join(dir, `${transport}.db`);
      runtime = await spawnRuntime({ storeUrl, env: { STALL_PHRASE: STALL } });
      const session = `stopped-${transport}-${Date.now()}`;
      const page = await labPage(browser, `${lab.url}/?session=${session}&transport=${transport}`);

      await page.page.evaluate((words) => {
        // The exchange fails when the runtime dies; the page's state is what this test reads.
        (globalThis as any).lab.host.send(`Please ${words}.`).catch(() => {});
      }, STALL);
      // The turn streams its first words, then stalls (tests/browser/runtime.ts).
      await stalled(page, runtime.url, session);

      const port = runtime.port;
      await runtime.kill();
      runtime = await spawnRuntime({ storeUrl, port });
      // Alone on its file, the killed runtime kept its lease in memory, so the one started
      // after it answers turn_running false at once (a lease left in a shared store lapses
      // within LIMITS__LEASE_TTL_MS, and the page asks again until then).
      await endedAndGoesOn(page, runtime.url, session);
      await page.page.close();
      await runtime.stop();
      runtime = undefined;
    });
  }
  for (const transport of (process.env.LAB_TRANSPORTS ?? "sse,socketio").split(",")) {
    test(`the page shows a turn ended when the process running it dies behind the one it follows (${transport})`, async () => {
      const storeUrl = join(dir, `two-${transport}.db`);
      // A short lease, so the dead process's lapses soon (LIMITS__LEASE_TTL_MS, 10 s by default).
      const env = { STALL_PHRASE: STALL, LIMITS__LEASE_TTL_MS: "3000" };
      const other = await spawnRuntime({ storeUrl, env });
      runtime = await spawnRuntime({ storeUrl, env });
      try {
        const session = `elsewhere-${transport}-${Date.now()}`;
        const chat = (url: string, content: string) =>
          fetch(`${url}/api/chat`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ session_id: session, content }),
          });
        assert.equal((await chat(runtime.url, "Hello.")).status, 200);
        // The lab serves the page and proxies it to `runtime`, never to `other`.
        const page = await labPage(
          browser,
          `${lab.url}/?session=${session}&transport=${transport}&follow&quiet=1500`,
        );

        // Another client's message, sent to the other process, stalls there after its first words.
        chat(other.url, `Please ${STALL}.`).catch(() => {});
        await stalled(page, runtime.url, session);

        await other.kill();
        await endedAndGoesOn(page, runtime.url, session);
        await page.page.close();
      } finally {
        await other.stop();
        await runtime.stop();
        runtime = undefined;
      }
    });
  }
  for (const transport of (process.env.LAB_TRANSPORTS ?? "sse,socketio").split(",")) {
    test(`a page opened during another client's turn shows it from its first words (${transport})`, async () => {
      runtime = await spawnRuntime({
        storeUrl: join(dir, `opened-${transport}.db`),
        env: { STALL_PHRASE: STALL },
      });
      try {
        const session = `opened-${transport}-${Date.now()}`;
        fetch(`${runtime.url}/api/chat`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ session_id: session, content: `Please ${STALL}.` }),
        }).catch(() => {});
        await until(
          async () => (await sessionInfo(runtime!.url, session).catch(() => null))?.turn_running,
          "the other client's turn to run",
        );
        const page = await labPage(
          browser,
          `${lab.url}/?session=${session}&transport=${transport}&follow`,
        );
        await stalled(page, runtime.url, session);
        await page.page.evaluate(() => (globalThis as any).lab.host.cancel());
        await until(async () => !(await page.running()), "Stop to end the turn");
        assert.equal((await sessionInfo(runtime.url, session)).turn_running, false);
        await page.page.close();
      } finally {
        await runtime.stop();
        runtime = undefined;
      }
    });
  }
});
