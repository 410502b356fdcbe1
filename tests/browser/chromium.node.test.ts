/**
 * Which Chromium the browser tests launch: CHROME_PATH (or the older
 * CHROMIUM_PATH) first, then a system install, then the binary carried by the
 * @sparticuz/chromium devDependency, which really starts.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import process from "node:process";
import { afterEach, test } from "node:test";
import { findChromium } from "./chromium.mjs";

const saved = { CHROME_PATH: process.env.CHROME_PATH, CHROMIUM_PATH: process.env.CHROMIUM_PATH };
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

test("CHROME_PATH wins, and CHROMIUM_PATH is still read", async () => {
  process.env.CHROME_PATH = process.execPath; // any existing file will do for the lookup
  assert.equal((await findChromium()).path, process.execPath);
  delete process.env.CHROME_PATH;
  process.env.CHROMIUM_PATH = process.execPath;
  assert.equal((await findChromium()).source, "CHROME_PATH");
});

test("a CHROME_PATH that does not exist is an error naming it, not a silent fallback", async () => {
  process.env.CHROME_PATH = "/nowhere/chrome";
  await assert.rejects(findChromium(), /CHROME_PATH is \/nowhere\/chrome, which does not exist/);
});

test("without CHROME_PATH: a system Chromium, else the packaged one, which starts", async () => {
  delete process.env.CHROME_PATH;
  delete process.env.CHROMIUM_PATH;
  const found = await findChromium();
  const system = [
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
  ].find((path) => existsSync(path));
  if (system) assert.equal(found.path, system);
  else assert.match(found.source, /^@sparticuz\/chromium \d+/);
  assert.match(execFileSync(found.path, ["--version"]).toString(), /Chrom(e|ium) \d+/);
});
