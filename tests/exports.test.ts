import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";

const read = async (name: string) =>
  JSON.parse(await readFile(new URL(`../${name}`, import.meta.url), "utf8"));

test("deno.json and package.json export the same subpaths from the same sources", async () => {
  const deno = await read("deno.json");
  const pkg = await read("package.json");
  assert.deepEqual(Object.keys(pkg.exports).sort(), Object.keys(deno.exports).sort());
  for (const [subpath, source] of Object.entries<string>(deno.exports)) {
    const built = source.replace(/^\.\//, "./dist/").replace(/\.ts$/, ".js");
    assert.equal(
      pkg.exports[subpath].default,
      built,
      `${subpath} points at the build of ${source}`,
    );
    assert.equal(Object.keys(pkg.exports[subpath])[0], "types", `${subpath} lists types first`);
    await readFile(new URL(`../${source}`, import.meta.url));
  }
});
