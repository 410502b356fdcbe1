/**
 * The npm packages a user installs, built from this one repository into
 * `dist/packages/<name>/` by `npm run build` (see docs/architecture.md,
 * "Packages"):
 *
 * - `@tether/web`: protocol/, client/ and elements/ for the page, plus the
 *   prebuilt browser file `browser/tether.js` (Lit included, lazy chunks
 *   beside it). Depends only on what the page runs.
 * - `@tether/runtime`: server/ (and the protocol/ it checks requests with).
 *   The store clients (redis, postgres, @deno/kv) are optional peers: the
 *   runtime loads the one `STORE__URL` names.
 *
 * Each package's dependencies are the bare imports its built files make,
 * with the versions of the root package.json; an import the root does not
 * list fails the build.
 *
 * Run with `tsx scripts/packages.ts [outdir]` (after `scripts/build.ts`
 * wrote dist/), or through `npm run build`.
 *
 * @module
 */
import { build } from "esbuild";
import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { buildBrowserFile } from "./browser-file.ts";
import { PACKAGES, type PackageSpec } from "./package_specs.ts";

const root = realpathSync(fileURLToPath(new URL("..", import.meta.url)));
const DIST = join(root, "dist");

/**
 * What `buildNpmPackages()` wrote: each package's folder and its dependencies.
 *
 * @example
 * ```ts
 * const { dirs }: PackagesResult = await buildNpmPackages();
 * ```
 */
export interface PackagesResult {
  /** Folder of each package, by key of PACKAGES. */
  dirs: Record<keyof typeof PACKAGES, string>;
  /** The dependencies written into each package.json. */
  dependencies: Record<keyof typeof PACKAGES, Record<string, string>>;
}

/**
 * Assembles every package from the compiled library in `from` (default: a
 * fresh `buildPackage()` into a temporary folder) into `outdir`.
 *
 * @example
 * ```ts
 * const { dirs } = await buildNpmPackages({ outdir: "/tmp/tether-packages" });
 * ```
 */
export async function buildNpmPackages(
  options: { outdir?: string; from?: string; quiet?: boolean } = {},
): Promise<PackagesResult> {
  const outdir = resolve(options.outdir ?? join(DIST, "packages"));
  // Imported here, not above: build.ts imports this file when run as `npm run build`.
  const from = options.from ??
    (await (await import("./build.ts")).buildPackage({
      outdir: join(outdir, ".library"),
      quiet: true,
    })).outdir;
  const rootPkg = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
  const known: Record<string, string> = { ...rootPkg.devDependencies, ...rootPkg.dependencies };
  const result = { dirs: {}, dependencies: {} } as PackagesResult;
  for (const [key, spec] of Object.entries(PACKAGES) as [keyof typeof PACKAGES, PackageSpec][]) {
    const dir = join(outdir, key);
    await rm(dir, { recursive: true, force: true });
    for (const sub of spec.dirs) await cp(join(from, sub), join(dir, sub), { recursive: true });
    if (spec.browserFile) await buildBrowserFile({ outdir: join(dir, "browser"), quiet: true });
    const imports = await bareImports(dir, spec.dirs);
    const dependencies: Record<string, string> = {};
    const peers: Record<string, string> = {};
    for (const name of imports) {
      if (!known[name]) {
        throw new Error(
          `packages: ${spec.name} imports "${name}", which package.json does not list; add it`,
        );
      }
      (spec.optionalPeers.includes(name) ? peers : dependencies)[name] = known[name];
    }
    await writeFile(
      join(dir, "package.json"),
      JSON.stringify(manifest(spec, rootPkg, dependencies, peers), null, 2) + "\n",
    );
    await cp(join(root, "README.md"), join(dir, "README.md"));
    await cp(join(root, "LICENSE"), join(dir, "LICENSE"));
    if (spec.dirs.includes("elements")) {
      await cp(join(root, "custom-elements.json"), join(dir, "custom-elements.json"));
    }
    result.dirs[key] = dir;
    result.dependencies[key] = dependencies;
    if (!options.quiet) {
      console.log(`packages: ${spec.name} in ${dir} (${Object.keys(dependencies).join(", ")})`);
    }
  }
  if (!options.from) await rm(from, { recursive: true, force: true });
  return result;
}

function manifest(
  spec: PackageSpec,
  rootPkg: Record<string, unknown>,
  dependencies: Record<string, string>,
  peers: Record<string, string>,
): Record<string, unknown> {
  const exports: Record<string, unknown> = {};
  for (const [subpath, source] of Object.entries(spec.exports)) {
    const js = source.replace(/\.ts$/, ".js");
    exports[subpath] = { types: source.replace(/\.ts$/, ".d.ts"), default: js };
  }
  if (spec.browserFile) exports["./browser/*"] = "./browser/*";
  exports["./package.json"] = "./package.json";
  return {
    name: spec.name,
    version: rootPkg.version,
    description: spec.description,
    type: "module",
    license: rootPkg.license,
    engines: rootPkg.engines,
    exports,
    ...(spec.dirs.includes("elements") ? { customElements: "custom-elements.json" } : {}),
    sideEffects: spec.sideEffects.length ? spec.sideEffects : false,
    dependencies: sorted(dependencies),
    ...(Object.keys(peers).length
      ? {
        peerDependencies: sorted(peers),
        peerDependenciesMeta: Object.fromEntries(
          Object.keys(sorted(peers)).map((name) => [name, { optional: true }]),
        ),
      }
      : {}),
  };
}

const sorted = (o: Record<string, string>) =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));

/** The package names (not subpaths) the built JavaScript under `dirs` imports, `node:` left out. */
async function bareImports(dir: string, dirs: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const sub of dirs) {
    for (const file of await readdir(join(dir, sub), { recursive: true })) {
      if (String(file).endsWith(".js")) files.push(join(dir, sub, String(file)));
    }
  }
  const { metafile } = await build({
    entryPoints: files,
    bundle: true,
    packages: "external",
    platform: "neutral",
    write: false,
    metafile: true,
    outdir: join(dir, ".graph"),
    logLevel: "silent",
  });
  const specifiers = Object.values(metafile.outputs).flatMap((output) =>
    output.imports.filter((i) => i.external).map((i) => i.path)
  );
  // Type-only imports are gone from the JavaScript; the declaration files still name them.
  for (const file of files) {
    // Block comments go first: the JSDoc examples import by package name.
    const types = (await readFile(file.replace(/\.js$/, ".d.ts"), "utf8").catch(() => ""))
      .replace(/\/\*[\s\S]*?\*\//g, "");
    for (
      const m of types.matchAll(
        /\bfrom\s*["']([^"'.][^"']*)["']|\bimport\(\s*["']([^"'.][^"']*)["']\s*\)/g,
      )
    ) {
      specifiers.push(m[1] ?? m[2]);
    }
  }
  const names = new Set<string>();
  for (const path of specifiers) {
    if (path.startsWith("node:") || path.startsWith(".")) continue;
    const parts = path.split("/");
    names.add(parts[0].startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]);
  }
  return [...names].sort();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outdir = process.argv[2];
  const from = existsSync(join(DIST, "server")) ? DIST : undefined;
  await buildNpmPackages({ outdir, from });
}
