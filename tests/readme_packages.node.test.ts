/**
 * The blocks of the README, the packages' READMEs and docs/configuration.md
 * that run in a user's own project (see tests/_readme.ts for the marking),
 * run as written from the packages as npm would hand them over: both are
 * built (scripts/packages.ts) and packed with `npm pack`, and the tarballs
 * are installed with npm into a new front-end project and a new server
 * project, together with only the packages the text tells the reader to
 * install. Then the server starts on its default store, the page and the SDK
 * module run in Chromium against it, the library example and the remote
 * tools walkthrough run, and `npx tether-check-host` checks the README's
 * tool server. Node only (npm, bash, playwright-core).
 *
 * @module
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import process from "node:process";
import { after, before, describe, test } from "node:test";
import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { buildNpmPackages } from "../scripts/packages.ts";
import { measureSdk } from "../scripts/size.ts";
import { measureElements } from "../scripts/size-elements.ts";
import { launchChromium } from "./browser/_lab.ts";
import {
  block,
  type Example,
  examples,
  importsOf,
  installsNamed,
  NPM_INSTALL,
  Place,
  run,
} from "./_readme.ts";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

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

/** Opens a page of the front-end project, asks "select issue 42", and checks what the README says. */
async function askSelect42(
  browser: Browser,
  url: string,
  site: string,
  prepare?: (tab: Page) => Promise<void>,
): Promise<Page> {
  const tab = await browser.newPage();
  const errors: string[] = [];
  const missing: string[] = [];
  tab.on("pageerror", (error) => errors.push(error.message));
  // Files of the front-end project only: the runtime answers 404 for a session it has yet to see.
  tab.on("response", (r) => {
    if (r.url().startsWith(site) && r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
  });
  await tab.goto(url);
  await prepare?.(tab);
  await tab.locator("#selected", { hasText: "#42" }).waitFor();
  assert.deepEqual(errors, [], "the page threw no errors");
  assert.deepEqual(missing, [], "every file the page asked for was there");
  return tab;
}

describe("the READMEs in projects of their own, from the packed packages", () => {
  let tmp = "";
  let web: Place;
  let server: Place;
  let site: Awaited<ReturnType<typeof serveFolder>> | undefined;
  let browser: Browser | undefined;
  const tarballs: Record<string, string> = {};
  const text = new Map<string, Example>();
  const runtimeUrl = () => `http://127.0.0.1:${server.ports.get(7100)}`;

  /** The page examples with the text's runtime address made the running one. */
  const page = (id: string) => block(text, id).code.replace("http://127.0.0.1:7100", runtimeUrl());

  before(async () => {
    for (
      const file of [
        "README.md",
        "packages/web/README.md",
        "packages/runtime/README.md",
        "docs/configuration.md",
      ]
    ) {
      for (const [id, example] of await examples(file)) text.set(id, example);
    }
    tmp = await mkdtemp(join(tmpdir(), "tether-readme-packages-"));
    const { dirs } = await buildNpmPackages({ outdir: join(tmp, "packages"), quiet: true });
    await mkdir(join(tmp, "tarballs"));
    for (const [key, dir] of Object.entries(dirs)) {
      const out = await run(
        npm,
        ["pack", "--silent", "--pack-destination", join(tmp, "tarballs")],
        dir,
      );
      tarballs[`@tether/${key}`] = join(tmp, "tarballs", out.trim().split("\n").at(-1)!);
    }
    const places: Record<string, Place> = {};
    for (const name of ["web-project", "runtime-project"]) {
      const dir = join(tmp, name);
      await mkdir(dir);
      await writeFile(
        join(dir, "package.json"),
        JSON.stringify({ name: "app", private: true, type: "module" }),
      );
      places[name] = new Place(dir);
      // Exactly what the text tells the reader to install for the blocks of this project.
      const named = new Set<string>();
      for (const example of text.values()) {
        if (example.place !== name) continue;
        const told = installsNamed(example, text.values());
        for (const imported of importsOf(example.kind === "sh" ? "" : example.code)) {
          assert.ok(
            told.includes(imported),
            `${example.source}:${example.line} (${example.id}) imports ${imported}, which its section does not tell the reader to install (it names ${
              told.join(", ") || "nothing"
            })`,
          );
        }
        for (const pkg of told) named.add(pkg);
      }
      const specs = [...named].map((pkg) => tarballs[pkg] ?? pkg);
      await run(npm, [...NPM_INSTALL, "--loglevel=error", ...specs], dir);
    }
    web = places["web-project"];
    server = places["runtime-project"];
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise((resolve) => site ? site.server.close(resolve) : resolve(undefined));
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  test("the front-end install holds the page's packages and no server package", async () => {
    const { packages, bytes } = await installed(web.dir);
    console.log(`front-end project: ${packages.length} packages, ${(bytes / 1e6).toFixed(1)} MB`);
    for (const name of ["@tether/web", "lit", "zod", "socket.io-client"]) {
      assert.ok(packages.includes(name), `${name} is installed`);
    }
    for (
      const name of ["@tether/runtime", "hono", "ai", "socket.io", "redis", "postgres", "@deno/kv"]
    ) {
      assert.ok(!packages.includes(name), `${name} is not installed for the page`);
    }
    const runtime = await installed(server.dir);
    console.log(
      `server project: ${runtime.packages.length} packages, ${(runtime.bytes / 1e6).toFixed(1)} MB`,
    );
    for (const name of ["lit", "idb", "redis", "postgres"]) {
      assert.ok(!runtime.packages.includes(name), `${name} is not installed for the runtime`);
    }
  });

  test("server, server-start: the README's server starts on the default store with nothing else installed", async () => {
    await server.write(block(text, "server"));
    await server.serve(block(text, "server-start"));
    const health = await (await fetch(`${runtimeUrl()}/health`)).json();
    assert.equal(health.store, "denokv", "the default store, a Deno KV file");
    assert.ok(existsSync(join(server.dir, ".tether", "store.db")), "kept in .tether/store.db");
  });

  test("page: the README's page runs in Chromium against the README's server", async () => {
    await writeFile(join(web.dir, "index.html"), page("page"));
    site = await serveFolder(web.dir);
    browser = await launchChromium();
    const tab = await askSelect42(browser, `${site.url}/`, site.url, async (tab) => {
      await tab.locator("tether-chat [part=connection]", { hasText: "Connected" }).waitFor();
      const input = tab.locator("tether-chat textarea");
      await input.fill("select issue 42");
      await input.press("Enter");
    });
    await tab.locator("tether-chat [part~=message-assistant]", {
      hasText: "Done: select issue (selected 42).",
    }).waitFor();
    assert.ok(
      (await tab.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name)))
        .some((name) => name.endsWith("/node_modules/@tether/web/browser/tether.js")),
      "the page loaded the prebuilt browser file",
    );
    await tab.close();
  });

  test("web-readme-page: the web package's README page runs too", async () => {
    await writeFile(join(web.dir, "readme.html"), page("web-readme-page"));
    const tab = await askSelect42(browser!, `${site!.url}/readme.html`, site!.url, async (tab) => {
      const input = tab.locator("tether-chat textarea");
      await input.fill("select issue 42");
      await input.press("Enter");
    });
    await tab.close();
  });

  test("sdk: the README's module, bundled from the installed package, runs in Chromium", async () => {
    const example = block(text, "sdk");
    const source = join(web.dir, example.name!);
    await writeFile(source, example.code.replace("http://127.0.0.1:7100", runtimeUrl()));
    // The user's bundler: esbuild, resolving @tether/web from the project's node_modules.
    await build({
      absWorkingDir: web.dir,
      entryPoints: [source],
      bundle: true,
      format: "esm",
      platform: "browser",
      splitting: true,
      outdir: join(web.dir, "sdk-out"),
      logLevel: "error",
    });
    await writeFile(
      join(web.dir, "sdk.html"),
      `<!doctype html><meta charset="utf-8"><output id="selected">none</output>
<output id="answer"></output><script type="module" src="sdk-out/app.js"></script>`,
    );
    const tab = await askSelect42(browser!, `${site!.url}/sdk.html`, site!.url);
    const answer = /\/\/ → (.+)$/m.exec(example.code)![1];
    await tab.locator("#answer", { hasText: answer }).waitFor();
    await tab.close();
  });

  test("runtime-readme-server, runtime-readme-start: the runtime package's README starts the same server", async () => {
    await server.stop();
    await server.write(block(text, "runtime-readme-server"));
    await server.serve(block(text, "runtime-readme-start"));
    assert.equal((await fetch(`${runtimeUrl()}/health`)).status, 200);
    await server.stop();
  });

  test("library, library-start (docs/configuration.md): the runtime mounted in a Hono app", async () => {
    await server.write(block(text, "library"));
    await server.serve(block(text, "library-start"));
    const health = await fetch(`http://127.0.0.1:${server.ports.get(7300)}/assistant/health`);
    assert.equal(health.status, 200);
    assert.equal((await health.json()).store, "memory");
    await server.stop();
  });

  test("tools, tools-start, tools-walkthrough, runtime-readme-check: a tool server checked, registered and used", async () => {
    await server.write(block(text, "server"));
    await server.write(block(text, "tools"));
    await server.serve(block(text, "tools-start"));
    await server.run(block(text, "tools-walkthrough"));
    await server.run(block(text, "runtime-readme-check"));
    // The command alone: an empty project with nothing but the runtime package installed.
    const empty = join(tmp, "check-project");
    await mkdir(empty);
    await writeFile(join(empty, "package.json"), JSON.stringify({ name: "x", private: true }));
    await run(npm, [...NPM_INSTALL, "--loglevel=error", tarballs["@tether/runtime"]], empty);
    const tools = `http://127.0.0.1:${server.ports.get(7200)}`;
    const out = await run("npx", ["tether-check-host", tools, "a-secret-of-16-chars"], empty);
    assert.match(out, /^ok +auth\.wrong_secret: 401/m);
    assert.match(out, /the host follows the contract/);
    const wrong = await run("npx", ["tether-check-host", tools, "not-the-secret-at-all"], empty)
      .then(() => "exit 0", (error: Error) => error.message);
    assert.match(wrong, /: 1\n[\s\S]*FAIL/, "a wrong secret is reported and exits 1");
    await server.stop();
  });

  test("a missing store client stops the runtime with the package to install", async () => {
    const out = await run(process.execPath, ["server.mjs"], server.dir, {
      PORT: "0",
      STORE__URL: "redis://127.0.0.1:1",
    }).then(() => "", (error: Error) => error.message);
    assert.match(out, /needs the package redis.*npm install redis/s);
  });

  test("the sizes the README gives are today's (npm run bench -- sizes)", async () => {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    const row = /\| gzip a page loads \| SDK ([\d.]+) KB; with the elements and Lit ([\d.]+) KB/
      .exec(readme);
    assert.ok(row, "the README's comparison gives Tether's two sizes");
    const [sdk, elements] = [await measureSdk(), await measureElements()];
    const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
    assert.ok(
      Math.abs(kb(sdk.entry.gzip) - Number(row[1])) <= 0.5,
      `the SDK is ${kb(sdk.entry.gzip)} KB gzip; the README says ${row[1]} KB`,
    );
    assert.ok(
      Math.abs(kb(elements.entry.gzip) - Number(row[2])) <= 0.5,
      `the elements and the SDK are ${kb(elements.entry.gzip)} KB gzip; the README says ${
        row[2]
      } KB`,
    );
  });
});
