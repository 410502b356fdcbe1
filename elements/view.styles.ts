/**
 * Styles of `<tether-view>` and `<tether-action>`: neither draws anything of
 * its own; a view lays its slotted content out as if it were not there.
 *
 * @module
 */
import { css, type CSSResult } from "lit";

/**
 * The stylesheet of `<tether-view>`.
 *
 * @example
 * ```ts
 * static styles = viewStyles;
 * ```
 */
export const viewStyles: CSSResult = css`
  :host {
    display: contents;
  }
`;

/**
 * The stylesheet of `<tether-action>`.
 *
 * @example
 * ```ts
 * static styles = actionStyles;
 * ```
 */
export const actionStyles: CSSResult = css`
  :host {
    display: none;
  }
`;
