/**
 * Generates `custom-elements.json`, the Custom Elements Manifest of
 * `elements/`, with `@custom-elements-manifest/analyzer` and its Lit plugin:
 * tags, attributes, properties, events, slots, CSS parts and custom
 * properties, all read from the classes' JSDoc and `static properties`.
 *
 * Run: `node --import tsx scripts/cem.ts` (writes the committed manifest) or
 * `... scripts/cem.ts --out <path>` (writes elsewhere; the manifest test does).
 *
 * @module
 */
import * as analyzer from "@custom-elements-manifest/analyzer";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

// The package's types describe its plugin API only; create() and its TypeScript are untyped exports.
const { create, ts } = analyzer as unknown as {
  create(options: { modules: unknown[]; plugins: unknown[]; context: { dev: boolean } }): unknown;
  ts: {
    createSourceFile(name: string, text: string, target: number, parents: boolean): unknown;
    ScriptTarget: { ES2022: number };
  };
};
// The Lit plugin (static properties, attributes) is what the CLI's --litelement flag loads.
const LIT_PLUGIN = "@custom-elements-manifest/analyzer/src/features/framework-plugins/lit/lit.js";

/**
 * Where the committed manifest lives.
 *
 * @example
 * ```ts
 * JSON.parse(readFileSync(MANIFEST_PATH, "utf8")).schemaVersion; // "1.0.0"
 * ```
 */
export const MANIFEST_PATH = join(root, "custom-elements.json");

// Tests and private modules (`_name.ts`: helpers, fixtures, the size entry) are no public API.
const SKIP = /\.test\.ts$|^_/;

/** Declarations as the analyzer leaves them, the parts this file tidies. */
interface Declaration {
  customElement?: boolean;
  events?: { name?: string; description?: string }[];
  members?: { name: string }[];
}

/**
 * Keeps a class's documented surface only: the events its `@fires` tags name
 * (the analyzer also guesses events from `dispatchEvent(new X("..."))`
 * calls, taking an unrelated argument for the name) and no `#private` members.
 */
const documentedOnly = {
  name: "tether-documented-only",
  packageLinkPhase(
    { customElementsManifest }: {
      customElementsManifest: { modules: { declarations?: Declaration[] }[] };
    },
  ) {
    for (const mod of customElementsManifest.modules) {
      for (const d of mod.declarations ?? []) {
        if (!d.customElement) continue;
        if (d.events) d.events = d.events.filter((e) => e.name && e.description);
        if (d.members) d.members = d.members.filter((m) => !m.name.startsWith("#"));
      }
    }
  },
};

/**
 * The source files the manifest describes, sorted so the output is stable.
 *
 * @example
 * ```ts
 * (await manifestSources()).includes("elements/chat.ts"); // true
 * ```
 */
export async function manifestSources(): Promise<string[]> {
  const names = await readdir(join(root, "elements"));
  return names.filter((n) => n.endsWith(".ts") && !SKIP.test(n)).sort().map((n) => `elements/${n}`);
}

/**
 * The manifest as the formatted JSON text that is committed.
 *
 * @example
 * ```ts
 * const text = await generateManifest();
 * JSON.parse(text).modules.length > 0; // true
 * ```
 */
export async function generateManifest(): Promise<string> {
  const modules = await Promise.all(
    (await manifestSources()).map(async (path) =>
      ts.createSourceFile(
        path,
        await readFile(join(root, path), "utf8"),
        ts.ScriptTarget.ES2022,
        true,
      )
    ),
  );
  const { litPlugin } = await import(LIT_PLUGIN) as { litPlugin(): unknown[] };
  const manifest = create({
    modules,
    plugins: [...litPlugin(), documentedOnly],
    context: { dev: false },
  });
  return JSON.stringify(manifest, null, 2) + "\n";
}

/**
 * Writes the manifest to `path` (default: the committed `custom-elements.json`).
 *
 * @example
 * ```ts
 * await writeManifest("/tmp/custom-elements.json");
 * ```
 */
export async function writeManifest(path = MANIFEST_PATH): Promise<string> {
  await writeFile(path, await generateManifest());
  return path;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf("--out");
  const written = await writeManifest(at > 0 ? process.argv[at + 1] : undefined);
  console.log(`custom elements manifest written to ${written}`);
}
