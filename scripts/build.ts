/**
 * `npm run build` (and `prepack`): compiles the library for npm into `dist/`,
 * keeping the source layout, so the `exports` of package.json resolve.
 *
 * - JavaScript: esbuild transpiles each file on its own (no bundling).
 * - Declarations: TypeScript writes `.d.ts` files without type checking
 *   (`--noCheck`; `tsc` and the tests do the checking).
 * - Relative `.ts` import specifiers become `.js` in both. esbuild leaves
 *   them alone when not bundling, and TypeScript keeps them in declaration
 *   files even with `rewriteRelativeImportExtensions`, so a post-pass
 *   rewrites them. Then esbuild re-parses the output and the build fails if
 *   any relative import, static or dynamic, does not name a built file.
 *
 * Sources: every file under protocol/, client/, elements/ and server/
 * except tests (`*.test.ts`), test suites (`*.case.ts`), the repository's
 * test kits (`server/testing/`, `server/policy/testing/`: nothing exported
 * imports them) and private `_*.ts` files that no other built file imports
 * (fixtures). `npm start` runs the
 * built `server/runtime/start.js` (scripts/prestart.mjs builds it first).
 *
 * Run with `tsx scripts/build.ts [outdir]`; without an outdir it also
 * assembles the npm packages into dist/packages/ (scripts/packages.ts).
 *
 * @module
 */
import { build, type Plugin } from "esbuild";
import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { cssLiterals } from "./css_literals.ts";

// The real path: esbuild reports resolved (symlink-free) paths, which are compared with this.
const root = realpathSync(fileURLToPath(new URL("..", import.meta.url)));
const SOURCE_DIRS = ["protocol", "client", "elements", "server"];
/** Folders of test kits: the repository's tests use them, no package ships them. */
const TEST_KITS = ["server/testing/", "server/policy/testing/"];
const TARGET = "es2022";

/**
 * Where `npm run build` writes by default (the folder package.json exports point into).
 *
 * @example
 * ```ts
 * await buildPackage({ outdir: DIST });
 * ```
 */
export const DIST: string = join(root, "dist");

/**
 * Options of `buildPackage()`.
 *
 * @example
 * ```ts
 * const options: BuildOptions = { outdir: "/tmp/tether-dist", quiet: true };
 * ```
 */
export interface BuildOptions {
  /** Output folder (default `dist/`); emptied first. */
  outdir?: string;
  /** Print nothing (default false). */
  quiet?: boolean;
}

/**
 * What `buildPackage()` wrote.
 *
 * @example
 * ```ts
 * const { modules, declarations, ms }: BuildResult = await buildPackage();
 * ```
 */
export interface BuildResult {
  /** The output folder. */
  outdir: string;
  /** Source files compiled, relative to the repository root, `/`-separated. */
  sources: string[];
  /** Number of `.js` files written. */
  modules: number;
  /** Number of `.d.ts` files written. */
  declarations: number;
  /** Wall-clock time of the build, in milliseconds. */
  ms: number;
}

/**
 * Compiles the library sources into `outdir` (JavaScript and declarations).
 *
 * @example
 * ```ts
 * const { outdir, modules } = await buildPackage({ outdir: "/tmp/tether-dist" });
 * ```
 */
export async function buildPackage(options: BuildOptions = {}): Promise<BuildResult> {
  const started = performance.now();
  const outdir = resolve(options.outdir ?? DIST);
  // The folder is emptied first: refuse anything that holds the sources.
  const inside = relative(outdir, root);
  if (!inside.startsWith("..") && !isAbsolute(inside)) {
    throw new Error(
      `build: outdir ${outdir} contains the repository; choose a folder of its own, such as dist/`,
    );
  }
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });

  const sources = await librarySources();
  const [modules, declarations] = await Promise.all([
    emitJavaScript(sources, outdir),
    emitDeclarations(sources, outdir),
  ]);
  await checkRelativeImports(outdir);
  const result = {
    outdir,
    sources,
    modules,
    declarations,
    ms: Math.round(performance.now() - started),
  };
  if (!options.quiet) {
    console.log(
      `build: ${modules} modules and ${declarations} declaration files in ${
        relative(process.cwd(), outdir) || "."
      } (${result.ms} ms)`,
    );
  }
  return result;
}

