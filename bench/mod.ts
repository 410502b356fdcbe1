/**
 * `npm run bench`: prints every figure; never passes or fails on time.
 * Run one part with `npm run bench -- core` (core, transports, stores, load, sizes, screenshot).
 *
 * @module
 */
import process from "node:process";
import { benchCore } from "./core.ts";
import { benchTransports } from "./transports.ts";
import { benchStores } from "./stores.ts";
import { benchLoad } from "./load.ts";
import { benchScreenshot } from "./screenshot.ts";
import { report as reportSdkSize } from "../scripts/size.ts";
import { reportElements } from "../scripts/size-elements.ts";

const parts: Record<string, () => Promise<unknown>> = {
  core: benchCore,
  stores: benchStores,
  load: benchLoad,
  transports: benchTransports,
  sizes: async () => {
    console.log("\n## Bundle sizes (esbuild, minified, gzip -9)\n");
    await reportSdkSize();
    await reportElements();
  },
  screenshot: benchScreenshot,
};

const wanted = process.argv.slice(2).filter((a) => a in parts);
console.log(`# Tether benchmarks (${new Date().toISOString()}, Node ${process.version})`);
for (const [name, run] of Object.entries(parts)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await run();
}
process.exit(0);
