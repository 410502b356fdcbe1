/**
 * The npm build (`scripts/build.ts`) as a user meets it: the package is built
 * into a temporary `node_modules/@tether/tether/`, then plain Node (no tsx) imports
 * its exports by name, esbuild resolves the browser entries, and TypeScript
 * checks a consumer against the declaration files. Node only: the build
 * spawns tsc and Node.
 *
 * @module
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { build, transform } from "esbuild";
import { buildPackage, type BuildResult } from "../scripts/build.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as {
  exports: Record<string, { types: string; default: string }>;
};

let tmp = "";
let pkgDir = "";
let built: BuildResult;

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
  pkgDir = join(tmp, "node_modules", "@tether", "tether");
  await mkdir(pkgDir, { recursive: true });
  await copyFile(join(root, "package.json"), join(pkgDir, "package.json"));
  // The package's dependencies resolve from its own node_modules, as after an install.
  await symlink(join(root, "node_modules"), join(pkgDir, "node_modules"), "dir");
  await writeFile(join(tmp, "package.json"), JSON.stringify({ type: "module", private: true }));
  built = await buildPackage({ outdir: join(pkgDir, "dist"), quiet: true });
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
  assert.ok(
    built.sources.includes("server/testing/harness.ts"),
    "server/testing/ is built for users' tests",
  );
  assert.equal(built.declarations, built.modules);
});

test("every export of package.json names a built file and its declaration file", () => {
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    assert.ok(
      existsSync(join(pkgDir, target.default)),
      `${subpath}: ${target.default} was not built`,
    );
    assert.ok(existsSync(join(pkgDir, target.types)), `${subpath}: ${target.types} was not built`);
  }
});

test("plain Node imports the server, protocol and kv exports by package name and serves /health", async () => {
  await writeFile(
    join(tmp, "check.mjs"),
    `
const want = { "@tether/tether": "createRuntime", "@tether/tether/protocol": "parseHostContext", "@tether/tether/kv": "memoryStore" };
for (const [specifier, name] of Object.entries(want)) {
  const mod = await import(specifier);
  if (typeof mod[name] !== "function") throw new Error(specifier + " does not export the function " + name);
}
const { createRuntime } = await import("@tether/tether");
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
  for (const subpath of ["./client", "./elements", "./elements/define"]) {
    const { default: js, types } = pkg.exports[subpath];
    // Bundling (packages left out) fails on any relative import that names no file.
    await build({
      entryPoints: [join(pkgDir, js)],
      bundle: true,
      packages: "external",
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    await transform(await readFile(join(pkgDir, types), "utf8"), { loader: "ts", format: "esm" });
  }
});

test("TypeScript checks a consumer against the declaration files without errors in them", async () => {
  await writeFile(
    join(tmp, "consumer.ts"),
    `
import { createRuntime, type TetherApp } from "@tether/tether";
import { parseHostContext } from "@tether/tether/protocol";
import { createHost } from "@tether/tether/client";
import { TetherChat } from "@tether/tether/elements";
import "@tether/tether/elements/define";
import { memoryStore, type Store } from "@tether/tether/kv";

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
    line.startsWith("consumer.ts") || line.startsWith("node_modules/@tether/tether/")
  );
  assert.deepEqual(ours, [], out);
  assert.ok(code === 0 || errors.length > 0, `tsc failed without a diagnostic:\n${out}`);
});
