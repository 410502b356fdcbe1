/**
 * The module hook behind `_ts_loader.mjs`: a `.ts` or `.mts` file outside
 * `node_modules` loads as the JavaScript `_ts_cache.mjs` keeps for it;
 * everything else loads as Node loads it. The hook runs on Node's loader
 * thread.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { javascriptOf } from "./_ts_cache.mjs";

const TS = /\.m?ts$/;

/**
 * @param {string} url
 * @param {object} context
 * @param {(url: string, context: object) => Promise<object>} nextLoad
 */
export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:")) return nextLoad(url, context);
  const path = fileURLToPath(url);
  if (!TS.test(path) || path.includes("/node_modules/")) return nextLoad(url, context);
  return { format: "module", source: await javascriptOf(path), shortCircuit: true };
}
