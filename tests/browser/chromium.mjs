/**
 * Where Debian's Chromium is and the flags every test launch uses: headless
 * as root, and quiet on this machine's closed network (without the
 * background-networking flags Chromium keeps trying to reach Google's hosts).
 * No test tool may download a browser of its own.
 */
import process from "node:process";

/** The Chromium executable (override with CHROMIUM_PATH). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** The launch flags. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
