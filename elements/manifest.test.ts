import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

test("the committed custom-elements.json matches the elements' JSDoc", () => {
  const dir = mkdtempSync(join(tmpdir(), "tether-cem-"));
  try {
    const out = join(dir, "custom-elements.json");
    // A Node child process, so Deno runs this test too: the analyzer is a Node tool.
    const run = spawnSync("node", ["--import", "tsx", "scripts/cem.ts", "--out", out], {
      cwd: root,
      encoding: "utf8",
    });
    assert.equal(run.status, 0, `scripts/cem.ts failed: ${run.stderr}`);
    const fresh = readFileSync(out, "utf8");
    const committed = readFileSync(join(root, "custom-elements.json"), "utf8");
    assert.ok(
      fresh === committed,
      "custom-elements.json is stale: run `node --import tsx scripts/cem.ts` and commit the result",
    );
    const tags = JSON.parse(fresh).modules.flatMap((m: { declarations: { tagName?: string }[] }) =>
      m.declarations.map((d) => d.tagName).filter(Boolean)
    );
    assert.deepEqual(tags.sort(), [
      "tether-action",
      "tether-card",
      "tether-chat",
      "tether-confirm",
      "tether-inspector",
      "tether-threads",
      "tether-view",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
