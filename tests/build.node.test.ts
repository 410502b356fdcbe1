/**
 * The npm build (`scripts/build.ts`, `scripts/packages.ts`) as a user meets
 * it: the packages are built into a temporary `node_modules/@tether/web/` and
 * `node_modules/@tether/runtime/`, then plain Node (no tsx) imports their
 * exports by name, esbuild resolves the browser entries, and TypeScript
 * checks a consumer against the declaration files. Node only: the build
 * spawns tsc and Node.
 *
 * @module
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { build, transform } from "esbuild";
import { buildPackage, type BuildResult } from "../scripts/build.ts";
import { buildNpmPackages } from "../scripts/packages.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
type Manifest = { exports: Record<string, { types: string; default: string }> };

let tmp = "";
let built: BuildResult;
const dirs = { web: "", runtime: "" };
const manifests: Record<string, Manifest> = {};

/** Runs a command in the temporary folder; resolves with its exit code and output. */
function run(cmd: string, args: string[]): Promise<{ code: number | null; out: string }> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS; // plain Node: no tsx loader inherited from the test runner
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd: tmp, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.on("error", fail);
    child.on("close", (code) => done({ code, out }));
  });
}

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), "tether-build-"));
  await writeFile(join(tmp, "package.json"), JSON.stringify({ type: "module", private: true }));
  built = await buildPackage({ outdir: join(tmp, "library"), quiet: true });
  const packages = await buildNpmPackages({
    outdir: join(tmp, "node_modules", "@tether"),
    from: built.outdir,
    quiet: true,
  });
  for (const key of ["web", "runtime"] as const) {
    dirs[key] = packages.dirs[key];
    manifests[key] = JSON.parse(await readFile(join(dirs[key], "package.json"), "utf8"));
    // The package's dependencies resolve from its own node_modules, as after an install.
    await symlink(join(root, "node_modules"), join(dirs[key], "node_modules"), "dir");
  }
  console.log(
    `build: ${built.modules} modules, ${built.declarations} declaration files in ${built.ms} ms`,
  );
});

