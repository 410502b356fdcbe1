import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { PACKAGES } from "../scripts/package_specs.ts";

const read = async (name: string) =>
  JSON.parse(await readFile(new URL(`../${name}`, import.meta.url), "utf8"));

for (const [key, spec] of Object.entries(PACKAGES)) {
  test(`jsr.${key}.json publishes ${spec.name} with the npm package's subpaths and sources`, async () => {
    const jsr = await read(`jsr.${key}.json`);
    assert.equal(jsr.name, spec.name);
    assert.equal(jsr.version, (await read("package.json")).version);
    assert.deepEqual(jsr.exports, spec.exports);
    for (const source of Object.values(spec.exports)) {
      assert.ok(
        spec.dirs.some((dir) => source.startsWith(`./${dir}/`)),
        `${source} lies in the package's folders`,
      );
      await readFile(new URL(`../${source}`, import.meta.url));
    }
  });
}

test("deno.json publishes nothing itself: the packages are jsr.web.json and jsr.runtime.json", async () => {
  const deno = await read("deno.json");
  assert.equal(deno.name, undefined);
  assert.equal(deno.exports, undefined);
});
