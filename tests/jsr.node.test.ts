/**
 * Both packages pass JSR's checks as a publish would run them
 * (`deno publish --dry-run`), slow types checked: no `--allow-slow-types`.
 * The web package's global tag types (`elements/global.ts`, which JSR
 * refuses) stay out of its JSR files. Node only: spawns Deno.
 *
 * @module
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import process from "node:process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const deno = join(dirname(createRequire(import.meta.url).resolve("deno/bin.cjs")), "deno");

/** One dry run per package, read by every test of it (each takes half a minute or more). */
const runs = new Map<string, Promise<{ code: number | null; out: string }>>();

function dryRun(config: string): Promise<{ code: number | null; out: string }> {
  let run = runs.get(config);
  if (!run) runs.set(config, run = spawnDryRun(config));
  return run;
}

function spawnDryRun(config: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      deno,
      ["publish", "--dry-run", "--allow-dirty", "--config", config],
      { cwd: root, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

test("deno publish --dry-run passes for @tether/runtime, slow types checked", async () => {
  const { code, out } = await dryRun("jsr.runtime.json");
  assert.equal(code, 0, out);
  assert.match(out, /Simulating publish of @tether\/runtime/);
});

test("deno publish --dry-run passes for @tether/web, slow types checked", async () => {
  const { code, out } = await dryRun("jsr.web.json");
  assert.equal(code, 0, out);
  assert.match(out, /Simulating publish of @tether\/web/);
  assert.doesNotMatch(out, /elements\/global\.ts/, "the global tag types are not published to JSR");
});

test("neither JSR package publishes the repository's test kits", async () => {
  for (const config of ["jsr.runtime.json", "jsr.web.json"]) {
    const { out } = await dryRun(config);
    assert.match(out, /Simulating publish/, `${config} listed what it would publish`);
    assert.doesNotMatch(out, /server\/(policy\/)?testing\//, config);
  }
});
