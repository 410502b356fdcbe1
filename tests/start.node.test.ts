/**
 * `npm start` runs built JavaScript: prestart builds dist/ and the demo only
 * when their sources changed, then Node runs `dist/server/runtime/start.js`
 * with no TypeScript loader, and it serves the runtime and the demo.
 *
 * @module
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

test("npm start serves the runtime and the demo from built JavaScript, building only what changed", async () => {
  const first = spawnSync(process.execPath, ["scripts/prestart.mjs"], {
    cwd: root,
    encoding: "utf8",
  });
  assert.equal(first.status, 0, first.stderr);
  const again = spawnSync(process.execPath, ["scripts/prestart.mjs"], {
    cwd: root,
    encoding: "utf8",
  });
  assert.equal(again.status, 0, again.stderr);
  assert.equal(again.stderr, "", "nothing changed, so nothing is built again");

  const dir = mkdtempSync(join(tmpdir(), "tether-start-"));
  // No --import: a .ts file anywhere on the way would fail to load.
  const child = spawn(process.execPath, ["dist/server/runtime/start.js"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: "0",
      STORE__URL: join(dir, "store.db"),
      MODEL__DEFAULT: "offline",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`start.js exited with ${code}`)));
      createInterface({ input: child.stdout! }).on("line", (line) => {
        const found = /"url":"(http:\/\/[^"]+)"/.exec(line);
        if (found) resolve(found[1]);
      });
    });
    const health = await (await fetch(`${url}/health`)).json();
    assert.equal(health.status, "ok");
    const page = await fetch(`${url}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<html/i);
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});
