// Node only: gzip output differs by a few bytes between zlib builds (Deno's is not Node's), so
// the budget is measured with one compressor, Node's zlib at level 9.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ELEMENTS_BUDGET, measureElements } from "../scripts/size-elements.ts";

test("elements + client + Lit stay within 45 KB gzip", async () => {
  const size = await measureElements();
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(
    `elements + client + Lit: ${kb(size.entry.gzip)} gzip (budget ${kb(ELEMENTS_BUDGET)})`,
  );
  assert.ok(
    size.entry.gzip <= ELEMENTS_BUDGET,
    `elements + client + Lit are ${kb(size.entry.gzip)} gzip, over the ${
      kb(ELEMENTS_BUDGET)
    } budget; run node --import tsx scripts/size-elements.ts to see what grew`,
  );
  const eager = size.entry.chunks.flatMap((c) => c.inputs.map((i) => i.path));
  for (const part of ["elements/chat.ts", "client/host.ts", "node_modules/lit-html"]) {
    assert.ok(eager.some((p) => p.includes(part)), `the measured bundle carries ${part}`);
  }
  assert.ok(
    !eager.some((p) => p.includes("_fake_runtime") || p.includes("_test_")),
    "test fixtures stay out of the bundle",
  );
});

test("the conversations panel and the inspector are chunks of their own, fetched on first use", async () => {
  const size = await measureElements();
  const eager = size.entry.chunks.flatMap((c) => c.inputs.map((i) => i.path));
  for (const name of ["threads", "inspector"]) {
    assert.ok(
      !eager.some((p) => p.startsWith(`elements/${name}`)),
      `no byte of elements/${name}*.ts is in the first download`,
    );
    const chunk = size.lazy.find((c) => c.inputs.some((i) => i.path === `elements/${name}.ts`));
    assert.ok(chunk, `elements/${name}.ts is a lazy chunk`);
    // It takes Lit from the page's bundle (elements/_lazy_kit.ts): nothing shared is split off.
    assert.deepEqual(
      chunk.inputs.map((i) => i.path).sort(),
      [`elements/${name}.styles.ts`, `elements/${name}.ts`],
    );
  }
  assert.equal(size.entry.chunks.length <= 2, true, "the first download is one file (and a stub)");
});
