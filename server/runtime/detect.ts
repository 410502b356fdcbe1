/**
 * The one place that asks which JavaScript runtime we are on, and the one
 * place that reads the `Deno` global; everything else asks here.
 *
 * @module
 */

/**
 * "deno" when running on Deno (Deno Deploy included), otherwise "node".
 *
 * @example
 * ```ts
 * if (runtimeName() === "deno") console.log("on Deno");
 * ```
 */
export function runtimeName(): "deno" | "node" {
  return denoGlobal() === undefined ? "node" : "deno";
}

/**
 * The `Deno` namespace when running on Deno, else undefined; `T` names the part of it the
 * caller uses (this module declares none of Deno's types, so Node's type check passes).
 *
 * @example
 * ```ts
 * const deno = denoGlobal<{ openKv?(path?: string): Promise<unknown> }>();
 * if (deno?.openKv) await deno.openKv();
 * ```
 */
export function denoGlobal<T = unknown>(): T | undefined {
  return (globalThis as unknown as { Deno?: T }).Deno;
}
