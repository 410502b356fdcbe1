/**
 * The elements fetched on first use, defined on demand: `<tether-threads>`
 * and `<tether-inspector>` are chunks of their own, never in the first
 * download. `<tether-chat threads>` and `<tether-chat inspect>` call these
 * when a panel first opens; a page (the prebuilt browser file included) calls
 * them to show either element on its own.
 *
 * @example
 * ```ts
 * import { defineThreads } from "@tether/web/elements";
 * await defineThreads();
 * document.body.append(document.createElement("tether-threads"));
 * ```
 *
 * @module
 */
import type * as inspector from "./inspector.ts";
import type * as threads from "./threads.ts";
// First: the lazy elements take Lit and the chat registry from here when they are evaluated.
import "./_lazy_kit.ts";

/**
 * Fetches and defines `<tether-threads>` (once); resolves with its class.
 *
 * @example
 * ```ts
 * const Threads = await defineThreads();
 * ```
 */
export async function defineThreads(tag?: string): Promise<typeof threads.TetherThreads> {
  const { TetherThreads } = await import("./threads.ts");
  TetherThreads.define(tag);
  return TetherThreads;
}

/**
 * Fetches and defines `<tether-inspector>` (once); resolves with its class.
 *
 * @example
 * ```ts
 * await defineInspector();
 * ```
 */
export async function defineInspector(
  tag?: string,
): Promise<typeof inspector.TetherInspector> {
  const { TetherInspector } = await import("./inspector.ts");
  TetherInspector.define(tag);
  return TetherInspector;
}
