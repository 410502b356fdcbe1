/**
 * The README's blocks that run in a clone of this repository (see
 * tests/_readme.ts for the marking), run as written in a fresh clone: `npm
 * install && npm start`, the curl conversation, the demo's delete in
 * Chromium, `deno task start`, `deno serve`, `npm run build`, and the policy
 * walkthrough. Each is checked for what the README says it shows. Node only
 * (npm, bash, playwright-core).
 *
 * `deno` is the one the clone's `npm install` put in node_modules/.bin, on the
 * PATH as if it were installed; DENO_DIR is the clone's own, so `deno serve`'s
 * default KV is too.
 *
 * @module
 */
import assert from "node:assert/strict";
import { mkdir, rm, symlink } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import type { Browser } from "playwright-core";
import { launchChromium } from "./browser/_lab.ts";
import { block, type Example, examples, freshClone, Place } from "./_readme.ts";

/** What the README's demo walkthrough asks: the words typed, the buttons pressed, what the chat says. */
function chatSteps(example: Example): { say: string; press: string[]; answer: string } {
  const lines = example.code.trim().split("\n");
  const press = lines.filter((l) => l.startsWith("▸ ")).map((l) => l.slice(2).trim());
  const answer = lines.find((l) => l.startsWith("→ "))?.slice(2).trim();
  assert.ok(answer, `${example.id} says what the chat answers`);
  return { say: lines[0], press, answer };
}

describe("the README from a fresh clone", () => {
  let clone = "";
  let place: Place;
  let browser: Browser | undefined;
  let readme: Map<string, Example>;
  const url = () => `http://127.0.0.1:${place.ports.get(7100)}`;

  before(async () => {
    readme = await examples("README.md");
    clone = await freshClone();
    const bin = join(clone, ".readme-bin");
    await mkdir(bin);
    // "With Deno installed": the deno the clone's npm install brings, on the PATH.
    await symlink(join(clone, "node_modules", ".bin", "deno"), join(bin, "deno"));
    place = new Place(clone, {
      PATH: `${bin}:${process.env.PATH}`,
      DENO_DIR: join(clone, ".deno-dir"),
      npm_config_prefer_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
    });
  });

  after(async () => {
    await browser?.close();
    await place?.stop();
    if (clone) await rm(clone, { recursive: true, force: true });
  });

  test("quickstart-start: npm install && npm start serves the runtime and the demo", async () => {
    await place.serve(block(readme, "quickstart-start"), 420_000);
    const page = await fetch(`${url()}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<tether-chat/);
    const health = await (await fetch(`${url()}/health`)).json();
    assert.equal(health.store, "denokv", "the embedded default store");
    assert.equal(health.offline, true);
  });

  test("quickstart-curl: the host call pends, and the answer resumes the turn", async () => {
    await place.run(block(readme, "quickstart-curl"));
  });

  test("demo-delete: the demo's delete asks twice with the buttons the README names", async () => {
    const steps = chatSteps(block(readme, "demo-delete"));
    browser = await launchChromium();
    const tab = await browser.newPage();
    await tab.goto(`${url()}/`);
    await tab.locator("tether-chat [part=connection]", { hasText: "Connected" }).waitFor();
    const input = tab.locator("tether-chat textarea");
    await input.fill(steps.say);
    await input.press("Enter");
    for (const label of steps.press) {
      await tab.getByRole("button", { name: label, exact: true }).click();
    }
    const pattern = new RegExp(
      steps.answer.split("…").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*"),
    );
    const answer = tab.locator("tether-chat [part~=message-assistant]", { hasText: pattern });
    await answer.last().waitFor();
    await tab.close();
    await place.stop();
  });

  test("deno-task: deno task start serves the runtime on Deno", async () => {
    await place.serve(block(readme, "deno-task"));
    assert.equal((await fetch(`${url()}/health`)).status, 200);
    await place.stop();
  });

  test("deno-serve: the Deploy entry under deno serve answers HTTP", async () => {
    await place.serve(block(readme, "deno-serve"));
    const health = await (await fetch(`${url()}/health`)).json();
    assert.equal(health.status, "ok");
    assert.equal(health.store, "denokv");
    // The block sets ACCESS__TOKEN (the entry refuses to start without access configured).
    const stranger = await fetch(`${url()}/api/sessions/readme-x/messages`);
    await stranger.body?.cancel();
    assert.equal(stranger.status, 401);
    await place.stop();
  });

  test("quickstart-build: npm run build writes both packages", async () => {
    await place.run(block(readme, "quickstart-build"), 300_000);
  });

  test("policy-file, policy-start, policy-walkthrough: a held call, the health and the operator's 403", async () => {
    await place.write(block(readme, "policy-file"));
    await place.serve(block(readme, "policy-start"));
    await place.run(block(readme, "policy-walkthrough"));
    await place.stop();
  });
});
