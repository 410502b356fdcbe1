import { test } from "node:test";
import assert from "node:assert/strict";
import { compileGlob, globMatch } from "./glob.ts";

const m = (pattern: string, text: string) => globMatch(compileGlob(pattern), text);

test("* matches anything, spaces and slashes included; the rest matches itself", () => {
  assert.equal(m("npm run *", "npm run build --watch"), true);
  assert.equal(m("rm -rf *", "rm -rf /"), true);
  assert.equal(m("npm test", "npm test"), true);
  assert.equal(m("npm test", "npm test "), false);
  assert.equal(m("npm run *", "npm run"), false);
  assert.equal(m("*", ""), true);
  assert.equal(m("a*b*c", "abc"), true);
  assert.equal(m("a*b*c", "aXbYbZc"), true);
  assert.equal(m("a*b*c", "acb"), false);
  assert.equal(m("*.ts", "x.tsx"), false);
  assert.equal(m("[a]?", "[a]?"), true, "brackets and ? are literal");
  assert.equal(m("a?", "ab"), false);
});

test("pieces that overlap their own prefix are found (KMP failure table)", () => {
  assert.equal(m("*aab*", "aaab"), true);
  assert.equal(m("*abab*c", "abaababc"), true);
  assert.equal(m("*abab*c", "abaabac"), false);
});

test("a pattern that makes a regex backtrack is answered at once", { timeout: 2_000 }, () => {
  const pattern = "*a*a*a*a*a*a*a*a*a*a*a*a*b";
  const text = "a".repeat(50_000);
  assert.equal(m(pattern, text), false);
  assert.equal(m(pattern, text + "b"), true);
});
