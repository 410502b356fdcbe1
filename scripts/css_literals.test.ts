import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { test } from "node:test";
import { minifyCssLiterals } from "./css_literals.ts";

const elements = new URL("../elements/", import.meta.url);

/** Every `css` literal's text in `source`. */
const literals = (source: string) => [...source.matchAll(/css`([^`]*)`/g)].map((m) => m[1]);

test("a stylesheet loses its comments and layout, and keeps every space a selector may need", () => {
  const source = "const s = css`\n  /* the host */\n  :host {\n    display: block;\n  }\n" +
    "  .text > :first-child,\n  .tool .name:hover {\n    margin: 0 var(--_gap, 12px) 8px;\n  }\n`;";
  assert.equal(
    minifyCssLiterals(source),
    "const s = css`:host{display: block;}.text>:first-child,.tool .name:hover{margin: 0 var(--_gap,12px) 8px;}`;",
  );
  assert.equal(minifyCssLiterals("const t = `not css\n  `;"), "const t = `not css\n  `;");
});

test("each of the elements' stylesheets changes only in comments and spaces", async () => {
  const files = (await readdir(elements)).filter((f) => f.endsWith(".styles.ts"));
  assert.ok(files.length >= 5, "the elements' stylesheets are found");
  for (const file of files) {
    const source = await readFile(new URL(file, elements), "utf8");
    const before = literals(source);
    const after = literals(minifyCssLiterals(source));
    assert.equal(after.length, before.length, file);
    for (const [i, text] of before.entries()) {
      // What the minifier rests on: no CSS string that a line break or `{ } ; , >` would change.
      for (const [string] of text.matchAll(/"[^"]*"|'[^']*'/g)) {
        assert.doesNotMatch(string, /[{};,>\n]/, `${file}: ${string}`);
      }
      const spaced = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\s+/g, " ").trim();
      assert.equal(after[i], spaced.replace(/ ?([{};,>]) ?/g, "$1"), file);
    }
    assert.ok(after.join("").length < before.join("").length, `${file} gets smaller`);
  }
});
