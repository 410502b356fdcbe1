/**
 * The Node arguments that run a TypeScript file on the Node running this process: nothing on a
 * Node that strips types itself (22.18 and later), tsx's loader on one that does not (20).
 * Besides the loader's own work, a file tsx loaded is compiled afresh every time, while a Node
 * that strips types keeps the compiled code in `NODE_COMPILE_CACHE` (`npm test` sets it): a
 * test runtime started 1.4 s of CPU through tsx and 0.8 s without it, on Node 24 with the cache.
 *
 * @example
 * spawn(process.execPath, [...tsArgs(), "tests/browser/runtime.ts"]);
 * @returns {string[]}
 */
export function tsArgs() {
  return process.features.typescript ? [] : ["--import", "tsx"];
}
