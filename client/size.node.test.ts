// Node only: gzip output differs by a few bytes between zlib builds (Deno's is not Node's), so
// the budget is measured with one compressor, Node's zlib at level 9.
import assert from "node:assert/strict";
import { test } from "node:test";
import { measureSdk, SDK_BUDGET } from "../scripts/size.ts";

test("the SDK entry, zod and both transports included, stays within 25 KB gzip", async () => {
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
  for (
    const part of [
      "protocol/host_context.ts",
      "protocol/json_schema.ts",
      "node_modules/zod/",
      "client/indexeddb_journal.ts",
      "client/socketio_transport.ts",
      "client/sse_transport.ts",
    ]
  ) {
    assert.ok(eager.some((p) => p.includes(part)), `the entry carries ${part}`);
  }
  // socket.io-client is fetched when the Socket.IO transport first connects.
  const lazy = size.lazy.flatMap((c) => c.inputs.map((i) => i.path));
  assert.ok(
    lazy.some((p) => p.includes("node_modules/socket.io-client/")),
    "socket.io-client is a chunk of its own",
  );
  assert.ok(!eager.some((p) => p.includes("node_modules/socket.io-client/")));
  // So is the transport's own code: the entry keeps only the factory that loads it.
  assert.ok(lazy.some((p) => p.endsWith("client/_socketio.ts")), "the transport comes with it");
  assert.ok(!eager.some((p) => p.endsWith("client/_socketio.ts")));
});
