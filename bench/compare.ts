/**
 * `npm run bench -- compare`: what a page loads for Tether and for the
 * libraries the README compares it with, measured the same way (esbuild
 * bundles a small entry that imports what a page uses, minified, code
 * splitting; gzip -9 of the entry and the chunks it imports statically).
 *
 * The other libraries come from the npm registry at the pinned versions
 * below, installed once into `node_modules/.cache/tether-compare/` with
 * `npm install --prefer-offline` (the npm cache answers when it can).
 * React is measured on its own and left out of the React libraries' figures,
 * so each row is the library alone; a React page pays React too.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { measure } from "../scripts/size.ts";
import { table } from "./_stats.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const dir = join(root, "node_modules", ".cache", "tether-compare");

/** The packages measured, at the versions the README's figures were taken with. */
export const PINNED: Record<string, string> = {
  "@copilotkit/react-core": "1.74.0",
  "@copilotkit/react-ui": "1.74.0",
  "@ai-sdk/react": "4.0.177",
  "@ag-ui/client": "1.0.0",
  react: "19.2.1",
  "react-dom": "19.2.1",
};

const REACT = ["react", "react-dom", "react/jsx-runtime", "react-dom/client"];

/** One measured row: a name, what the entry imports, and what it leaves out. */
interface Row {
  name: string;
  imports: string;
  code: string;
  external?: string[];
  /** Measure from the repository instead of the comparison folder. */
  repository?: string;
  /** The pinned package whose version the row reports. */
  pinned?: string;
}

const ROWS: Row[] = [
  {
    name: "Tether SDK (@tether/web/client)",
    imports: "createHost, both transports, the journal, the wire schemas",
    code: "",
    repository: "client/mod.ts",
    external: ["modern-screenshot"],
  },
  {
    name: "Tether SDK + elements + Lit (@tether/web)",
    imports: "every element defined, the whole client API",
    code: "",
    repository: "elements/browser.ts",
    external: ["modern-screenshot"],
  },
  {
    name: "Vercel AI SDK UI (@ai-sdk/react)",
    imports: "useChat",
    code: `export { useChat } from "@ai-sdk/react";`,
    external: REACT,
    pinned: "@ai-sdk/react",
  },
  {
    name: "CopilotKit (@copilotkit/react-core, react-ui)",
    imports: "CopilotKit, useCopilotAction, useCopilotReadable, CopilotChat",
    code:
      `export { CopilotKit, useCopilotAction, useCopilotReadable } from "@copilotkit/react-core";
export { CopilotChat } from "@copilotkit/react-ui";`,
    external: [...REACT, "*.css"],
    pinned: "@copilotkit/react-core",
  },
  {
    name: "AG-UI client (@ag-ui/client)",
    imports: "HttpAgent",
    code: `export { HttpAgent } from "@ag-ui/client";`,
    pinned: "@ag-ui/client",
  },
  {
    name: "React + ReactDOM (what the React rows also need)",
    imports: "createElement, createRoot",
    code: `export { createElement } from "react";
export { createRoot } from "react-dom/client";`,
    pinned: "react",
  },
];

function npm(args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.platform === "win32" ? "npm.cmd" : "npm", args, {
      cwd,
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", reject);
    child.on("close", (code) => code === 0 ? resolve() : reject(new Error(`npm exited ${code}`)));
  });
}

/** Installs the pinned packages unless the folder already holds exactly them. */
async function install(): Promise<void> {
  const manifest = join(dir, "package.json");
  const wanted = JSON.stringify({ private: true, dependencies: PINNED }, null, 2);
  if (existsSync(manifest) && (await readFile(manifest, "utf8")) === wanted) {
    const all = Object.keys(PINNED).every((name) =>
      existsSync(join(dir, "node_modules", name, "package.json"))
    );
    if (all) return;
  }
  await mkdir(dir, { recursive: true });
  await writeFile(manifest, wanted);
  console.log(`installing ${Object.keys(PINNED).length} packages into ${dir} (npm registry)`);
  await npm(["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], dir);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Prints the comparison table.
 *
 * @example
 * ```ts
 * await benchCompare();
 * ```
 */
export async function benchCompare(): Promise<void> {
  console.log("\n## What a page loads (esbuild, minified, gzip -9)\n");
  await install();
  const rows: string[][] = [];
  for (const row of ROWS) {
    let size;
    if (row.repository) {
      size = await measure(row.repository, { external: row.external });
    } else {
      const file = `entry-${rows.length}.mjs`;
      await writeFile(join(dir, file), row.code + "\n");
      size = await measure(file, { external: row.external, cwd: dir });
    }
    const lazy = size.lazy.reduce((n, c) => n + c.gzip, 0);
    rows.push([
      row.name,
      row.imports,
      kb(size.entry.gzip),
      lazy ? kb(lazy) : "",
      row.pinned ? PINNED[row.pinned] : "this repository",
    ]);
  }
  table(["library", "what the page imports", "gzip", "loaded later", "version"], rows);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchCompare();
