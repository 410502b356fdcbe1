/**
 * Bundle sizes, measured the way a page pays for them: esbuild bundles an
 * entry for the browser (minified ESM, code splitting), and each size is the
 * gzip of the entry chunk plus every chunk it imports statically. Chunks
 * reached only through `import()` (the host_context schema, the screenshot
 * library) are listed apart; the screenshot library stays external.
 *
 * Run: `node --import tsx scripts/size.ts` prints the SDK's sizes against its budget.
 *
 * @module
 */
import { build, type Metafile } from "esbuild";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { constants, gzipSync } from "node:zlib";
import { cssLiterals } from "./css_literals.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The SDK entry's budget: client, both transports, the journal, zod included; gzip bytes (1 KB = 1024 bytes). */
export const SDK_BUDGET = 25 * 1024;

/** One output chunk. */
export interface ChunkSize {
  file: string;
  raw: number;
  gzip: number;
  /** The biggest inputs in this chunk (bytes of minified output), largest first. */
  inputs: { path: string; bytes: number }[];
}

/** What `measure()` finds. */
export interface BundleSize {
  /** The entry chunk and the chunks it imports statically: what loading the entry costs. */
  entry: { raw: number; gzip: number; chunks: ChunkSize[] };
  /** Chunks loaded on demand through `import()`. */
  lazy: ChunkSize[];
  /** Imports left out of the bundle. */
  external: string[];
}

/** Options of `measure()`. */
export interface MeasureOptions {
  /** Packages left out (loaded lazily by the page, or not part of the measured bundle). */
  external?: string[];
  /** The folder `entry` and its packages resolve from (default: the repository). */
  cwd?: string;
}

const gzip = (bytes: Uint8Array) => gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }).length;

/**
 * Bundles `entry` (a path from the repository root) and measures it.
 *
 * @example
 * ```ts
 * const size = await measure("client/mod.ts", { external: ["modern-screenshot"] });
 * console.log(size.entry.gzip);
 * ```
 */
export async function measure(entry: string, options: MeasureOptions = {}): Promise<BundleSize> {
  const outdir = await mkdtemp(join(tmpdir(), "tether-size-"));
  const cwd = options.cwd ?? root;
  try {
    const result = await build({
      absWorkingDir: cwd,
      entryPoints: [entry],
      bundle: true,
      minify: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      outdir,
      external: options.external ?? [],
      metafile: true,
      logLevel: "silent",
      legalComments: "none",
      plugins: [cssLiterals],
    });
    const outputs = result.metafile.outputs;
    const name = (file: string) => relative(outdir, join(cwd, file));
    const sizes = new Map<string, ChunkSize>();
    for (const [file, output] of Object.entries(outputs)) {
      if (!file.endsWith(".js")) continue;
      const bytes = await readFile(join(cwd, file));
      sizes.set(file, {
        file: name(file),
        raw: bytes.length,
        gzip: gzip(bytes),
        inputs: Object.entries(output.inputs)
          .map(([path, input]) => ({ path, bytes: input.bytesInOutput }))
          .filter((i) => i.bytes > 0)
          .sort((a, b) => b.bytes - a.bytes),
      });
    }
    const entryFile = Object.keys(outputs).find((f) => outputs[f].entryPoint === entry)!;
    const eager = staticClosure(outputs, entryFile);
    const eagerBytes = Buffer.concat(
      await Promise.all([...eager].map((f) => readFile(join(cwd, f)))),
    );
    return {
      entry: {
        raw: eagerBytes.length,
        // One gzip over the chunks together: what the page downloads, give or take per-file framing.
        gzip: [...eager].reduce((n, f) => n + sizes.get(f)!.gzip, 0),
        chunks: [...eager].map((f) => sizes.get(f)!),
      },
      lazy: [...sizes.keys()].filter((f) => !eager.has(f)).map((f) => sizes.get(f)!),
      external: [
        ...new Set(
          Object.values(outputs).flatMap((o) =>
            o.imports.filter((i) => i.external).map((i) => i.path)
          ),
        ),
      ],
    };
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}

/** The chunk and every chunk it reaches through static imports. */
function staticClosure(
  outputs: Metafile["outputs"],
  file: string,
  seen = new Set<string>(),
): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const imported of outputs[file].imports) {
    if (imported.kind === "import-statement" && !imported.external) {
      staticClosure(outputs, imported.path, seen);
    }
  }
  return seen;
}

/** Measures the SDK entry (`client/mod.ts`), the screenshot library left external. */
export const measureSdk = (): Promise<BundleSize> =>
  measure("client/mod.ts", { external: ["modern-screenshot"] });

/** Measures the screenshot library on its own, as the lazy chunk a page loads on its first screenshot. */
export const measureScreenshotLibrary = (): Promise<BundleSize> => measure("client/screenshot.ts");

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Prints the SDK's sizes; returns false when the entry is over budget. */
export async function report(): Promise<boolean> {
  const sdk = await measureSdk();
  const shot = await measureScreenshotLibrary();
  const lines = [
    `SDK entry (client/mod.ts: client, both transports, IndexedDB journal, protocol schemas with zod; minified, gzip -9): ${
      kb(sdk.entry.gzip)
    } gzip, ${kb(sdk.entry.raw)} raw; budget ${kb(SDK_BUDGET)}`,
  ];
  const inputs = sdk.entry.chunks.flatMap((c) => c.inputs);
  const groups = new Map<string, number>();
  for (const { path, bytes } of inputs) {
    const parts = path.split("/");
    const key = parts[0] === "node_modules"
      ? parts.slice(0, parts[1].startsWith("@") ? 3 : 2).join("/")
      : parts[0];
    groups.set(key, (groups.get(key) ?? 0) + bytes);
  }
  for (const [group, bytes] of [...groups].sort((a, b) => b[1] - a[1])) {
    lines.push(`  ${group}: ${kb(bytes)} minified`);
  }
  for (const chunk of sdk.lazy) {
    lines.push(
      `lazy chunk ${chunk.file} (${chunk.inputs.slice(0, 3).map((i) => i.path).join(", ")}): ${
        kb(chunk.gzip)
      } gzip`,
    );
  }
  lines.push(
    `lazy screenshot library (modern-screenshot, loaded on the first screenshot): ${
      kb(shot.lazy.reduce((n, c) => n + c.gzip, 0))
    } gzip`,
  );
  console.log(lines.join("\n"));
  return sdk.entry.gzip <= SDK_BUDGET;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = (await report()) ? 0 : 1;
}
