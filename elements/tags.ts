/**
 * The elements' tag names and event names with their types, as plain
 * interfaces. The npm package adds them to the DOM's global maps
 * (`elements/global.ts`), so `document.querySelector("tether-chat")` is a
 * `TetherChat`; JSR refuses packages that change global types, so a Deno
 * project that wants the same extends the maps itself (see docs/packages.md).
 *
 * @example
 * ```ts
 * import type { TetherElementTagNameMap } from "@tether/web/elements";
 * declare global {
 *   interface HTMLElementTagNameMap extends TetherElementTagNameMap {}
 * }
 * ```
 *
 * @module
 */
import type { TetherAction } from "./action.ts";
import type { TetherCard } from "./card.ts";
import type { TetherChat } from "./chat.ts";
import type { TetherConfirm } from "./confirm.ts";
import type { TetherInspector } from "./inspector.ts";
import type { TetherSwitchEvent, TetherThreads } from "./threads.ts";
import type {
  TetherActionEvent,
  TetherDecisionEvent,
  TetherSendEvent,
  TetherStopEvent,
} from "./events.ts";
import type { TetherView } from "./view.ts";

/** Each element's tag and class. */
export interface TetherElementTagNameMap {
  "tether-action": TetherAction;
  "tether-card": TetherCard;
  "tether-chat": TetherChat;
  "tether-confirm": TetherConfirm;
  "tether-inspector": TetherInspector;
  "tether-threads": TetherThreads;
  "tether-view": TetherView;
}

/** The events the elements fire, by name. */
export interface TetherElementEventMap {
  "tether-send": TetherSendEvent;
  "tether-stop": TetherStopEvent;
  "tether-action": TetherActionEvent;
  "tether-decision": TetherDecisionEvent;
  "tether-switch": TetherSwitchEvent;
}
