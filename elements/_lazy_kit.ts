/**
 * What the elements loaded on first use (`<tether-threads>`,
 * `<tether-inspector>`) take from the bundle that loads them: Lit, the theme,
 * the chat registry and a few client helpers. Importing this module puts the
 * kit where those modules find it (a `Symbol.for` key on `globalThis`).
 *
 * Why: a lazy module that imported Lit itself would share Lit with the page's
 * bundle, and a bundler then splits Lit (and every other shared module) into
 * a chunk of its own that the first download fetches beside the entry, which
 * cost the elements' first download more than a kilobyte of gzip for two
 * elements it does not even load. A lazy module imports only types and reads
 * this kit when it is evaluated, so it shares nothing and its chunk holds
 * only its own code. The lazy modules are only ever imported dynamically
 * (`lazy.ts`, which imports this module): a static import could be evaluated
 * before this module, since a bundler splitting chunks does not keep the
 * order of module bodies across chunks.
 *
 * @module
 */
import { css, type CSSResult, html, LitElement, nothing } from "lit";
import { headersOf, runtimeHref } from "../client/_http.ts";
import { readEventStream } from "../client/_sse.ts";
import { findChat, watchChats } from "./_registry.ts";
import { HostController } from "./host_controller.ts";
import { panelStyles } from "./_panel.styles.ts";
import { themeStyles } from "./theme.styles.ts";

/** The kit a lazy element module reads. */
export interface Kit {
  css: typeof css;
  html: typeof html;
  LitElement: typeof LitElement;
  nothing: typeof nothing;
  themeStyles: CSSResult;
  panelStyles: CSSResult;
  HostController: typeof HostController;
  findChat: typeof findChat;
  watchChats: typeof watchChats;
  headersOf: typeof headersOf;
  runtimeHref: typeof runtimeHref;
  readEventStream: typeof readEventStream;
}

const kit: Kit = {
  css,
  html,
  LitElement,
  nothing,
  themeStyles,
  panelStyles,
  HostController,
  findChat,
  watchChats,
  headersOf,
  runtimeHref,
  readEventStream,
};

/** Where the kit is found. */
export const KIT: unique symbol = Symbol.for("tether.elements.kit") as never;

(globalThis as { [KIT]?: Kit })[KIT] ??= kit;
