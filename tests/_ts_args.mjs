/**
 * The Node arguments that run a TypeScript file on the Node running this process: nothing on a
 * Node that strips types itself (22.18 and later), `_ts_loader.mjs` on one that does not (20).
 * A Node that strips types keeps the compiled code in `NODE_COMPILE_CACHE` (`npm test` sets
 * it), so a test runtime started with 0.8 s of CPU on Node 24, against 1.4 s through tsx.
 *
 * @example
 * spawn(process.execPath, [...tsArgs(), "tests/browser/runtime.ts"]);
 * @returns {string[]}
 */
export function tsArgs() {
  return process.features.typescript ? [] : ["--import", TS_LOADER];
}

/** The absolute path of `_ts_loader.mjs`, for `--import` from any working directory. */
export const TS_LOADER = new URL("./_ts_loader.mjs", import.meta.url).pathname;
