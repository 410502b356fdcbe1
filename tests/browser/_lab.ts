// deno-lint-ignore-file no-explicit-any -- JSON read back from the runtime and the page
/**
 * For the tests that reload pages or restart the runtime (node:test driving
 * Chromium through playwright-core; which Chromium: tests/browser/chromium.mjs): the lab page bundled with
 * esbuild, served on loopback next to a proxy to the runtime, and Chromium.
 *
 * @module
 */
import { build } from "esbuild";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium } from "playwright-core";
import { proxyRequest, proxyUpgrade, RUNTIME_PATHS } from "./proxy.mjs";

import { CHROMIUM_ARGS, findChromium } from "./chromium.mjs";

/**
 * Headless Chromium, with the flags this machine's closed network needs.
 *
 * A browser that dies while it starts (seen on the test machine: SIGSEGV before the first page,
 * with other test files starting browsers beside it; the file passed when run again) is started
 * again, twice at most, and said on stderr: the tests are about Tether, and a browser that never
 * came up tested none of it. Any other launch error, and a third crash, fails the test as before.
 */
export async function launchChromium(): Promise<Browser> {
  const { path, env } = await findChromium();
  for (let attempt = 1;; attempt++) {
    try {
      return await chromium.launch({
        executablePath: path,
        env,
        headless: true,
        args: CHROMIUM_ARGS,
      });
    } catch (error) {
      const text = String((error as Error)?.message ?? error);
      if (attempt >= 3 || !/process did exit|browser has been closed/.test(text)) throw error;
      console.error(`Chromium died while starting (attempt ${attempt}); starting it again.`);
    }
  }
}

/**
 * A fixture page (`fixtures/<page>.ts`, the lab page by default) and a proxy
 * to whatever runtime `target()` names, on one loopback origin.
 */
export async function startLab(
  target: () => string,
  page = "lab_page",
): Promise<{ url: string; close(): Promise<void> }> {
  const outdir = await mkdtemp(join(tmpdir(), "tether-lab-"));
  await build({
    entryPoints: [fileURLToPath(new URL(`fixtures/${page}.ts`, import.meta.url))],
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    outdir,
    logLevel: "error",
  });
  const html =
    `<!doctype html><meta charset="utf-8"><title>lab</title><script type="module" src="/${page}.js"></script>`;
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (RUNTIME_PATHS.test(path)) return proxyRequest(target, req, res);
    if (path === "/") return res.writeHead(200, { "content-type": "text/html" }).end(html);
    try {
      const body = await readFile(join(outdir, path.replace(/^\/+/, "").replace(/\.\./g, "")));
      res.writeHead(200, { "content-type": "text/javascript" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  server.on("upgrade", (req, socket, head) => {
    if (RUNTIME_PATHS.test(req.url ?? "")) proxyUpgrade(target, req, socket, head);
    else socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(outdir, { recursive: true, force: true });
    },
  };
}

/** `GET /api/sessions/{id}/messages` of a runtime. */
export async function messages(base: string, session: string): Promise<any[]> {
  const response = await fetch(`${base}/api/sessions/${session}/messages`);
  return (await response.json()).messages;
}

/** `GET /api/sessions/{id}` of a runtime. */
export async function sessionInfo(base: string, session: string): Promise<any> {
  return await (await fetch(`${base}/api/sessions/${session}`)).json();
}

/** Polls until `check()` is truthy. */
export async function until<T>(
  check: () => Promise<T> | T,
  what: string,
  timeout = 15_000,
): Promise<T> {
  const end = Date.now() + timeout;
  while (true) {
    const value = await Promise.resolve().then(check).catch(() => undefined as T);
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
