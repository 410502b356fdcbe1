/**
 * What a page that uses the elements loads: every element defined, plus the
 * whole element and client API. The entry `scripts/size-elements.ts`
 * measures against the size budget, and `scripts/browser-file.ts` bundles
 * into the prebuilt `@tether/web/browser/tether.js`; nothing imports it.
 *
 * @module
 */
import "./define.ts";

export * from "./mod.ts";
export * from "../client/mod.ts";
// Both entries name the card type; say which one the bundle's users get.
export type { DisplayCard } from "./mod.ts";
