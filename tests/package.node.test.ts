/**
 * The packages as a user installs them: both are built (scripts/packages.ts)
 * and packed with `npm pack`, the tarballs are installed with npm into a new
 * front-end project and a new server project, the README's server example
 * starts the runtime from the server project, and the README's page, served
 * from the front-end project, runs in Chromium: the offline model calls the
 * page's action and the chat shows the answer. Also checks that the front-end
 * install holds no server package, and that the runtime names the optional
 * package a store needs when it is missing. Node only (npm, playwright-core).
 *
 * @module
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { buildNpmPackages } from "../scripts/packages.ts";
import { launchChromium } from "./browser/_lab.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

/** The code block that follows `<!-- example:NAME -->` in the README. */
async function readmeExample(name: string): Promise<string> {
  const readme = await readFile(join(root, "README.md"), "utf8");
  const found = new RegExp(`<!-- example:${name} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(
    readme,
  );
  assert.ok(found, `README.md has a code block after <!-- example:${name} -->`);
  return found[1];
}

/** Runs a command; resolves with its output, rejects with it on a non-zero exit. */
function run(cmd: string, args: string[], cwd: string): Promise<string> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.on("error", reject);
    child.on(
      "close",
      (code) =>
        code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(" ")}: ${code}\n${out}`)),
    );
  });
}

/** Starts `node server.mjs` in `cwd`; resolves with the URL it prints, or the output it died with. */
function startServer(
  cwd: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const fullEnv: Record<string, string | undefined> = { ...process.env, ...env };
  delete fullEnv.NODE_OPTIONS;
  const child = spawn(process.execPath, ["server.mjs"], {
    cwd,
    env: fullEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      out += chunk;
      const found = /Tether runtime on (http:\/\/\S+)/.exec(out);
      if (found) resolve({ child, url: found[1] });
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.on("exit", (code) => reject(new Error(`server.mjs exited with ${code}:\n${out}`)));
  });
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

/** A plain static file server for the front-end project, as any web server would serve it. */
async function serveFolder(folder: string): Promise<{ server: Server; url: string }> {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url!, "http://x").pathname));
    const file = join(folder, path === "/" ? "index.html" : path);
    if (!file.startsWith(folder) || !existsSync(file) || !(await stat(file)).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(await readFile(file));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Packages and bytes under a node_modules folder. */
async function installed(folder: string): Promise<{ packages: string[]; bytes: number }> {
  const packages: string[] = [];
  let bytes = 0;
  for (const entry of await readdir(join(folder, "node_modules"), { recursive: true })) {
    const path = String(entry);
    const parts = path.split("/");
    if (parts.at(-1) === "package.json") {
      const name = parts.slice(0, -1).join("/");
      if (!name.includes("/node_modules/") && /^(@[^/]+\/)?[^/@]+$/.test(name)) packages.push(name);
    }
    const info = await stat(join(folder, "node_modules", path));
    if (info.isFile()) bytes += info.size;
  }
  return { packages: packages.sort(), bytes };
}

describe("the npm packages installed into new projects", () => {
  let tmp = "";
  let webApp = "";
  let serverApp = "";
  let runtime: ChildProcess | undefined;
  let runtimeUrl = "";
  let site: Awaited<ReturnType<typeof serveFolder>> | undefined;
  let browser: Browser | undefined;

  before(async () => {
    tmp = await mkdtemp(join(tmpdir(), "tether-package-"));
    const { dirs } = await buildNpmPackages({ outdir: join(tmp, "packages"), quiet: true });
    const tarballs = join(tmp, "tarballs");
    await mkdir(tarballs);
    const packed: string[] = [];
    for (const dir of [dirs.web, dirs.runtime]) {
      const out = await run(npm, ["pack", "--silent", "--pack-destination", tarballs], dir);
      packed.push(join(tarballs, out.trim().split("\n").at(-1)!));
    }
    webApp = join(tmp, "web-app");
    serverApp = join(tmp, "server-app");
    const install = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
    for (const [app, tarball] of [[webApp, packed[0]], [serverApp, packed[1]]]) {
      await mkdir(app);
      await writeFile(
        join(app, "package.json"),
        JSON.stringify({ name: "app", private: true, type: "module" }),
      );
      await run(npm, [...install, tarball], app);
    }
    await writeFile(join(serverApp, "server.mjs"), await readmeExample("server"));
  });

  after(async () => {
    await browser?.close();
    await stop(runtime);
    await new Promise((resolve) => site ? site.server.close(resolve) : resolve(undefined));
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  test("the front-end install holds the page's packages and no server package", async () => {
    const { packages, bytes } = await installed(webApp);
    console.log(`front-end project: ${packages.length} packages, ${(bytes / 1e6).toFixed(1)} MB`);
    for (const name of ["@tether/web", "lit", "zod", "socket.io-client"]) {
      assert.ok(packages.includes(name), `${name} is installed`);
    }
    for (
      const name of [
        "@tether/runtime",
        "hono",
        "ai",
        "socket.io",
        "redis",
        "postgres",
        "pg",
        "@deno/kv",
      ]
    ) {
      assert.ok(!packages.includes(name), `${name} is not installed for the page`);
    }
    const server = await installed(serverApp);
    console.log(
      `server project: ${server.packages.length} packages, ${(server.bytes / 1e6).toFixed(1)} MB`,
    );
    for (const name of ["lit", "redis", "postgres", "@deno/kv"]) {
      assert.ok(!server.packages.includes(name), `${name} is not installed for the runtime`);
    }
  });

  test("without @deno/kv, the default store stops the runtime with the package to install", async () => {
    await assert.rejects(
      startServer(serverApp, { PORT: "0", MODEL__DEFAULT: "offline", STORE__URL: "" }),
      /needs the package @deno\/kv.*npm install @deno\/kv/s,
    );
  });

  test("the README's page runs in Chromium against the README's server", async () => {
    ({ child: runtime, url: runtimeUrl } = await startServer(serverApp, {
      PORT: "0",
      MODEL__DEFAULT: "offline",
      STORE__URL: "memory:",
    }));
    const page = (await readmeExample("page")).replace("http://127.0.0.1:7100", runtimeUrl);
    await writeFile(join(webApp, "index.html"), page);
    site = await serveFolder(webApp);

    browser = await launchChromium();
    const tab = await browser.newPage();
    const errors: string[] = [];
    const missing: string[] = [];
    tab.on("pageerror", (error) => errors.push(error.message));
    // Files of the front-end project only: the runtime answers 404 for a session it has yet to see.
    tab.on("response", (r) => {
      if (r.url().startsWith(site!.url) && r.status() >= 400) {
        missing.push(`${r.status()} ${r.url()}`);
      }
    });
    await tab.goto(`${site.url}/`);
    await tab.locator("tether-chat [part=connection]", { hasText: "Connected" }).waitFor();
    const input = tab.locator("tether-chat textarea");
    await input.fill("select issue 42");
    await input.press("Enter");
    await tab.locator("#selected", { hasText: "#42" }).waitFor();
    await tab.locator("tether-chat [part~=message-assistant]", {
      hasText: "Done: select issue",
    }).waitFor();
    assert.deepEqual(errors, [], "the page threw no errors");
    assert.deepEqual(missing, [], "every file the page asked for was there");
    assert.ok(
      (await tab.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name)))
        .some((name) => name.endsWith("/node_modules/@tether/web/browser/tether.js")),
      "the page loaded the prebuilt browser file",
    );
  });
});
