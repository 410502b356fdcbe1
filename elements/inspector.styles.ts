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
    .call.ask .decision {
      color: var(--_warning);
    }
    .denied,
    .call.deny .decision {
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
    .calls,
    .requests {
      margin: 0;
      padding-left: 18px;
    }
    .calls {
      list-style: none;
      padding: 0;
    }
    .call {
      padding: 4px 0;
      border-bottom: 1px solid var(--_border);
      overflow-wrap: anywhere;
    }
    .tools {
      display: flex;
      flex-wrap: wrap;
      gap: 4px;
      list-style: none;
      margin: 0;
      padding: 0;
    }
    .tools li {
      border: 1px solid var(--_border);
      border-radius: 999px;
      padding: 0 8px;
      font-size: 0.9em;
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
