/**
 * Defines `<tether-inspector>` on a page that shows the inspector on its own
 * (`<tether-chat inspect>` loads it by itself).
 *
 * @example
 * ```ts
 * import "@tether/web/elements/inspector";
 * ```
 *
 * @module
 */
// First: the inspector takes Lit and the chat registry from here when it is evaluated.
import "./_lazy_kit.ts";
import { TetherInspector } from "./inspector.ts";

TetherInspector.define();

export { TetherInspector } from "./inspector.ts";
