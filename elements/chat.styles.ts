/**
 * Styles of `<tether-chat>`.
 *
 * @module
 */
import { css, type CSSResult } from "lit";
import { themeStyles } from "./theme.styles.ts";
import { panelStyles } from "./_panel.styles.ts";

/**
 * The chat's stylesheet (theme tokens included).
 *
 * @example
 * ```ts
 * static styles = chatStyles;
 * ```
 */
export const chatStyles: CSSResult[] = [
  themeStyles,
  panelStyles,
  css`
    :host {
      display: block;
      height: 100%;
      min-height: 280px;
      font-size: var(--tether-font-size, 14px);
      line-height: 1.45;
    }
    .panel {
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      overflow: hidden;
      container-type: inline-size;
    }
    .main {
      flex: 1;
      min-height: 0;
      display: flex;
      position: relative;
    }
    .conversation {
      flex: 1;
      min-width: 0;
      display: flex;
      flex-direction: column;
    }
    .side {
      flex: none;
      overflow: hidden;
    }
    .threads {
      width: 260px;
      border-right: 1px solid var(--_border);
    }
    .inspector {
      width: 50%;
      border-left: 1px solid var(--_border);
    }
    /* A narrow chat: a panel covers the conversation while it is open. */
    @container (max-width: 639px) {
      .side {
        position: absolute;
        inset: 0;
        width: auto;
        z-index: 2;
        border: 0;
      }
    }
    .toggles {
      display: inline-flex;
      gap: 4px;
      margin-left: auto;
    }
    .toggle {
      font-weight: 400;
      font-size: 0.85em;
      padding: 2px 8px;
    }
    .toggle[aria-expanded="true"] {
      background: var(--_user-bg);
      border-color: var(--_accent);
    }
    .jump {
      position: sticky;
      bottom: 0;
      align-self: center;
      border-radius: 999px;
      box-shadow: 0 2px 6px #0003;
    }
    .tool .name {
      font-weight: 600;
    }
    .tool details {
      flex-basis: 100%;
      color: var(--_muted);
    }
    .tool pre {
      margin: 4px 0 0;
      max-height: 12em;
      overflow: auto;
      font: 0.9em var(--_mono);
    }
    .tool.cancelled .dot {
      background: var(--_muted);
    }
    .connection {
      font-weight: 400;
      font-size: 0.8em;
      color: var(--_muted);
      display: inline-flex;
      align-items: center;
      gap: 6px;
    }
    .dot {
      width: 8px;
      height: 8px;
      border-radius: 50%;
      background: var(--_muted);
      flex: none;
    }
    .connection.open .dot,
    .tool.done .dot {
      background: var(--_success);
    }
    .connection.reconnecting .dot,
    .connection.connecting .dot,
    .tool.running .dot,
    .tool.confirming .dot,
    .tool.held .dot {
      background: var(--_warning);
    }
    .connection.closed .dot,
    .tool.failed .dot,
    .tool.denied .dot,
    .tool.unknown .dot {
      background: var(--_danger);
    }
    .log {
      flex: 1;
      overflow-y: auto;
      padding: var(--_gap);
      display: flex;
      flex-direction: column;
      gap: 10px;
    }
    .empty {
      color: var(--_muted);
      margin: auto 0;
      text-align: center;
    }
    .message {
      max-width: 92%;
      overflow-wrap: anywhere;
    }
    .message.user {
      align-self: flex-end;
      background: var(--_user-bg);
      padding: 8px 12px;
      border-radius: var(--_radius) var(--_radius) 2px var(--_radius);
    }
    .message.user .text {
      white-space: pre-wrap;
    }
    .message.assistant {
      align-self: flex-start;
    }
    .text > :first-child {
      margin-top: 0;
    }
    .text > :last-child {
      margin-bottom: 0;
    }
    .text p,
    .text ul,
    .text ol,
    .text pre,
    .text blockquote {
      margin: 0 0 8px;
    }
    .text h3,
    .text h4,
    .text h5,
    .text h6 {
      margin: 10px 0 4px;
      font-size: 1em;
    }
    .text blockquote {
      padding-left: 10px;
      border-left: 3px solid var(--_border);
      color: var(--_muted);
    }
    .text code,
    .tool code {
      font-family: var(--_mono);
      font-size: 0.9em;
      background: var(--_surface);
      padding: 1px 4px;
      border-radius: 4px;
    }
    .text pre {
      background: var(--_surface);
      padding: 8px;
      border-radius: calc(var(--_radius) * 0.6);
      overflow-x: auto;
    }
    .text pre code {
      padding: 0;
      background: none;
    }
    .tools,
    .cards {
      display: grid;
      gap: 4px;
      margin-bottom: 6px;
    }
    .attachments {
      display: flex;
      flex-wrap: wrap;
      gap: 4px;
      margin-bottom: 6px;
    }
    .attachment {
      display: inline-flex;
      align-items: center;
      gap: 6px;
      max-width: 100%;
      font-size: 0.85em;
      padding: 2px 8px 2px 2px;
      border: 1px solid var(--_border);
      border-radius: calc(var(--_radius) * 0.6);
      background: var(--_bg);
      color: var(--_fg);
      overflow-wrap: anywhere;
    }
    .attachment:not(:has(img)) {
      padding-left: 8px;
    }
    .attachment img {
      display: block;
      max-width: 64px;
      max-height: 64px;
      border-radius: calc(var(--_radius) * 0.4);
    }
    .tool {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 6px;
      font-size: 0.85em;
      padding: 4px 8px;
      border: 1px solid var(--_border);
      border-radius: calc(var(--_radius) * 0.6);
      background: var(--_surface);
    }
    .tool .reason {
      flex-basis: 100%;
      color: var(--_muted);
      overflow: hidden;
      text-overflow: ellipsis;
    }
    .tool .state {
      margin-left: auto;
      font-size: 0.9em;
      color: var(--_muted);
    }
    .notice,
    .error {
      margin: 0 var(--_gap) 8px;
      padding: 6px 10px;
      border-radius: calc(var(--_radius) * 0.6);
      font-size: 0.9em;
    }
    .notice {
      background: var(--_surface);
      color: var(--_muted);
    }
    .error {
      border: 1px solid var(--_danger);
      color: var(--_danger);
      display: flex;
      gap: 8px;
      align-items: center;
      justify-content: space-between;
    }
    form {
      border-top: 1px solid var(--_border);
      padding: 8px var(--_gap) var(--_gap);
      display: grid;
      gap: 6px;
    }
    textarea {
      font: inherit;
      resize: none;
      min-height: 2.6em;
      max-height: 10em;
      padding: 8px 10px;
      border: 1px solid var(--_border);
      border-radius: calc(var(--_radius) * 0.6);
      background: var(--_bg);
      color: var(--_fg);
    }
    textarea:disabled {
      background: var(--_surface);
      color: var(--_muted);
    }
    .row {
      display: flex;
      gap: 6px;
      align-items: center;
    }
    .row .spacer {
      flex: 1;
    }
    .chips {
      display: flex;
      flex-wrap: wrap;
      gap: 4px;
    }
    .chip {
      display: inline-flex;
      align-items: center;
      gap: 4px;
      font-size: 0.8em;
      padding: 2px 4px 2px 8px;
      border-radius: 999px;
      background: var(--_surface);
      border: 1px solid var(--_border);
    }
    .chip button {
      padding: 0 6px;
      border: none;
      background: none;
    }
    input[type="file"] {
      display: none;
    }
  `,
];
