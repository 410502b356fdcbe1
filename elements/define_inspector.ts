/**
 * Defines `<tether-inspector>` on a page that shows the inspector on its own
 * (`<tether-chat inspect>` loads it by itself). The element is fetched as
 * the chunk it is (never imported statically: it takes Lit from the page's
 * bundle, see `_lazy_kit.ts`); this module resolves once it is defined.
 *
 * @example
 * ```ts
 * import "@tether/web/elements/inspector";
 * ```
 *
 * @module
 */
import type * as inspector from "./inspector.ts";
import { defineInspector } from "./lazy.ts";

/** The `<tether-inspector>` class, defined. */
export const TetherInspector: typeof inspector.TetherInspector = await defineInspector();
