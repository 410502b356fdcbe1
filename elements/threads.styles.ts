/**
 * Styles of `<tether-threads>`.
 *
 * @module
 */
import type { CSSResult } from "lit";
import type { Kit } from "./_lazy_kit.ts";

/**
 * The conversations panel's stylesheet (theme tokens included), made with the kit's Lit.
 *
 * @example
 * ```ts
 * static styles = threadsStyles(kit);
 * ```
 */
export const threadsStyles = ({ css, themeStyles, panelStyles }: Kit): CSSResult[] => [
  themeStyles,
  panelStyles,
  css`
    :host {
      display: block;
      min-height: 0;
      font-size: var(--tether-font-size, 14px);
      line-height: 1.4;
    }
    .shelf {
      display: flex;
      gap: 4px;
      padding: 8px var(--_gap) 0;
    }
    .shelf button {
      padding: 2px 10px;
      font-size: 0.85em;
      border-radius: 999px;
    }
    .shelf button[aria-pressed="true"] {
      background: var(--_user-bg);
      border-color: var(--_accent);
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 6px;
      overflow-y: auto;
      flex: 1;
      display: grid;
      align-content: start;
      gap: 2px;
    }
    li {
      display: flex;
      align-items: stretch;
      gap: 2px;
      border-radius: calc(var(--_radius) * 0.6);
    }
    li.current {
      background: var(--_user-bg);
    }
    .open {
      flex: 1;
      min-width: 0;
      text-align: left;
      border-color: transparent;
      background: transparent;
      display: grid;
      gap: 2px;
      padding: 6px 8px;
    }
    .open:hover {
      background: var(--_surface);
    }
    .title {
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
      font-weight: 500;
    }
    .meta {
      display: flex;
      gap: 6px;
      align-items: center;
      font-size: 0.8em;
      color: var(--_muted);
    }
    .badge {
      color: var(--_warning);
      font-weight: 600;
    }
    .tool {
      border-color: transparent;
      background: transparent;
      color: var(--_muted);
      padding: 4px 6px;
      font-size: 0.85em;
    }
    li:not(.active):not(:hover) .tool {
      opacity: 0;
    }
    .tool:focus-visible {
      opacity: 1;
    }
    input {
      flex: 1;
      font: inherit;
      color: var(--_fg);
      background: var(--_bg);
      border: 1px solid var(--_accent);
      border-radius: calc(var(--_radius) * 0.6);
      padding: 5px 8px;
      min-width: 0;
    }
    .more {
      margin: 4px var(--_gap) var(--_gap);
    }
    .empty,
    .error {
      margin: var(--_gap);
      color: var(--_muted);
    }
    .error {
      color: var(--_danger);
    }
    .hint {
      margin: 0 var(--_gap) 8px;
      font-size: 0.75em;
      color: var(--_muted);
    }
  `,
];
