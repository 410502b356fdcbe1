/**
 * The elements' stylesheets written small. Lit keeps a `css` literal's text as
 * it is, and no bundler minifies it, so the package (`scripts/build.ts`), the
 * demo (`scripts/build-demo.ts`) and the size budgets (`scripts/size.ts`) take
 * each `elements/*.styles.ts` through {@linkcode cssLiterals} first: comments
 * go, each line break with the indentation around it becomes one space, and
 * the spaces around `{ } ; , >` go. Nothing else changes: a space that can
 * matter in a selector (`.a :hover`) stays, and the stylesheets hold no CSS
 * string with a line break or one of those characters. The sources (what
 * JSR publishes and the browser tests load) keep their layout.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import type { Plugin } from "esbuild";

/**
 * `source` with the text of every `` css`…` `` literal written small.
 *
 * @example
 * ```ts
 * minifyCssLiterals("css`\n  :host {\n    display: block;\n  }\n`"); // "css`:host{display: block;}`"
 * ```
 */
export function minifyCssLiterals(source: string): string {
  return source.replace(/css`([^`]*)`/g, (_, body: string) => `css\`${minifyCss(body)}\``);
}

function minifyCss(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\s*\n\s*/g, " ")
    .replace(/\s*([{};,>])\s*/g, "$1").trim();
}

/**
 * The esbuild plugin that loads each `elements/*.styles.ts` through {@linkcode minifyCssLiterals}.
 *
 * @example
 * ```ts
 * await build({ entryPoints: ["elements/browser.ts"], bundle: true, plugins: [cssLiterals] });
 * ```
 */
export const cssLiterals: Plugin = {
  name: "tether-css-literals",
  setup(build) {
    build.onLoad({ filter: /[\\/]elements[\\/][^\\/]+\.styles\.ts$/ }, async (args) => ({
      contents: minifyCssLiterals(await readFile(args.path, "utf8")),
      loader: "ts",
    }));
  },
};
