/**
 * `npm run bench`: prints every figure; never passes or fails on time.
 * Run one part with `npm run bench -- core` (core, transports, stores, load, sizes, screenshot, policy, offline, remote, sessions).
 *
 * @module
 */
import process from "node:process";

// Each part is loaded when it runs, so one part's dependencies (Chromium, esbuild) never stop another.
const parts: Record<string, () => Promise<unknown>> = {
  core: async () => (await import("./core.ts")).benchCore(),
  stores: async () => (await import("./stores.ts")).benchStores(),
  load: async () => (await import("./load.ts")).benchLoad(),
  transports: async () => (await import("./transports.ts")).benchTransports(),
  sizes: async () => {
    console.log("\n## Bundle sizes (esbuild, minified, gzip -9)\n");
    await (await import("../scripts/size.ts")).report();
    await (await import("../scripts/size-elements.ts")).reportElements();
  },
  screenshot: async () => (await import("./screenshot.ts")).benchScreenshot(),
  policy: async () => (await import("./policy.ts")).benchPolicy(),
  offline: async () => (await import("./offline.ts")).benchOffline(),
  remote: async () => (await import("./remote.ts")).benchRemote(),
  sessions: async () => (await import("./sessions.ts")).benchSessions(),
};

const wanted = process.argv.slice(2).filter((a) => a in parts);
console.log(`# Tether benchmarks (${new Date().toISOString()}, Node ${process.version})`);
for (const [name, run] of Object.entries(parts)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await run();
}
process.exit(0);
