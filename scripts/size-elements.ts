/**
 * The elements' size budget: `<tether-chat>` and the other elements, the
 * client SDK they sit on (both transports, the journal, zod) and Lit, as a
 * page loads them (`elements/browser.ts`: minified, gzip -9, code splitting;
 * chunks reached only through `import()` and the lazy screenshot library are
 * not counted), measured with the SDK's `measure()`.
 *
 * Run: `node --import tsx scripts/size-elements.ts` prints the sizes against the budget.
 *
 * @module
 */
import process from "node:process";
import { type BundleSize, measure } from "./size.ts";

/**
 * The budget of elements + client + Lit, in gzip bytes (1 KB = 1024 bytes).
 *
 * @example
 * ```ts
 * (await measureElements()).entry.gzip <= ELEMENTS_BUDGET; // true
 * ```
 */
export const ELEMENTS_BUDGET = 45 * 1024;

/**
 * Measures elements + client + Lit as a page loads them.
 *
 * @example
 * ```ts
 * const size = await measureElements();
 * size.entry.gzip <= ELEMENTS_BUDGET; // true
 * ```
 */
export const measureElements = (): Promise<BundleSize> =>
  measure("elements/browser.ts", { external: ["modern-screenshot"] });

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Prints the measured size with its budget and the biggest parts; returns false when over budget.
 *
 * @example
 * ```ts
 * if (!(await reportElements())) process.exitCode = 1;
 * ```
 */
export async function reportElements(): Promise<boolean> {
  const size = await measureElements();
  const groups = new Map<string, number>();
  for (const { path, bytes } of size.entry.chunks.flatMap((c) => c.inputs)) {
    const parts = path.split("/");
    const key = parts[0] === "node_modules"
      ? parts.slice(0, parts[1].startsWith("@") ? 3 : 2).join("/")
      : parts[0];
    groups.set(key, (groups.get(key) ?? 0) + bytes);
  }
  console.log(
    `elements + client + Lit (elements/browser.ts; minified, gzip -9): ${
      kb(size.entry.gzip)
    } gzip, ` +
      `${kb(size.entry.raw)} raw; budget ${kb(ELEMENTS_BUDGET)}`,
  );
  for (const [group, bytes] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 8)) {
    console.log(`  ${group}: ${kb(bytes)} minified`);
  }
  return size.entry.gzip <= ELEMENTS_BUDGET;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = (await reportElements()) ? 0 : 1;
}
