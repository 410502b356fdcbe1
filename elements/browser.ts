/**
 * Everything a page needs at once: every element defined, plus the whole
 * element and client API. It is `@tether/web`'s main entry (`.`), the entry
 * `scripts/size-elements.ts` measures against the size budget, and what
 * `scripts/browser-file.ts` bundles into the prebuilt
 * `@tether/web/browser/tether.js`.
 *
 * @example
 * ```ts
 * import { createHost } from "@tether/web";
 *
 * document.querySelector("tether-chat")!.host = createHost({ runtimeUrl: "http://127.0.0.1:7100" });
 * ```
 *
 * @module
 */
import "./define.ts";

export * from "./mod.ts";
export * from "../client/mod.ts";
// Both entries name the card type; say which one the bundle's users get.
export type { DisplayCard } from "./mod.ts";