/** Rewrites relative `.ts` specifiers of imports, re-exports and `import()` to `.js`. */
const RELATIVE_TS = /(\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.{1,2}\/[^"'\n]*?)\.ts\2/g;
const toJs = (code: string) =>
  code.replace(RELATIVE_TS, (_m, lead, quote, path) => `${lead}${quote}${path}.js${quote}`);
const posix = (path: string) => path.split(sep).join("/");

async function librarySources(): Promise<string[]> {
  const all: string[] = [];
  for (const dir of SOURCE_DIRS) {
    for (const file of await readdir(join(root, dir), { recursive: true })) {
      const path = `${dir}/${posix(file)}`;
      if (
        !path.endsWith(".ts") || /\.(test|case|d)\.ts$/.test(path) ||
        TEST_KITS.some((kit) => path.startsWith(kit))
      ) {
        continue;
      }
      all.push(path);
    }
  }
  // Private files that only tests import are not part of the package: keep the
  // public files and whatever they import (esbuild walks the graph; packages stay out).
  const entries = all.filter((path) => !path.split("/").at(-1)!.startsWith("_"));
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: entries,
    bundle: true,
    packages: "external",
    external: ["node:*"],
    platform: "neutral",
    write: false,
    metafile: true,
    outdir: "graph",
    logLevel: "silent",
  });
  const reached = new Set(Object.keys(metafile.inputs));
  const outside = [...reached].filter((path) => !all.includes(path));
  if (outside.length) {
    throw new Error(
      `build: library files import files outside the library: ${
        outside.join(", ")
      }; move them under ${SOURCE_DIRS.join("/, ")}/`,
    );
  }
  return all.filter((path) => reached.has(path)).sort();
}

async function emitJavaScript(sources: string[], outdir: string): Promise<number> {
  const { outputFiles } = await build({
    absWorkingDir: root,
    entryPoints: sources,
    outbase: ".",
    outdir,
    bundle: false,
    format: "esm",
    platform: "neutral",
    target: TARGET,
    write: false,
    logLevel: "warning",
    plugins: [cssLiterals],
  });
  await Promise.all(outputFiles.map(async (file) => {
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, toJs(file.text));
  }));
  return outputFiles.length;
}

async function emitDeclarations(sources: string[], outdir: string): Promise<number> {
  const tsc = join(
    dirname(createRequire(import.meta.url).resolve("typescript/package.json")),
    "bin",
    "tsc",
  );
  const args = [
    "--ignoreConfig",
    "--declaration",
    "--emitDeclarationOnly",
    "--noCheck",
    "--rewriteRelativeImportExtensions",
    "--module",
    "nodenext",
    "--target",
    TARGET,
    "--lib",
    "es2024,dom,dom.iterable",
    "--types",
    "node",
    "--skipLibCheck",
    "--pretty",
    "false",
    "--rootDir",
    root,
    "--outDir",
    outdir,
    "--listEmittedFiles",
    ...sources,
  ];
  const { code, out } = await new Promise<{ code: number | null; out: string }>((done, fail) => {
    const child = spawn(process.execPath, [tsc, ...args], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (out += chunk));
    child.on("error", fail);
    child.on("close", (code) => done({ code, out }));
  });
  const emitted = [...out.matchAll(/^TSFILE: (.+\.d\.ts)$/gm)].map((m) => m[1].trim());
  if (code !== 0 || emitted.length === 0) {
    throw new Error(
      `build: tsc could not write the declaration files (exit code ${code}):\n${
        out.replace(/^TSFILE: .*\n/gm, "")
      }`,
    );
  }
  await Promise.all(
    emitted.map(async (path) => writeFile(path, toJs(await readFile(path, "utf8")))),
  );
  return emitted.length;
}

/** Fails the build when a relative import in the output does not name a built file. */
async function checkRelativeImports(outdir: string): Promise<void> {
  const files = (await readdir(outdir, { recursive: true })).map(posix);
  const problems: string[] = [];
  const check = (importer: string, specifier: string, ext: ".js" | ".d.ts") => {
    if (!specifier.startsWith("./") && !specifier.startsWith("../")) return;
    const target = resolve(dirname(join(outdir, importer)), specifier);
    const expected = ext === ".js" ? target : target.replace(/\.js$/, ".d.ts");
    if (!specifier.endsWith(".js") || !target.startsWith(outdir + sep) || !existsSync(expected)) {
      problems.push(`${importer} imports ${specifier}`);
    }
  };

  // esbuild parses the JavaScript and reports every import record, dynamic ones included.
  const collect: Plugin = {
    name: "collect-imports",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        check(posix(relative(outdir, args.importer)), args.path, ".js");
        return { path: args.path, external: true };
      });
    },
  };
  await build({
    absWorkingDir: outdir,
    entryPoints: files.filter((f) => f.endsWith(".js")),
    bundle: true,
    write: false,
    outdir: "check",
    platform: "neutral",
    logLevel: "silent",
    plugins: [collect],
  });
  // Declaration files carry no values, so their import syntax is the plain kind the pattern reads.
  for (const file of files.filter((f) => f.endsWith(".d.ts"))) {
    // Block comments go first: the examples in JSDoc may import files that are not built.
    const text = (await readFile(join(outdir, file), "utf8")).replace(/\/\*[\s\S]*?\*\//g, "");
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"'\n]*)["']/g)) {
      check(file, m[1], ".d.ts");
    }
  }
  if (problems.length) {
    throw new Error(
      `build: ${problems.length} relative imports in ${outdir} do not name a built .js file:\n  ${
        problems.join("\n  ")
      }`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const library = await buildPackage({ outdir: process.argv[2] });
  // `npm run build` also assembles the npm packages from it (scripts/packages.ts).
  if (process.argv[2] === undefined) {
    const { buildNpmPackages } = await import("./packages.ts");
    await buildNpmPackages({ from: library.outdir });
  }
}
