/**
 * Adds the elements' tags and events to the DOM's global type maps, so
 * `document.querySelector("tether-chat")` is a `TetherChat` and
 * `addEventListener("tether-send", ...)` gets a `TetherSendEvent`. Types
 * only: it has no code. The npm package's declarations of `.`, `./elements`
 * and `./elements/define` reference it; the JSR package leaves it out,
 * because JSR refuses a package that changes global types.
 *
 * @module
 */
import type { TetherElementEventMap, TetherElementTagNameMap } from "./tags.ts";

declare global {
  interface HTMLElementTagNameMap extends TetherElementTagNameMap {}
  interface HTMLElementEventMap extends TetherElementEventMap {}
}
