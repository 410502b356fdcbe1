/**
 * Styles of `<tether-view>` and `<tether-action>`: neither draws anything of
 * its own; a view lays its slotted content out as if it were not there.
 *
 * @module
 */
import { css } from "lit";

/**
 * The stylesheet of `<tether-view>`.
 *
 * @example
 * ```ts
 * static styles = viewStyles;
 * ```
 */
export const viewStyles = css`
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
export const actionStyles = css`
  :host {
    display: none;
  }
`;
