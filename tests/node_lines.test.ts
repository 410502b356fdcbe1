/**
 * package.json's `engines` says what is tested: the machine's Node line and the lines
 * `TEST_NODE_LINES` fetches from npm (`scripts/node_lines.ts`), and no other.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { NODE_LINES, SYSTEM_LINE } from "../scripts/node_lines.ts";

test("engines names exactly the Node lines the suite runs on", () => {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  const tested = [SYSTEM_LINE, ...NODE_LINES.map((l) => l.major)].sort((a, b) => a - b);
  assert.equal(pkg.engines.node, tested.map((m) => `${m}.x`).join(" || "));
  for (const line of NODE_LINES) assert.match(line.version, new RegExp(`^${line.major}\\.`));
  assert.ok(NODE_LINES.every((l) => /^sha512-[A-Za-z0-9+/]{86}==$/.test(l.integrity)));
});
