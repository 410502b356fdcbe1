/**
 * Styles of `<tether-inspector>`.
 *
 * @module
 */
import type { CSSResult } from "lit";
import type { Kit } from "./_lazy_kit.ts";

/**
 * The inspector's stylesheet (theme tokens included), made with the kit's Lit.
 *
 * @example
 * ```ts
 * static styles = inspectorStyles(kit);
 * ```
 */
export const inspectorStyles = ({ css, themeStyles, panelStyles }: Kit): CSSResult[] => [
  themeStyles,
  panelStyles,
  css`
    :host {
      display: block;
      min-height: 0;
      font-size: var(--tether-font-size, 13px);
      line-height: 1.4;
    }
    .panel {
      overflow-y: auto;
    }
    .panel > :not(header) {
      margin-left: var(--_gap);
      margin-right: var(--_gap);
    }
    h3,
    h4 {
      margin: 12px 0 4px;
      font-size: 1em;
    }
    .facts {
      display: grid;
      grid-template-columns: max-content 1fr;
      gap: 2px 10px;
      margin-top: 10px;
    }
    dt {
      color: var(--_muted);
    }
    dd {
      margin: 0;
      overflow-wrap: anywhere;
    }
    .muted {
      color: var(--_muted);
    }
    .notice {
      color: var(--_warning);
    }
    .pending strong,
    tr.ask td {
      color: var(--_warning);
    }
    .denied,
    tr.deny td {
      color: var(--_danger);
    }
    .turn {
      border: 1px solid var(--_border);
      border-radius: calc(var(--_radius) * 0.6);
      padding: 6px 10px;
      margin-top: 8px;
    }
    summary {
      cursor: pointer;
      font-weight: 500;
    }
    pre,
    .events ol {
      font: 0.9em var(--_mono);
    }
    pre {
      white-space: pre-wrap;
      overflow-wrap: anywhere;
      background: var(--_surface);
      padding: 8px;
      border-radius: calc(var(--_radius) * 0.5);
      max-height: 18em;
      overflow: auto;
      margin: 0 0 6px;
    }
    table {
      border-collapse: collapse;
      width: 100%;
      font-size: 0.95em;
    }
    th,
    td {
      text-align: left;
      padding: 3px 6px;
      border-bottom: 1px solid var(--_border);
      vertical-align: top;
    }
    .tools {
      margin: 0;
      padding-left: 18px;
    }
    .events ol {
      list-style: none;
      margin: 0 0 var(--_gap);
      padding: 0;
      max-height: 16em;
      overflow: auto;
    }
    .events li {
      padding: 1px 0;
      overflow-wrap: anywhere;
    }
  `,
];
