/**
 * The prebuilt browser file: `tether.js`, one ES module a static page loads
 * with `<script type="module" src=".../tether.js">`. It defines every element
 * and exports the whole client and element API (the entry is
 * elements/browser.ts, the same one the size budget measures). Lit and zod
 * are inside; what a page needs only sometimes (socket.io-client, the
 * screenshot library) is split into chunks under `chunks/` beside it, fetched
 * on first use relative to the file, so the folder is served as a whole.
 *
 * Run with `tsx scripts/browser-file.ts [outdir]` (default dist/browser/).
 *
 * @module
 */
import { build } from "esbuild";
import { realpathSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const root = realpathSync(fileURLToPath(new URL("..", import.meta.url)));

/**
 * The files `buildBrowserFile()` wrote, relative to its outdir, with their sizes in bytes.
 *
 * @example
 * ```ts
 * const { files }: BrowserFileResult = await buildBrowserFile();
 * files["tether.js"]; // bytes of the entry
 * ```
 */
export interface BrowserFileResult {
  /** The output folder. */
  outdir: string;
  /** Path relative to outdir → size in bytes. */
  files: Record<string, number>;
}

/**
 * Bundles the browser file and its lazy chunks into `outdir` (emptied first).
 *
 * @example
 * ```ts
 * await buildBrowserFile({ outdir: "public/tether" }); // public/tether/tether.js + chunks/
 * ```
 */
export async function buildBrowserFile(
  options: { outdir?: string; quiet?: boolean } = {},
): Promise<BrowserFileResult> {
  const outdir = resolve(options.outdir ?? join(root, "dist", "browser"));
  await rm(outdir, { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: { tether: "elements/browser.ts" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    outdir,
    chunkNames: "chunks/[name]-[hash]",
    legalComments: "linked",
    metafile: true,
    logLevel: "warning",
  });
  const files: Record<string, number> = {};
  for (const [path, { bytes }] of Object.entries(metafile.outputs)) {
    files[relative(outdir, resolve(root, path)).split("\\").join("/")] = bytes;
  }
  if (!options.quiet) {
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(
      `browser file: ${join(relative(process.cwd(), outdir), "tether.js")} (${
        kb(files["tether.js"] ?? 0)
      } minified) and ${Object.keys(files).length - 1} files beside it`,
    );
  }
  return { outdir, files };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildBrowserFile({ outdir: process.argv[2] });
}
