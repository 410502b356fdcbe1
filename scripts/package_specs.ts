/**
 * What each npm (and JSR) package of Tether holds: read by scripts/packages.ts,
 * which builds them, and by tests/exports.test.ts, which keeps jsr.*.json in
 * step. No imports, so any test may read it.
 *
 * @module
 */

/**
 * One package: its name, the source folders it ships, its exports (subpath to
 * source file) and the bare imports it may leave to the user (optional peers).
 *
 * @example
 * ```ts
 * const web: PackageSpec = PACKAGES.web;
 * ```
 */
export interface PackageSpec {
  /** The npm and JSR name. */
  name: string;
  /** One line for the registry. */
  description: string;
  /** Source folders whose built files the package ships. */
  dirs: string[];
  /** Subpath → source file (relative to the repository root, `./` first). */
  exports: Record<string, string>;
  /** Packages the user installs only for the feature that needs them. */
  optionalPeers: string[];
  /** Files that register something when imported. */
  sideEffects: string[];
  /** Whether the prebuilt browser file goes in `browser/`. */
  browserFile: boolean;
  /** Commands the package installs: name → source file. */
  bin: Record<string, string>;
  /** Entries whose declarations also bring the tags' global types (`elements/global.ts`). */
  globalTypes: string[];
}

/**
 * The packages, by folder name under `dist/packages/`. jsr.web.json and
 * jsr.runtime.json export the same subpaths (tests/exports.test.ts checks).
 *
 * @example
 * ```ts
 * Object.values(PACKAGES).map((p) => p.name); // ["@tether/web", "@tether/runtime"]
 * ```
 */
export const PACKAGES: Record<"web" | "runtime", PackageSpec> = {
  web: {
    name: "@tether/web",
    description: "Tether for the page: the browser SDK, the web components and the wire schemas.",
    dirs: ["protocol", "client", "elements"],
    exports: {
      ".": "./elements/browser.ts",
      "./protocol": "./protocol/mod.ts",
      "./client": "./client/mod.ts",
      "./client/webmcp": "./client/webmcp.ts",
      "./elements": "./elements/mod.ts",
      "./elements/define": "./elements/define.ts",
      "./elements/threads": "./elements/define_threads.ts",
      "./elements/inspector": "./elements/define_inspector.ts",
    },
    optionalPeers: [],
    sideEffects: [
      "./elements/define.js",
      "./elements/browser.js",
      "./elements/define_threads.js",
      "./elements/define_inspector.js",
      "./elements/_lazy_kit.js",
      "./browser/*.js",
    ],
    browserFile: true,
    bin: {},
    globalTypes: [
      "./elements/browser.ts",
      "./elements/mod.ts",
      "./elements/define.ts",
      "./elements/define_threads.ts",
      "./elements/define_inspector.ts",
    ],
  },
  runtime: {
    name: "@tether/runtime",
    description: "Tether's runtime: plans each turn with any model and answers every call once.",
    dirs: ["protocol", "server"],
    exports: {
      ".": "./server/mod.ts",
      "./kv": "./server/kv/mod.ts",
      "./protocol": "./protocol/mod.ts",
      "./node": "./server/runtime/node.ts",
      "./deno": "./server/runtime/deno.ts",
      "./deploy": "./server/runtime/deploy.ts",
    },
    optionalPeers: ["redis", "postgres"],
    sideEffects: ["./server/runtime/deploy.js", "./server/runtime/check_host.js"],
    browserFile: false,
    bin: { "tether-check-host": "./server/runtime/check_host.ts" },
    globalTypes: [],
  },
};
