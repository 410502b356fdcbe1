/**
 * The time `screenshot()` takes for a 1280x800 page in headless Chromium
 * (the DOM-to-image library loaded first, then timed over several runs).
 *
 * @module
 */
import { build } from "esbuild";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../tests/browser/_lab.ts";
import { findChromium } from "../tests/browser/chromium.mjs";
import { ms, percentile } from "./_stats.ts";

const PAGE = `<!doctype html><meta charset="utf-8"><body style="margin:0">
<main id="page" style="width:1280px;height:800px;font:14px sans-serif;overflow:hidden">
<h1>Issues</h1><table>${
  Array.from({ length: 40 }, (_, i) =>
    `<tr><td>#${i + 1}</td><td>Issue number ${i + 1}</td><td>open</td></tr>`).join("")
}</table>
</main><script type="module" src="/shot.js"></script>`;

/**
 * Prints the screenshot time (p50, p99 over 10 runs) for a 1280x800 page.
 *
 * @example
 * ```ts
 * await benchScreenshot();
 * ```
 */
export async function benchScreenshot(): Promise<void> {
  console.log("\n## Screenshot of a 1280x800 page (client/screenshot.ts in headless Chromium)\n");
  try {
    await findChromium();
  } catch (error) {
    console.log(`SKIPPED: screenshot bench: no Chromium (${(error as Error).message})`);
    return;
  }
  const bundle = await build({
    stdin: {
      contents: `import { screenshot } from "./client/screenshot.ts";
        globalThis.run = async () => {
          const el = document.getElementById("page");
          await screenshot({ element: el });
          const times = [];
          let size = 0;
          for (let i = 0; i < 10; i++) {
            const t = performance.now();
            const shot = await screenshot({ element: el, maxWidth: 1280 });
            times.push(performance.now() - t);
            size = shot.data_uri.length;
          }
          return { times, size };
        };`,
      resolveDir: fileURLToPath(new URL("..", import.meta.url)),
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    write: false,
    platform: "browser",
  });
  const js = bundle.outputFiles[0].text;
  const server = createServer((req, res) => {
    if (req.url === "/shot.js") res.writeHead(200, { "content-type": "text/javascript" }).end(js);
    else res.writeHead(200, { "content-type": "text/html" }).end(PAGE);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => typeof (globalThis as { run?: unknown }).run === "function");
    const { times, size } = await page.evaluate(() =>
      (globalThis as unknown as { run: () => Promise<{ times: number[]; size: number }> }).run()
    );
    console.log(
      `PNG, 10 runs: p50 ${ms(percentile(times, 50))}, p99 ${ms(percentile(times, 99))}, data URI ${
        Math.round(size / 1024)
      } KB`,
    );
  } finally {
    await browser.close();
    server.close();
  }
}
