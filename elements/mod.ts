/**
 * Tether's web components, written with Lit over the client SDK: they work
 * in any page, whatever framework it uses.
 *
 * - `<tether-chat>`: the conversation panel (streaming, tool cards, host
 *   actions, stop, attachments, confirmations).
 * - `<tether-view>` and `<tether-action>`: context and actions declared in markup.
 * - `<tether-confirm>`: preview with Apply and Cancel, double confirmation,
 *   waiting for approval.
 * - `<tether-card>`: a sanitised preview card.
 * - `<tether-threads>` (the person's conversations) and `<tether-inspector>`
 *   (what the model saw), fetched on first use: `defineThreads()` and
 *   `defineInspector()`, or `<tether-chat threads inspect>`.
 *
 * Importing this module defines nothing; import `./define.ts` for that, or
 * call each class's `define()`.
 *
 * ```ts
 * import { createHost } from "@tether/web/client";
 * import "@tether/web/elements/define";
 *
 * const chat = document.querySelector("tether-chat")!;
 * chat.host = createHost({ runtimeUrl: "http://127.0.0.1:7100" });
 * ```
 *
 * @module
 */
export { TetherChat } from "./chat.ts";
export { TetherView } from "./view.ts";
export { TetherAction } from "./action.ts";
export { TetherConfirm } from "./confirm.ts";
export type { ConfirmState } from "./confirm.ts";
export { TetherCard } from "./card.ts";
// Fetched on first use: only their loaders and types are here.
export { defineInspector, defineThreads } from "./lazy.ts";
export type { TetherSwitchEvent, TetherThreads } from "./threads.ts";
export type { TetherInspector } from "./inspector.ts";
export {
  TetherActionEvent,
  TetherDecisionEvent,
  TetherSendEvent,
  TetherStopEvent,
} from "./events.ts";
export { HostController } from "./host_controller.ts";
export { renderMarkdown } from "./markdown.ts";
export { cardsOf, DISPLAY_LIMITS, toCard, turnCards } from "./display.ts";
export type { DisplayCard } from "./display.ts";
export type { TetherElementEventMap, TetherElementTagNameMap } from "./tags.ts";
export { safeCardUrl, safeImageUrl, safeLinkUrl } from "./safe_url.ts";
export type { ConfirmRequest } from "./_registry.ts";
export type { ApprovalHandle, ApprovalRequest } from "./_confirmations.ts";
export type { CallStatus } from "./_call_status.ts";
