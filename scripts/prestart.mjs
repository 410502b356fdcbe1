/**
 * `npm start` runs built JavaScript (`node dist/server/runtime/start.js`), not
 * a TypeScript loader. This runs first (`prestart`): it builds the library
 * into dist/ when a source is newer than the built entry, and the demo into
 * demo/dist/ when one of its sources is newer than its page. Plain JavaScript,
 * so a start with everything already built loads no TypeScript tooling.
 * Both builds run locally with esbuild and TypeScript from node_modules: no
 * network.
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The newest modification time (ms) of the files under `dirs` (and the files named), 0 when none. */
function newest(dirs, files = []) {
  let latest = 0;
  const visit = (path) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    if (!stat.isDirectory()) {
      latest = Math.max(latest, stat.mtimeMs);
      return;
    }
    for (const name of readdirSync(path)) {
      if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
      visit(join(path, name));
    }
  };
  for (const dir of [...dirs, ...files]) visit(join(root, dir));
  return latest;
}

/** When `target` was built (ms), 0 when it was not. */
const builtAt = (target) => statSync(join(root, target), { throwIfNoEntry: false })?.mtimeMs ?? 0;

/** Runs one build script with tsx; exits with its status when it fails. */
function run(script, args, what) {
  const tsx = join(root, "node_modules", "tsx", "dist", "loader.mjs");
  if (!existsSync(tsx)) {
    console.error(
      `tether: ${what} is missing or stale and tsx is not installed to build it; run npm install (with dev dependencies), then npm start.`,
    );
    process.exit(1);
  }
  const started = performance.now();
  const done = spawnSync(process.execPath, ["--import", "tsx", join(root, script), ...args], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (done.status !== 0) {
    console.error(`tether: building ${what} failed (${script}); see above.`);
    process.exit(done.status ?? 1);
  }
  console.error(`tether: built ${what} (${Math.round(performance.now() - started)} ms)`);
}

// One build at a time: two `npm start`s (or two test files starting the product) at once would
// write the same files. The second waits for the first, then finds nothing stale.
const lock = join(root, ".prestart.lock");
const waitUntil = Date.now() + 300_000;
for (;;) {
  try {
    mkdirSync(lock);
    break;
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
    // A lock left by a build that died long ago is no build.
    const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > 300_000 || Date.now() > waitUntil) rmSync(lock, { recursive: true, force: true });
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}
process.on("exit", () => rmSync(lock, { recursive: true, force: true }));

const entry = "dist/server/runtime/start.js";
// The build scripts count as inputs too: a changed build makes a different dist/.
const builds = ["scripts/css_literals.ts"];
if (
  newest(["protocol", "server", "client", "elements"], [
    "package.json",
    "scripts/build.ts",
    ...builds,
  ]) > builtAt(entry)
) {
  run("scripts/build.ts", [join(root, "dist")], "the runtime (dist/)");
}
const page = "demo/dist/index.html";
if (
  newest(["demo", "client", "elements", "protocol"], ["scripts/build-demo.ts", ...builds]) >
    builtAt(page)
) {
  run("scripts/build-demo.ts", [], "the demo (demo/dist/)");
}
