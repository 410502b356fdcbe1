/**
 * Defines `<tether-threads>` on a page that shows the conversations panel on
 * its own (`<tether-chat threads>` loads it by itself).
 *
 * @example
 * ```ts
 * import "@tether/web/elements/threads";
 * ```
 *
 * @module
 */
// First: the panel takes Lit and the chat registry from here when it is evaluated.
import "./_lazy_kit.ts";
import { TetherThreads } from "./threads.ts";

TetherThreads.define();

export { TetherSwitchEvent, TetherThreads } from "./threads.ts";
