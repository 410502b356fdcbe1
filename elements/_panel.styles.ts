/**
 * The frame, title bar and heading that `<tether-chat>` and
 * `<tether-threads>` share, so a page that styles one styles both alike.
 *
 * @module
 */
import { css, type CSSResult } from "lit";

/**
 * The panel's frame (`.panel`), its title bar (`header`) and heading (`h2`).
 *
 * @example
 * ```ts
 * static styles = [themeStyles, panelStyles, css`...`];
 * ```
 */
export const panelStyles: CSSResult = css`
  .panel {
    box-sizing: border-box;
    height: 100%;
    display: flex;
    flex-direction: column;
    background: var(--_bg);
    min-height: 0;
  }
  header {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 8px;
    padding: 10px var(--_gap);
    border-bottom: 1px solid var(--_border);
    font-weight: 600;
  }
  h2 {
    margin: 0;
    font-size: 1em;
  }
`;
