/**
 * The design tokens every element shares. Each public `--tether-*` custom
 * property falls back to a light or dark default; the `theme` attribute
 * (`light`, `dark`, or absent for the user's preference) picks which.
 * Elements read only the private `--_*` names, so a page sets one property
 * and every element follows.
 *
 * @module
 */
import { css, type CSSResult } from "lit";

// The dark defaults, used by theme="dark" and by the user's preference when no theme is set.
const dark: CSSResult = css`
  --_bg: var(--tether-bg, #14171d);
  --_surface: var(--tether-surface, #1d2129);
  --_fg: var(--tether-fg, #e7e9ee);
  --_muted: var(--tether-muted, #9aa3b2);
  --_border: var(--tether-border, #323845);
  --_accent: var(--tether-accent, #8ea2ff);
  --_accent-fg: var(--tether-accent-fg, #10131a);
  --_user-bg: var(--tether-user-bg, #262d45);
  --_danger: var(--tether-danger, #ff8a80);
  --_success: var(--tether-success, #7ad69a);
  --_warning: var(--tether-warning, #f2c36b);
  --_focus: var(--tether-focus, #8ea2ff);
  color-scheme: dark;
`;

/**
 * The shared tokens, light and dark, as one Lit stylesheet.
 *
 * @example
 * ```ts
 * static styles = [themeStyles, css`:host { color: var(--_fg); }`];
 * ```
 */
export const themeStyles: CSSResult = css`
  :host {
    --_font: var(--tether-font, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif);
    --_mono: var(--tether-font-mono, ui-monospace, "SF Mono", Menlo, Consolas, monospace);
    --_radius: var(--tether-radius, 10px);
    --_gap: var(--tether-gap, 12px);
    --_bg: var(--tether-bg, #ffffff);
    --_surface: var(--tether-surface, #f4f5f7);
    --_fg: var(--tether-fg, #1d2330);
    --_muted: var(--tether-muted, #5d6677);
    --_border: var(--tether-border, #d9dde5);
    --_accent: var(--tether-accent, #3451d1);
    --_accent-fg: var(--tether-accent-fg, #ffffff);
    --_user-bg: var(--tether-user-bg, #e8ecfd);
    --_danger: var(--tether-danger, #b42318);
    --_success: var(--tether-success, #1f7a3f);
    --_warning: var(--tether-warning, #8a5a00);
    --_focus: var(--tether-focus, #3451d1);
    color-scheme: light;
    font-family: var(--_font);
    color: var(--_fg);
  }
  :host([theme="dark"]) {
    ${dark};
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme="light"])) {
      ${dark};
    }
  }
  :host([hidden]) {
    display: none !important;
  }
  button {
    font: inherit;
    cursor: pointer;
    border-radius: calc(var(--_radius) * 0.6);
    border: 1px solid var(--_border);
    background: var(--_surface);
    color: var(--_fg);
    padding: 6px 12px;
  }
  button.primary {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-fg);
  }
  button.danger {
    background: var(--_danger);
    border-color: var(--_danger);
    color: var(--_bg);
  }
  button:disabled {
    opacity: 0.5;
    cursor: not-allowed;
  }
  :focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  a {
    color: var(--_accent);
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
`;
