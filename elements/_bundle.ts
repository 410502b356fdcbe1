/**
 * What a page that uses the elements loads: every element defined, plus the
 * whole element and client API. The entry `scripts/size-elements.ts`
 * measures against the size budget; nothing imports it.
 *
 * @module
 */
import "./define.ts";

export * from "./mod.ts";
export * from "../client/mod.ts";
