/**
 * The JavaScript `_ts_loader.mjs` runs for a TypeScript file on a Node that
 * cannot strip types (20): what esbuild makes of it (types removed, nothing
 * else changed, a source map inline so stack traces name the TypeScript
 * lines), kept in `node_modules/.cache/tether-ts/` under the file's path,
 * size and modification time and the running Node's major version. Across the
 * few hundred processes a suite starts, each file is transformed once, and
 * `npm test` makes them all before the suite starts (`warm`).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import process from "node:process";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("../node_modules/.cache/tether-ts/", import.meta.url));
const major = process.versions.node.split(".")[0];
/** @type {typeof import("esbuild") | undefined} */
let esbuild;

/**
 * Where the JavaScript of the TypeScript file at `path`, as it is now, is kept.
 * @param {string} path
 */
function cachePath(path) {
  const { size, mtimeMs } = statSync(path);
  const name = createHash("sha1").update(path).digest("hex").slice(0, 20);
  return `${dir}${name}.${major}.${size}.${mtimeMs}.mjs`;
}

/**
 * The JavaScript for the TypeScript file at `path`: from the cache, or made now and kept.
 *
 * @example
 * const source = await javascriptOf("/repo/server/engine.ts");
 * @param {string} path
 * @returns {Promise<string>}
 */
export async function javascriptOf(path) {
  const file = cachePath(path);
  try {
    return readFileSync(file, "utf8");
  } catch {
    esbuild ??= await import("esbuild");
    const { code } = await esbuild.transform(readFileSync(path, "utf8"), {
      loader: "ts",
      format: "esm",
      target: `node${process.versions.node}`,
      sourcefile: path,
      sourcemap: "inline",
    });
    mkdirSync(dir, { recursive: true });
    // Several processes may make the same file at once: each writes its own copy and renames it.
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(tmp, code);
    renameSync(tmp, file);
    return code;
  }
}

/**
 * Makes the JavaScript of every file in `paths` that the cache lacks, so the processes of a
 * suite find it there rather than each making it while several others do the same.
 *
 * @example
 * await warm(["/repo/server/engine.ts"]);
 * @param {readonly string[]} paths
 * @returns {Promise<void>}
 */
export async function warm(paths) {
  // A file esbuild cannot read is left to fail where it is loaded, naming the tests it stops.
  await Promise.all(paths.map((path) => javascriptOf(path).catch(() => {})));
}
