/**
 * The module hook behind `_ts_loader.mjs`: on a Node that cannot run TypeScript
 * itself (20), a `.ts` or `.mts` file outside `node_modules` loads as the
 * JavaScript esbuild makes of it (types removed, nothing else changed, a source
 * map inline so stack traces name the TypeScript lines). What esbuild made is
 * kept in `node_modules/.cache/tether-ts/`, under the file's path, size and
 * modification time, so across the few hundred processes a suite starts each
 * file is transformed once. Everything else loads as Node loads it.
 *
 * The hook runs on Node's loader thread, where synchronous file calls cost
 * less than their promise forms for files this small.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const cache = fileURLToPath(new URL("../node_modules/.cache/tether-ts/", import.meta.url));
const TS = /\.m?ts$/;
/** @type {typeof import("esbuild") | undefined} */
let esbuild;
let ready = false;

/**
 * @param {string} url
 * @param {{ format?: string }} context
 * @param {(url: string, context: object) => Promise<object>} nextLoad
 */
export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:")) return nextLoad(url, context);
  const path = fileURLToPath(url);
  if (!TS.test(path) || path.includes("/node_modules/")) return nextLoad(url, context);
  const { size, mtimeMs } = statSync(path);
  const name = createHash("sha1").update(path).digest("hex").slice(0, 20);
  const file = `${cache}${name}.${size}.${mtimeMs}.mjs`;
  let source;
  try {
    source = readFileSync(file, "utf8");
  } catch {
    esbuild ??= await import("esbuild");
    const built = await esbuild.transform(readFileSync(path, "utf8"), {
      loader: "ts",
      format: "esm",
      target: `node${process.versions.node}`,
      sourcefile: path,
      sourcemap: "inline",
    });
    source = built.code;
    if (!ready) mkdirSync(cache, { recursive: true }), ready = true;
    // Several test processes may make the same file at once: each writes its own and renames.
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(tmp, source);
    renameSync(tmp, file);
  }
  return { format: "module", source, shortCircuit: true };
}
