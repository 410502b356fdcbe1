/**
 * The parts of `npm run bench`, by the name `npm run bench -- <part>` takes.
 * Each part is loaded when it runs, so one part's dependencies (Chromium,
 * esbuild, the comparison packages) never stop another. The README lists
 * these names; `tests/readme_claims.test.ts` holds the two lists equal.
 *
 * @module
 */

/**
 * Part name → what runs it.
 *
 * @example
 * ```ts
 * await BENCH_PARTS.policy();
 * ```
 */
export const BENCH_PARTS: Record<string, () => Promise<unknown>> = {
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
  compare: async () => (await import("./compare.ts")).benchCompare(),
  context: async () => (await import("./context.ts")).benchContext(),
  long: async () => (await import("./long.ts")).benchLong(),
  idle: async () => (await import("./load.ts")).benchIdle(),
  instructions: async () => (await import("./instructions.ts")).benchInstructions(),
};
