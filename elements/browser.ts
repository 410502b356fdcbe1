/**
 * Tether for the page: a framework-free SDK that tells the runtime
 * (`@tether/runtime`) what is on screen and runs the actions the model calls
 * exactly once, and web components (`<tether-chat>`, `<tether-view>`,
 * `<tether-action>`, `<tether-confirm>`, `<tether-card>`) for any page.
 *
 * This entry is everything at once: every element defined, plus the whole
 * element and client API. It is `@tether/web`'s main entry (`.`), what
 * `scripts/browser-file.ts` bundles into the prebuilt `browser/tether.js`, and
 * what `scripts/size-elements.ts` holds to the size budget. For less, import
 * `./client` (the SDK alone) or `./elements/define`.
 *
 * @example
 * ```ts
 * import { createHost, type TetherChat } from "@tether/web";
 *
 * const chat = document.querySelector<TetherChat>("tether-chat")!;
 * chat.host = createHost({ runtimeUrl: "http://127.0.0.1:7100" });
 * ```
 *
 * @module
 */
import "./define.ts";

export * from "./mod.ts";
export * from "../client/mod.ts";
// Both entries name the card type; say which one the bundle's users get.
export type { DisplayCard } from "./mod.ts";
