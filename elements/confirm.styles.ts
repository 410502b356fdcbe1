/**
 * Styles of `<tether-confirm>`.
 *
 * @module
 */
import { css, type CSSResult } from "lit";
import { themeStyles } from "./theme.styles.ts";

/**
 * The confirmation's stylesheet (theme tokens included).
 *
 * @example
 * ```ts
 * static styles = confirmStyles;
 * ```
 */
export const confirmStyles: CSSResult[] = [
  themeStyles,
  css`
    :host {
      display: block;
    }
    .box {
      display: grid;
      gap: 8px;
      padding: 10px 12px;
      border: 1px solid var(--_border);
      border-left: 4px solid var(--_accent);
      border-radius: var(--_radius);
      background: var(--_surface);
    }
    :host([destructive]) .box {
      border-left-color: var(--_danger);
    }
    .label {
      font-size: 0.75em;
      text-transform: uppercase;
      letter-spacing: 0.04em;
      color: var(--_muted);
    }
    .preview {
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    .warning {
      color: var(--_danger);
      font-weight: 600;
    }
    .buttons {
      display: flex;
      gap: 8px;
      flex-wrap: wrap;
    }
    .countdown {
      font-variant-numeric: tabular-nums;
      color: var(--_warning);
    }
    .settled {
      color: var(--_muted);
      font-size: 0.875em;
    }
    .cards {
      display: grid;
      gap: 6px;
    }
  `,
];
