/**
 * Builds the demo (`demo/`) with esbuild into `demo/dist/`: minified ES
 * module bundles (the tracker with the client SDK, the elements and Lit;
 * the operator's approval inbox), the two pages and their stylesheet (the folder is emptied first). `npm start` runs it before serving; run it alone
 * with `node --import tsx scripts/build-demo.ts`.
 *
 * @module
 */
import { build } from "esbuild";
import { copyFile, mkdir, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { cssLiterals } from "./css_literals.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * Where the demo is built by default.
 *
 * @example
 * ```ts
 * await startNode({ staticRoot: DEMO_DIST });
 * ```
 */
export const DEMO_DIST = join(root, "demo", "dist");

/** Options of `buildDemo()`. */
export interface BuildDemoOptions {
  /** Output folder (default `demo/dist`). */
  outdir?: string;
  /** Minify (default true). */
  minify?: boolean;
}

/**
 * Builds the demo and returns the folder to serve.
 *
 * @example
 * ```ts
 * const staticRoot = await buildDemo();
 * await startNode({ staticRoot });
 * ```
 */
export async function buildDemo(options: BuildDemoOptions = {}): Promise<string> {
  const target = options.outdir ?? DEMO_DIST;
  // Built beside the folder, then moved in file by file (each rename is atomic): a runtime
  // serving the folder meanwhile never sees a file missing or half written.
  const outdir = `${target}.build-${process.pid}-${Date.now()}`;
  await mkdir(outdir, { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: { main: "demo/main.ts", operator: "demo/operator.ts" },
    bundle: true,
    minify: options.minify ?? true,
    sourcemap: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    // The screenshot library is loaded on first use only; it stays a chunk of its own.
    splitting: true,
    outdir,
    logLevel: "warning",
    legalComments: "none",
    plugins: [cssLiterals],
  });
  // The demo's tool server runs in the runtime's process (npm start), outside the served folder.
  await build({
    absWorkingDir: root,
    entryPoints: ["demo/tools_host.ts"],
    bundle: true,
    packages: "external",
    format: "esm",
    platform: "node",
    target: "es2022",
    outfile: join(target, "..", "dist-tools", "tools_host.mjs"),
    logLevel: "warning",
  });
  await Promise.all(
    ["index.html", "operator.html", "styles.css"].map((f) =>
      copyFile(join(root, "demo", f), join(outdir, f))
    ),
  );
  await mkdir(target, { recursive: true });
  const built = await readdir(outdir);
  for (const name of built) await rename(join(outdir, name), join(target, name));
  // Chunk names carry hashes: the old ones go once the new ones are in place.
  for (const name of await readdir(target)) {
    if (!built.includes(name)) await rm(join(target, name), { recursive: true, force: true });
  }
  await rm(outdir, { recursive: true, force: true });
  return target;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outdir = await buildDemo();
  console.log(`demo built into ${outdir}`);
}
