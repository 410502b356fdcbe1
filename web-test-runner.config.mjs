/**
 * web-test-runner: every `*.browser.test.ts` runs in headless Chromium (from
 * CHROME_PATH, the system, or the @sparticuz/chromium devDependency; see
 * tests/browser/chromium.mjs) against a real runtime that the setup starts
 * on loopback (offline model, memory store) and stops at the end.
 *
 * The test pages reach the runtime two ways: directly (its URL, another
 * origin) and through this server (same origin: /api, /socket.io and /health
 * are proxied, WebSocket upgrades included). `GET /runtime-url` answers
 * `{ url, proxied }`; tests/browser/_runtime.ts reads it.
 *
 * Run: `node node_modules/@web/test-runner/dist/bin.js --config web-test-runner.config.mjs`
 */
import { esbuildPlugin } from "@web/dev-server-esbuild";
import { playwrightLauncher } from "@web/test-runner-playwright";
import { proxyRequest, proxyUpgrade, RUNTIME_PATHS } from "./tests/browser/proxy.mjs";
import { spawnRuntime } from "./tests/browser/spawn_runtime.mjs";
import { CHROMIUM_ARGS, findChromium } from "./tests/browser/chromium.mjs";

const browser = await findChromium();

/** @type {Awaited<ReturnType<typeof spawnRuntime>> | undefined} */
let runtime;
/** Why the runtime could not start (the tests that need it fail with this). */
let failure;
const target = () => runtime?.url ?? "http://127.0.0.1:9";

/** Starts the runtime with the server and stops it with the server; proxies WebSocket upgrades to it. */
function tetherRuntime() {
  return {
    name: "tether-runtime",
    async serverStart({ server }) {
      try {
        runtime = await spawnRuntime();
      } catch (error) {
        failure = String(error?.message ?? error);
        console.error(
          `\nThe test runtime did not start; tests that need it will fail:\n${failure}\n`,
        );
      }
      server.on("upgrade", (req, socket, head) => {
        if (RUNTIME_PATHS.test(req.url ?? "")) proxyUpgrade(target, req, socket, head);
      });
    },
    async serverStop() {
      await runtime?.stop();
    },
  };
}

/** Tells pages where the runtime is, and proxies its paths (first in line, before file serving). */
async function runtimeRoutes(ctx, next) {
  if (ctx.path === "/runtime-url") {
    ctx.body = runtime ? { url: runtime.url, proxied: ctx.origin } : { error: failure };
    return;
  }
  if (!RUNTIME_PATHS.test(ctx.path)) return next();
  ctx.respond = false;
  // Koa logs ctx.status (404 by default) after this returns: give it the runtime's status first.
  await new Promise((resolve) =>
    proxyRequest(target, ctx.req, ctx.res, (status) => resolve(ctx.status = status))
  );
}

export default {
  files: ["**/*.browser.test.ts", "!**/node_modules/**"],
  nodeResolve: { browser: true, exportConditions: ["browser"] },
  concurrency: 1,
  testsFinishTimeout: 180_000,
  testFramework: { config: { timeout: 20_000 } },
  middleware: [runtimeRoutes],
  plugins: [esbuildPlugin({ ts: true, target: "es2022" }), tetherRuntime()],
  browsers: [
    playwrightLauncher({
      product: "chromium",
      launchOptions: {
        executablePath: browser.path,
        env: browser.env,
        headless: true,
        args: CHROMIUM_ARGS,
      },
    }),
  ],
};
