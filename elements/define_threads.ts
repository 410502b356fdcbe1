/**
 * Defines `<tether-threads>` on a page that shows the conversations panel on
 * its own (`<tether-chat threads>` loads it by itself). The element is
 * fetched as the chunk it is (never imported statically: it takes Lit from
 * the page's bundle, see `_lazy_kit.ts`); this module resolves once it is
 * defined.
 *
 * @example
 * ```ts
 * import "@tether/web/elements/threads";
 * ```
 *
 * @module
 */
import type * as threads from "./threads.ts";
import { defineThreads } from "./lazy.ts";

/** The `<tether-threads>` class, defined. */
export const TetherThreads: typeof threads.TetherThreads = await defineThreads();
