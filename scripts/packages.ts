/**
 * The npm packages a user installs, built from this one repository into
 * `dist/packages/<name>/` by `npm run build` (see docs/architecture.md,
 * "Packages"):
 *
 * - `@tether/web`: protocol/, client/ and elements/ for the page, plus the
 *   prebuilt browser file `browser/tether.js` (Lit included, lazy chunks
 *   beside it). Depends only on what the page runs.
 * - `@tether/runtime`: server/ (and the protocol/ it checks requests with),
 *   with the `tether-check-host` command. `@deno/kv`, the default store's
 *   client on Node, is a dependency; `redis` and `postgres` are optional
 *   peers, loaded when `STORE__URL` names them.
 *
 * Each package gets its own README (`packages/<name>/README.md`, its links
 * rewritten for the package) and the docs/ pages it links to, transitively,
 * so every link in the package opens a file in the package.
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
import { chmod, cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync, realpathSync } from "node:fs";
import { dirname, join, posix, relative, resolve } from "node:path";
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
    for (const source of Object.values(spec.bin)) {
      const js = join(dir, source.replace(/\.ts$/, ".js"));
      if (!(await readFile(js, "utf8")).startsWith("#!/usr/bin/env node\n")) {
        throw new Error(`packages: ${source} is a command; it must start with #!/usr/bin/env node`);
      }
      await chmod(js, 0o755);
    }
    for (const entry of spec.globalTypes) await addGlobalTypes(dir, entry);
    if (spec.browserFile) {
      // The browser file's types: those of `.`, which it bundles.
      const main = spec.exports["."].replace(/^\.\//, "").replace(/\.ts$/, ".js");
      await writeFile(join(dir, "browser", "tether.d.ts"), `export * from "../${main}";\n`);
      await addGlobalTypes(dir, "./browser/tether.ts");
    }
    await writeReadme(key, dir);
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

/** The README of `packages/<key>/` with its links made the package's, and the docs it links to. */
async function writeReadme(key: string, dir: string): Promise<void> {
  const source = join(root, "packages", key, "README.md");
  const text = rewriteLinks(await readFile(source, "utf8"));
  await writeFile(join(dir, "README.md"), text);
  // Every docs/ page reachable through relative links, with the images they show.
  const queue = localLinks(text, "");
  const seen = new Set<string>();
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const from = join(root, file);
    if (!existsSync(from)) {
      throw new Error(`packages: packages/${key}/README.md links ${file}, which does not exist`);
    }
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await cp(from, join(dir, file));
    if (file.endsWith(".md")) {
      queue.push(...localLinks(await readFile(from, "utf8"), dirname(file)));
    }
  }
}

/** `packages/<key>/README.md`'s links as the package's README needs them. */
export function rewriteLinks(text: string): string {
  return text
    .replace(/\]\(\.\.\/\.\.\/docs\//g, "](docs/")
    .replace(
      /\]\(\.\.\/(web|runtime)\/README\.md\)/g,
      "](https://www.npmjs.com/package/@tether/$1)",
    );
}

/** The relative links (and images) of a Markdown text, as paths from the package root. */
function localLinks(text: string, base: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1].split("#")[0];
    if (!target || /^[a-z]+:/i.test(target)) continue;
    out.push(posix.normalize(posix.join(base, target)));
  }
  return out;
}

/** Makes an entry's declarations bring the tags' global types (`elements/global.d.ts`). */
async function addGlobalTypes(dir: string, entry: string): Promise<void> {
  const types = join(dir, entry.replace(/\.ts$/, ".d.ts"));
  const global = join(dir, "elements", "global.d.ts");
  let specifier = relative(dirname(types), global).split("\\").join("/").replace(/\.d\.ts$/, ".js");
  if (!specifier.startsWith(".")) specifier = `./${specifier}`;
  await writeFile(types, `import "${specifier}";\n` + (await readFile(types, "utf8")));
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
  const bin = Object.fromEntries(
    Object.entries(spec.bin).map(([name, source]) => [name, source.replace(/\.ts$/, ".js")]),
  );
  return {
    name: spec.name,
    version: rootPkg.version,
    description: spec.description,
    type: "module",
    license: rootPkg.license,
    repository: rootPkg.repository,
    homepage: rootPkg.homepage,
    engines: rootPkg.engines,
    exports,
    ...(Object.keys(bin).length ? { bin } : {}),
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
