/**
 * Styles of `<tether-card>`.
 *
 * @module
 */
import { css, type CSSResult } from "lit";
import { themeStyles } from "./theme.styles.ts";

/**
 * The card's stylesheet (theme tokens included).
 *
 * @example
 * ```ts
 * static styles = cardStyles;
 * ```
 */
export const cardStyles: CSSResult[] = [
  themeStyles,
  css`
    :host {
      display: block;
      min-width: 0;
    }
    a {
      display: flex;
      gap: 10px;
      align-items: center;
      padding: 8px;
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      background: var(--_bg);
      color: inherit;
      text-decoration: none;
    }
    a:hover {
      border-color: var(--_accent);
    }
    img {
      width: 48px;
      height: 48px;
      object-fit: cover;
      border-radius: calc(var(--_radius) * 0.6);
      flex: none;
      background: var(--_surface);
    }
    .text {
      min-width: 0;
      display: grid;
      gap: 2px;
    }
    .title {
      font-weight: 600;
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .subtitle {
      color: var(--_muted);
      font-size: 0.875em;
    }
    .badges {
      display: flex;
      flex-wrap: wrap;
      gap: 4px;
    }
    .badge {
      font-size: 0.75em;
      padding: 1px 6px;
      border-radius: 999px;
      background: var(--_surface);
      border: 1px solid var(--_border);
    }
  `,
];
