/**
 * The one place that asks which JavaScript runtime we are on.
 *
 * @module
 */

/**
 * "deno" when running on Deno, otherwise "node".
 *
 * @example
 * ```ts
 * if (runtimeName() === "deno") console.log("on Deno");
 * ```
 */
export function runtimeName(): "deno" | "node" {
  return "Deno" in globalThis ? "deno" : "node";
}
