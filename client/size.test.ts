import assert from "node:assert/strict";
import { test } from "node:test";
import { measureSdk, SDK_BUDGET } from "../scripts/size.ts";

test("the SDK entry stays within 25 KB gzip; schemas and the screenshot library load on demand", async () => {
  const size = await measureSdk();
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`SDK entry: ${kb(size.entry.gzip)} gzip (budget ${kb(SDK_BUDGET)})`);
  assert.ok(
    size.entry.gzip <= SDK_BUDGET,
    `the SDK entry is ${kb(size.entry.gzip)} gzip, over the ${
      kb(SDK_BUDGET)
    } budget; run node --import tsx scripts/size.ts to see what grew`,
  );
  assert.deepEqual(size.external, ["modern-screenshot"]);
  const eager = size.entry.chunks.flatMap((c) => c.inputs.map((i) => i.path));
  assert.ok(
    eager.some((p) => p.includes("socket.io-client")),
    "the entry carries the Socket.IO transport",
  );
  assert.ok(
    eager.some((p) => p.includes("node_modules/idb")),
    "the entry carries the IndexedDB journal",
  );
  // Fetched when the host is created (host_context) and when the first action is registered (arguments).
  const lazy = size.lazy.flatMap((c) => c.inputs.map((i) => i.path));
  for (const part of ["protocol/host_context.ts", "protocol/json_schema.ts"]) {
    assert.ok(lazy.includes(part) && !eager.includes(part), `${part} is a chunk of its own`);
  }
});
