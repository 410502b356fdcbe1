/**
 * Where an end-to-end test writes a screenshot: docs/ when
 * `UPDATE_SCREENSHOTS=1` (`npm run screenshots`), else test-output/
 * (gitignored), so a test run never dirties the tree.
 *
 * @module
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The path for a docs screenshot named `name` (e.g. "demo.png").
 *
 * @example
 * ```ts
 * await page.screenshot({ path: screenshotPath("demo.png") });
 * ```
 */
export function screenshotPath(name: string): string {
  const dir = process.env.UPDATE_SCREENSHOTS === "1"
    ? join(root, "docs")
    : join(root, "test-output");
  mkdirSync(dir, { recursive: true });
  return join(dir, name);
}
