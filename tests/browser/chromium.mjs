/**
 * Which Chromium the browser tests launch, and the flags every launch uses.
 *
 * The browser is found in this order: `CHROME_PATH` (or the older
 * `CHROMIUM_PATH`), a system Chromium (/usr/bin/chromium, chromium-browser,
 * google-chrome), then the Chromium binary that the `@sparticuz/chromium`
 * devDependency carries inside its npm package, so a clone plus
 * `npm install` runs the browser suites on a machine with no browser
 * installed. No test tool may download a browser of its own.
 *
 * The flags run headless as root and keep Chromium quiet on a closed network
 * (without the background-networking flags it keeps trying to reach Google's
 * hosts). The package's own `args` are deliberately not used: they include
 * `--disable-web-security`, which would hide the cross-origin behaviour the
 * tests check.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

/** The launch flags. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** System places a Chromium (or Chrome) is usually installed at. */
const SYSTEM_PATHS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

/**
 * The browser to launch: its path, and the environment it needs (the fonts
 * configuration that comes with the packaged binary, when the system has none).
 *
 * @example
 * const { path, env } = await findChromium();
 * await chromium.launch({ executablePath: path, env, args: CHROMIUM_ARGS });
 * @returns {Promise<{ path: string, source: string, env: Record<string, string> }>}
 */
export async function findChromium() {
  const configured = process.env.CHROME_PATH || process.env.CHROMIUM_PATH;
  if (configured) {
    if (!existsSync(configured)) {
      throw new Error(`CHROME_PATH is ${configured}, which does not exist: fix or unset it`);
    }
    return { path: configured, source: "CHROME_PATH", env: { ...process.env } };
  }
  const system = SYSTEM_PATHS.find((path) => existsSync(path));
  if (system) return { path: system, source: "system", env: { ...process.env } };
  return await unpackPackaged();
}

/**
 * Unpacks @sparticuz/chromium's binary once per version into the temporary
 * folder. Several test processes may start at once: a lock folder makes one
 * of them unpack, and a marker file written last tells the others it is whole.
 */
async function unpackPackaged() {
  const require = createRequire(import.meta.url);
  let version;
  try {
    // The package exports only its entry; its package.json sits two folders above it.
    const entry = require.resolve("@sparticuz/chromium");
    const manifest = join(entry.slice(0, entry.lastIndexOf("/build/")), "package.json");
    version = JSON.parse(readFileSync(manifest, "utf8")).version;
  } catch {
    throw new Error(
      "no Chromium found: set CHROME_PATH, install chromium, or run `npm install` " +
        "(the devDependency @sparticuz/chromium carries one)",
    );
  }
  const dir = join(tmpdir(), `tether-chromium-${version}`);
  const ready = join(dir, ".ready");
  const path = join(dir, "chromium");
  if (!existsSync(ready)) await withLock(`${dir}.lock`, () => unpackInto(dir, ready));
  const env = { ...process.env };
  if (!existsSync("/etc/fonts/fonts.conf")) env.FONTCONFIG_PATH = join(dir, "fonts");
  return { path, source: `@sparticuz/chromium ${version}`, env };
}

/** Runs the package's own unpacker with the temporary folder pointed at `dir`. */
async function unpackInto(dir, ready) {
  if (existsSync(ready)) return;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const { default: packaged } = await import("@sparticuz/chromium");
  // The package always unpacks into os.tmpdir(), which reads TMPDIR on each call.
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    await packaged.executablePath();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  writeFileSync(ready, "");
}

/** Holds a lock folder while `work` runs; takes over a lock left by a process that died. */
async function withLock(lock, work) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error?.code !== "EEXIST") throw error;
      const age = Date.now() - (statOrUndefined(lock)?.mtimeMs ?? Date.now());
      if (age > 60_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited too long for ${lock}; remove it`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function statOrUndefined(path) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
