/**
 * Registers every Tether element under its `tether-` name: import this
 * module once and use the tags in markup. The only module of `elements/`
 * with side effects; registering twice is harmless.
 *
 * @example
 * ```ts
 * import "@tether/web/elements/define";
 * ```
 *
 * @module
 */
import { TetherAction } from "./action.ts";
import { TetherCard } from "./card.ts";
import { TetherChat } from "./chat.ts";
import { TetherConfirm } from "./confirm.ts";
import { TetherView } from "./view.ts";

TetherCard.define();
TetherConfirm.define();
TetherChat.define();
TetherView.define();
TetherAction.define();
