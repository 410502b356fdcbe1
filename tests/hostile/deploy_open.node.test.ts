/**
 * Finding 7 of the second hardening round: the Deno Deploy entry served
 * `trusted_local` without `ACCESS__TOKEN`, so a stranger read, wrote and
 * deleted sessions. Under a real `deno serve` it now refuses to start, with a
 * message naming `ACCESS__TOKEN`, and never listens. Bound: it exits within
 * 60 s of being started (Deno's own start-up included) without printing
 * `Listening`. Node only: it spawns Deno from the `deno` devDependency.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { spawnDeploy } from "../_deploy_entry.ts";

/** Runs the entry under `deno serve` with `extra` settings; resolves with its exit and output. */
async function serveDeploy(extra: Record<string, string>) {
  const denoDir = await mkdtemp(join(tmpdir(), "tether-deploy-open-"));
  const child = spawnDeploy(denoDir, { ACCESS__TOKEN: "", ACCESS__MODE: "", ...extra });
  let output = "";
  child.stdout!.on("data", (c) => (output += c));
  child.stderr!.on("data", (c) => (output += c));
  try {
    const code = await new Promise<number | null | "listening">((resolve) => {
      const timer = setTimeout(() => resolve("listening"), 60_000);
      child.on("exit", (c) => (clearTimeout(timer), resolve(c)));
      const watch = () => {
        if (/Listening on/.test(output)) clearTimeout(timer), resolve("listening");
      };
      child.stdout!.on("data", watch);
      child.stderr!.on("data", watch);
    });
    return { code, output };
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    await rm(denoDir, { recursive: true, force: true });
  }
}

test("the Deploy entry refuses to start without ACCESS__TOKEN, saying what to set", async () => {
  const { code, output } = await serveDeploy({});
  assert.notEqual(code, "listening", `it served without access configured:\n${output}`);
  assert.notEqual(code, 0);
  assert.match(output, /refusing to start/);
  assert.match(output, /ACCESS__TOKEN/);
  assert.doesNotMatch(output, /Listening on/);
});

test("the admin token alone is not access configured", async () => {
  const { code, output } = await serveDeploy({ ACCESS__ADMIN_TOKEN: "operator-secret-1234" });
  assert.notEqual(code, "listening", output);
  assert.match(output, /ACCESS__TOKEN/);
  assert.doesNotMatch(output, /operator-secret-1234/, "the message never quotes a secret");
});