after(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

test("the build leaves tests and test kits out and writes a declaration file per module", () => {
  assert.ok(built.sources.length > 50, `only ${built.sources.length} sources were built`);
  for (const source of built.sources) {
    assert.doesNotMatch(
      source,
      /\.(test|case)\.ts$|_test_kit|_test_fixture|_fake_runtime/,
      `${source} is test code`,
    );
  }
  for (const kit of ["server/testing/", "server/policy/testing/"]) {
    assert.ok(!built.sources.some((s) => s.startsWith(kit)), `${kit} is left out`);
  }
  assert.equal(built.declarations, built.modules);
});

test("each package has its own README, a repository, and only links that open a file in it", async () => {
  for (const [key, dir] of Object.entries(dirs)) {
    const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    assert.match(manifest.repository?.url ?? "", /^git\+https:\/\//, `${key} has a repository`);
    const readme = await readFile(join(dir, "README.md"), "utf8");
    assert.ok(readme.startsWith(`# ${manifest.name}\n`), `${key}'s README is its own`);
    assert.doesNotMatch(
      readme,
      /npm start|npm test|## Quick start/,
      `${key}'s README is no repository's`,
    );
    const files = [join(dir, "README.md")];
    for (const entry of await readdir(join(dir, "docs"))) files.push(join(dir, "docs", entry));
    for (const file of files.filter((f) => f.endsWith(".md"))) {
      for (const m of (await readFile(file, "utf8")).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1].split("#")[0];
        if (!target) continue;
        if (/^https?:/.test(target)) {
          assert.match(
            target,
            /^https:\/\/(www\.npmjs\.com\/package\/@tether\/|docs\.|ai-sdk\.dev)/,
          );
          continue;
        }
        assert.ok(
          existsSync(join(dirname(file), target)),
          `${file} links ${target}, not in the package`,
        );
      }
    }
  }
});

test("the runtime package ships tether-check-host and no test kit", async () => {
  const manifest = JSON.parse(await readFile(join(dirs.runtime, "package.json"), "utf8"));
  const bin = join(dirs.runtime, manifest.bin["tether-check-host"]);
  assert.match(await readFile(bin, "utf8"), /^#!\/usr\/bin\/env node\n/);
  const { code, out } = await run(process.execPath, [bin]);
  assert.equal(code, 2, out);
  assert.match(out, /usage: tether-check-host <base-url> <secret>/);
  assert.ok(!existsSync(join(dirs.runtime, "server", "testing")), "no server/testing/");
  assert.ok(
    !existsSync(join(dirs.runtime, "server", "policy", "testing")),
    "no server/policy/testing/",
  );
});

test("every export of each package names a built file and its declaration file", () => {
  for (const [key, manifest] of Object.entries(manifests)) {
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      if (typeof target === "string") continue; // ./package.json, ./browser/*
      const dir = dirs[key as keyof typeof dirs];
      assert.ok(existsSync(join(dir, target.default)), `${key} ${subpath}: ${target.default}`);
      assert.ok(existsSync(join(dir, target.types)), `${key} ${subpath}: ${target.types}`);
    }
  }
});

test("plain Node imports the server, protocol and kv exports by package name and serves /health", async () => {
  await writeFile(
    join(tmp, "check.mjs"),
    `
const want = { "@tether/runtime": "createRuntime", "@tether/runtime/protocol": "parseHostContext", "@tether/runtime/kv": "memoryStore", "@tether/runtime/node": "startNode" };
for (const [specifier, name] of Object.entries(want)) {
  const mod = await import(specifier);
  if (typeof mod[name] !== "function") throw new Error(specifier + " does not export the function " + name);
}
const { createRuntime } = await import("@tether/runtime");
const app = createRuntime({ storeUrl: "memory:", model: "offline" });
const res = await app.request("/health");
await app.close();
console.log("health " + res.status);
`,
  );
  const { code, out } = await run(process.execPath, ["check.mjs"]);
  assert.equal(code, 0, out);
  assert.match(out, /health 200/);
});

test("the browser exports resolve every import and their declaration files parse", async () => {
  for (const subpath of [".", "./protocol", "./client", "./elements", "./elements/define"]) {
    const { default: js, types } = manifests.web.exports[subpath];
    // Bundling (packages left out) fails on any relative import that names no file.
    await build({
      entryPoints: [join(dirs.web, js)],
      bundle: true,
      packages: "external",
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    await transform(await readFile(join(dirs.web, types), "utf8"), { loader: "ts", format: "esm" });
  }
});

test("TypeScript checks a consumer against the declaration files without errors in them", async () => {
  await writeFile(
    join(tmp, "consumer.ts"),
    `
import { createRuntime, type TetherApp } from "@tether/runtime";
import { parseHostContext } from "@tether/web/protocol";
import { createHost } from "@tether/web/client";
import { TetherChat } from "@tether/web/elements";
import "@tether/web/elements/define";
import { createHost as fromMain, TetherView } from "@tether/web";
import * as browserFile from "@tether/web/browser/tether.js";
import { memoryStore, type Store } from "@tether/runtime/kv";

// The tags are typed: querySelector gives the element's class, and events their own type.
export const chat: TetherChat | null = document.querySelector("tether-chat");
export const view: TetherView = document.createElement("tether-view");
chat?.addEventListener("tether-send", (event) => event.text.length);
export const sameHost: typeof createHost = fromMain;
export const fileHost: typeof createHost = browserFile.createHost;

export const app: TetherApp = createRuntime({ storeUrl: "memory:", model: "offline" });
export const store: Store = memoryStore();
// Fails the check if the declarations resolved to \`any\`.
// @ts-expect-error createRuntime takes an options object
createRuntime(42);
export { createHost, parseHostContext, TetherChat };
`,
  );
  const tsc = join(
    dirname(createRequire(import.meta.url).resolve("typescript/package.json")),
    "bin",
    "tsc",
  );
  const { code, out } = await run(process.execPath, [
    tsc,
    "--ignoreConfig",
    "--noEmit",
    "--strict",
    "--module",
    "nodenext",
    "--target",
    "es2022",
    "--lib",
    "es2024,dom,dom.iterable",
    "--types",
    "node",
    "--typeRoots",
    join(root, "node_modules", "@types"),
    // Our declaration files are checked too; errors inside other packages are theirs.
    "--skipLibCheck",
    "false",
    "--pretty",
    "false",
    "consumer.ts",
  ]);
  const errors = out.split("\n").filter((line) => /\): error TS\d+/.test(line));
  const ours = errors.filter((line) =>
    line.startsWith("consumer.ts") || line.startsWith("node_modules/@tether/")
  );
  assert.deepEqual(ours, [], out);
  assert.ok(code === 0 || errors.length > 0, `tsc failed without a diagnostic:\n${out}`);
});
